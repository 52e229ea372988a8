// `petstore-kit diff`: a table of pairs of descriptions, each with the rule ids it must find
// (exactly those) and whether a client written against the old one can fail against the new one.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCli } from '../src/cli/cli.js';
import type { Change } from '../src/diff/change.js';
import { diffDocuments } from '../src/diff/document-diff.js';
import { API_RULES, MESSAGE_KINDS, PARTS } from '../src/diff/rules.js';
import { loadSpec, type LoadedSpec } from '../src/openapi/load.js';
import { tempFolder } from './temp-folders.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/diff/', import.meta.url));
let folder: string;

beforeAll(async () => {
  folder = await tempFolder('diff');
});
afterAll(async () => {});

const NEW_PET_SCHEMA = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', maxLength: 50 },
    tag: { type: 'string' },
    status: { type: 'string', enum: ['available', 'sold'] },
    contact: { oneOf: [{ type: 'string', format: 'email' }, { type: 'integer' }] },
  },
};

const json = { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } };

/** The old side of most pairs: a small API with a callback, a webhook and a recursive schema. */
function base(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Pets', version: '1.0.0' },
    servers: [{ url: 'https://api.example.com/v1' }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          ],
          responses: {
            '200': {
              description: 'The pets',
              headers: { 'X-Total': { schema: { type: 'integer' } } },
              content: {
                'application/json': {
                  schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } },
                },
              },
            },
          },
        },
        post: {
          operationId: 'createPet',
          security: [{ key: [] }],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
          },
          responses: { '201': { description: 'Created', content: json } },
        },
      },
      '/pets/{petId}': {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          operationId: 'getPet',
          security: [{ oauth: ['read'] }],
          responses: {
            '200': { description: 'The pet', content: json },
            '404': { description: 'No such pet' },
          },
        },
      },
      '/trees': {
        post: {
          operationId: 'plantTree',
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
          },
          responses: {
            '200': {
              description: 'The tree',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
            },
          },
        },
      },
      '/subscriptions': {
        post: {
          operationId: 'subscribe',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['url'],
                  properties: { url: { type: 'string', format: 'uri' } },
                },
              },
            },
          },
          responses: { '201': { description: 'Subscribed' } },
          callbacks: {
            onEvent: {
              '{$request.body#/url}': {
                post: {
                  requestBody: {
                    required: true,
                    content: {
                      'application/json': { schema: { $ref: '#/components/schemas/Event' } },
                    },
                  },
                  responses: {
                    '200': {
                      description: 'Received',
                      content: {
                        'application/json': {
                          schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    webhooks: {
      petAdopted: {
        post: {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } },
          },
          responses: { '200': { description: 'Received' } },
        },
      },
    },
    components: {
      securitySchemes: {
        key: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        oauth: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: 'https://auth.example.com/token',
              scopes: { read: 'read', write: 'write' },
            },
          },
        },
      },
      schemas: {
        NewPet: NEW_PET_SCHEMA,
        Pet: {
          type: 'object',
          required: ['id', 'name'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string', maxLength: 50 },
            tag: { type: 'string' },
            status: { type: 'string', enum: ['available', 'sold'] },
            owner: {
              oneOf: [
                { type: 'object', properties: { person: { type: 'string' } } },
                { type: 'object', properties: { company: { type: 'string' } } },
              ],
            },
          },
        },
        Node: {
          type: 'object',
          required: ['value'],
          properties: {
            value: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
          },
        },
        Event: {
          type: 'object',
          required: ['kind', 'at'],
          properties: {
            kind: { type: 'string', enum: ['created', 'deleted'] },
            at: { type: 'string', format: 'date-time' },
            note: { type: 'string' },
          },
        },
      },
    },
  };
}

/** An edit of a document: set or delete at a JSON pointer, or replace text in its JSON. */
type Edit =
  | readonly ['set', string, unknown]
  | readonly ['delete', string]
  | readonly ['replace', string, string]
  | readonly ['reverse-keys'];

/** The same value with the keys of every object in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, inner]) => [key, reverseKeys(inner)]),
  );
}

function applyEdits(document: Record<string, unknown>, edits: readonly Edit[]): unknown {
  let out: unknown = structuredClone(document);
  for (const edit of edits) {
    if (edit[0] === 'reverse-keys') {
      out = reverseKeys(out);
      continue;
    }
    if (edit[0] === 'replace') {
      out = JSON.parse(JSON.stringify(out).replaceAll(edit[1], edit[2]));
      continue;
    }
    const tokens = edit[1]
      .split('/')
      .slice(1)
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = tokens.pop()!;
    let node = out as Record<string, unknown>;
    for (const token of tokens) {
      node[token] ??= {};
      node = node[token] as Record<string, unknown>;
    }
    if (edit[0] === 'delete') {
      if (Array.isArray(node)) node.splice(Number(last), 1);
      else Reflect.deleteProperty(node, last);
    } else if (Array.isArray(node) && last === '-') node.push(edit[2]);
    else node[last] = edit[2];
  }
  return out;
}

interface Pair {
  readonly name: string;
  /** Whether a client of the old description can fail against the new one. */
  readonly breaking: boolean;
  /** Every rule id found, once each. */
  readonly ids: readonly string[];
  /** Edits making the old side from base(); none for base() itself. */
  readonly old?: readonly Edit[];
  /** Edits making the new side from the old one; without them, the new side is base(). */
  readonly edits?: readonly Edit[];
  /** Or two files under test/fixtures/diff/. */
  readonly files?: readonly [string, string];
}

const NEW_PET = '/components/schemas/NewPet';
const PET = '/components/schemas/Pet';
const LIST = '/paths/~1pets/get';
const CREATE = '/paths/~1pets/post';
const READ = '/paths/~1pets~1{petId}/get';
const CALLBACK = '/paths/~1subscriptions/post/callbacks/onEvent/{$request.body#~1url}/post';
const WEBHOOK = '/webhooks/petAdopted/post';
const EVENT = '/components/schemas/Event';

const NOT_BREAKING: readonly Pair[] = [
  { name: 'the same document', breaking: false, ids: [] },
  {
    name: 'a $ref inlined',
    breaking: false,
    ids: [],
    edits: [['replace', '{"$ref":"#/components/schemas/NewPet"}', JSON.stringify(NEW_PET_SCHEMA)]],
  },
  {
    name: 'a component renamed, every $ref with it',
    breaking: false,
    ids: [],
    edits: [
      ['replace', '"Pet"', '"Animal"'],
      ['replace', 'schemas/Pet"', 'schemas/Animal"'],
    ],
  },
  {
    name: 'keys reordered',
    breaking: false,
    ids: [],
    edits: [['reverse-keys']],
  },
  {
    name: 'descriptions, examples and summaries edited',
    breaking: false,
    ids: [],
    edits: [
      ['set', `${PET}/description`, 'A pet, as the store keeps it'],
      ['set', `${PET}/properties/name/examples`, ['Rex']],
      ['set', `${LIST}/summary`, 'Lists the pets'],
      ['set', `${LIST}/responses/200/description`, 'Every pet'],
    ],
  },
  {
    name: 'a path parameter renamed',
    breaking: false,
    ids: [],
    edits: [['replace', 'petId', 'id']],
  },
  {
    name: 'two paths of one template, both kept (as Jira has /field/{id} and /field/{fieldId})',
    breaking: false,
    ids: [],
    old: [
      [
        'set',
        '/paths/~1pets~1{name}',
        {
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
          put: { responses: { '204': { description: 'Renamed' } } },
        },
      ],
    ],
    edits: [],
  },
  {
    name: 'a security scheme renamed',
    breaking: false,
    ids: [],
    edits: [['replace', '"key"', '"apiKeyHeader"']],
  },
  {
    name: 'a recursive schema, its description edited deep inside',
    breaking: false,
    ids: [],
    edits: [['set', '/components/schemas/Node/properties/value/description', 'the value']],
  },
  {
    name: 'an optional query parameter added',
    breaking: false,
    ids: ['request-optional-parameter-added'],
    edits: [
      ['set', `${LIST}/parameters/-`, { name: 'q', in: 'query', schema: { type: 'string' } }],
    ],
  },
  {
    name: 'a query parameter removed',
    breaking: false,
    ids: ['request-parameter-removed'],
    edits: [['delete', `${LIST}/parameters/1`]],
  },
  {
    name: 'a required query parameter made optional',
    breaking: false,
    ids: ['request-parameter-became-optional'],
    old: [['set', `${LIST}/parameters/0/required`, true]],
  },
  {
    name: 'an optional property added to a request body',
    breaking: false,
    ids: ['request-property-added'],
    edits: [['set', `${NEW_PET}/properties/color`, { type: 'string' }]],
  },
  {
    name: 'a required property of a request body removed',
    breaking: false,
    ids: ['request-required-property-removed'],
    edits: [
      ['delete', `${NEW_PET}/properties/name`],
      ['set', `${NEW_PET}/required`, []],
    ],
  },
  {
    name: 'an optional property added to an answer',
    breaking: false,
    ids: ['response-property-added'],
    edits: [['set', `${PET}/properties/color`, { type: 'string' }]],
  },
  {
    name: 'an optional property removed from an answer (warning)',
    breaking: false,
    ids: ['response-optional-property-removed'],
    edits: [['delete', `${PET}/properties/tag`]],
  },
  {
    name: 'an enum value added to a request',
    breaking: false,
    ids: ['request-enum-value-added'],
    edits: [['set', `${NEW_PET}/properties/status/enum/-`, 'pending']],
  },
  {
    name: 'an enum value removed from an answer',
    breaking: false,
    ids: ['response-enum-value-removed'],
    edits: [['set', `${PET}/properties/status/enum`, ['available']]],
  },
  {
    name: 'an enum laid on an answer',
    breaking: false,
    ids: ['response-enum-added'],
    edits: [['set', `${PET}/properties/tag/enum`, ['dog', 'cat']]],
  },
  {
    name: 'a request bound loosened',
    breaking: false,
    ids: ['request-bound-loosened'],
    edits: [['set', `${NEW_PET}/properties/name/maxLength`, 100]],
  },
  {
    name: 'an answer bound tightened',
    breaking: false,
    ids: ['response-bound-tightened'],
    edits: [['set', `${PET}/properties/name/maxLength`, 20]],
  },
  {
    name: 'an answer property made required',
    breaking: false,
    ids: ['response-required-property-added'],
    edits: [['set', `${PET}/required`, ['id', 'name', 'tag']]],
  },
  {
    name: 'a request property made optional',
    breaking: false,
    ids: ['request-property-became-optional'],
    edits: [['set', `${NEW_PET}/required`, []]],
  },
  {
    name: 'a request type widened (integer to number)',
    breaking: false,
    ids: ['request-type-widened'],
    edits: [['set', `${LIST}/parameters/0/schema/type`, 'number']],
  },
  {
    name: 'an answer type narrowed',
    breaking: false,
    ids: ['response-type-narrowed'],
    old: [['set', `${PET}/properties/tag/type`, ['string', 'integer']]],
  },
  {
    name: 'null allowed in a request',
    breaking: false,
    ids: ['request-nullable-added'],
    edits: [['set', `${NEW_PET}/properties/tag/type`, ['string', 'null']]],
  },
  {
    name: 'null no longer sent in an answer',
    breaking: false,
    ids: ['response-nullable-removed'],
    old: [['set', `${PET}/properties/tag/type`, ['string', 'null']]],
  },
  {
    name: 'a request media type added',
    breaking: false,
    ids: ['request-media-type-added'],
    edits: [['set', `${CREATE}/requestBody/content/application~1xml`, {}]],
  },
  {
    name: 'an answer media type added',
    breaking: false,
    ids: ['response-media-type-added'],
    edits: [['set', `${READ}/responses/200/content/application~1xml`, {}]],
  },
  {
    name: 'a success status added (warning)',
    breaking: false,
    ids: ['response-success-status-added'],
    edits: [['set', `${CREATE}/responses/202`, { description: 'Accepted' }]],
  },
  {
    name: 'an error status added and one removed',
    breaking: false,
    ids: ['response-status-added', 'response-status-removed'],
    edits: [
      ['set', `${CREATE}/responses/400`, { description: 'Bad request' }],
      ['delete', `${READ}/responses/404`],
    ],
  },
  {
    name: 'an answer header made required (the client is promised more)',
    breaking: false,
    ids: ['response-header-became-required'],
    edits: [['set', `${LIST}/responses/200/headers/X-Total/required`, true]],
  },
  {
    name: 'a required header of the answer the API reads removed',
    breaking: false,
    ids: ['callback-response-required-header-removed'],
    old: [
      [
        'set',
        `${CALLBACK}/responses/200/headers`,
        { 'X-Receipt': { required: true, schema: { type: 'string' } } },
      ],
    ],
  },
  {
    name: 'an answer header removed (warning)',
    breaking: false,
    ids: ['response-header-removed'],
    edits: [['delete', `${LIST}/responses/200/headers`]],
  },
  {
    name: 'a path and an operation added',
    breaking: false,
    ids: ['path-added', 'operation-added'],
    edits: [
      ['set', '/paths/~1owners', { get: { responses: { '200': { description: 'ok' } } } }],
      ['set', '/paths/~1pets~1{petId}/delete', { responses: { '204': { description: 'Gone' } } }],
    ],
  },
  {
    name: 'an operation deprecated and renamed',
    breaking: false,
    ids: ['operation-deprecated', 'operation-id-changed'],
    edits: [
      ['set', `${LIST}/deprecated`, true],
      ['set', `${LIST}/operationId`, 'findPets'],
    ],
  },
  {
    name: 'a credential no longer needed',
    breaking: false,
    ids: ['security-requirement-removed'],
    edits: [['set', `${CREATE}/security`, []]],
  },
  {
    name: 'another way to authenticate accepted',
    breaking: false,
    ids: ['security-requirement-removed'],
    edits: [['set', `${CREATE}/security/-`, { oauth: ['write'] }]],
  },
  {
    name: 'a request opened to properties it does not name',
    breaking: false,
    ids: ['request-additional-properties-opened'],
    old: [['set', `${NEW_PET}/additionalProperties`, false]],
  },
  {
    name: 'a request pattern removed',
    breaking: false,
    ids: ['request-pattern-removed'],
    old: [['set', `${NEW_PET}/properties/tag/pattern`, '^[a-z]+$']],
  },
  {
    name: 'an answer pattern added',
    breaking: false,
    ids: ['response-pattern-added'],
    edits: [['set', `${PET}/properties/tag/pattern`, '^[a-z]+$']],
  },
  {
    name: 'a format changed (warning)',
    breaking: false,
    ids: ['request-format-changed'],
    edits: [
      [
        'set',
        '/paths/~1subscriptions/post/requestBody/content/application~1json/schema/properties/url/format',
        'uri-reference',
      ],
    ],
  },
  {
    name: 'a request body made optional',
    breaking: false,
    ids: ['request-body-became-optional'],
    edits: [['set', `${CREATE}/requestBody/required`, false]],
  },
  {
    name: 'a request body removed (warning) and an optional one added',
    breaking: false,
    ids: ['request-body-removed', 'request-optional-body-added'],
    edits: [
      ['delete', '/paths/~1trees/post/requestBody'],
      ['set', `${LIST}/requestBody`, { content: { 'text/plain': {} } }],
    ],
  },
  {
    name: 'a request variant added',
    breaking: false,
    ids: ['request-variant-added'],
    edits: [['set', `${NEW_PET}/properties/contact/oneOf/-`, { type: 'boolean' }]],
  },
  {
    name: 'callback and webhook: a required property added to the request the API sends',
    breaking: false,
    ids: ['callback-request-required-property-added', 'webhook-request-required-property-added'],
    edits: [['set', `${EVENT}/required`, ['kind', 'at', 'note']]],
  },
  {
    name: 'callback: an optional property dropped from the answer the API reads',
    breaking: false,
    ids: ['callback-response-optional-property-removed'],
    edits: [['delete', `${CALLBACK}/responses/200/content/application~1json/schema/properties/ok`]],
  },
  {
    name: 'callback: another success status the API accepts',
    breaking: false,
    ids: ['callback-response-success-status-added'],
    edits: [['set', `${CALLBACK}/responses/202`, { description: 'Accepted' }]],
  },
  {
    name: 'webhook and callback: an enum value no longer sent',
    breaking: false,
    ids: ['webhook-request-enum-value-removed', 'callback-request-enum-value-removed'],
    edits: [['set', `${EVENT}/properties/kind/enum`, ['created']]],
  },
  {
    name: 'webhook and callback added (warnings)',
    breaking: false,
    ids: ['webhook-added', 'callback-added'],
    edits: [
      ['set', '/webhooks/petReturned', { post: { responses: { '200': { description: 'ok' } } } }],
      [
        'set',
        '/paths/~1subscriptions/post/callbacks/onError',
        { '{$request.body#/url}': { post: { responses: { '200': { description: 'ok' } } } } },
      ],
    ],
  },
];

const BREAKING: readonly Pair[] = [
  {
    name: 'a webhook the API stops sending (its subscribers lose it)',
    breaking: true,
    ids: ['webhook-removed'],
    edits: [['delete', '/webhooks/petAdopted']],
  },
  {
    name: 'a callback the API stops sending',
    breaking: true,
    ids: ['callback-removed'],
    edits: [['delete', '/paths/~1subscriptions/post/callbacks']],
  },
  {
    name: "webhook: the receiver's answer, which had no body, now has one that requires a field",
    breaking: true,
    ids: ['webhook-response-media-type-added', 'webhook-response-required-property-added'],
    edits: [
      [
        'set',
        `${WEBHOOK}/responses/200/content`,
        {
          'application/json': {
            schema: {
              type: 'object',
              required: ['seen'],
              properties: { seen: { type: 'boolean' } },
            },
          },
        },
      ],
    ],
  },
  {
    name: "callback: the receiver's answer must now carry a header",
    breaking: true,
    ids: ['callback-response-required-header-added'],
    edits: [
      [
        'set',
        `${CALLBACK}/responses/200/headers`,
        { 'X-Receipt': { required: true, schema: { type: 'string' } } },
      ],
    ],
  },
  {
    name: 'a required answer header removed (clients that read it fail)',
    breaking: true,
    ids: ['response-required-header-removed'],
    old: [['set', `${LIST}/responses/200/headers/X-Total/required`, true]],
    edits: [['delete', `${LIST}/responses/200/headers`]],
  },
  {
    name: 'a required answer header became optional',
    breaking: true,
    ids: ['response-header-became-optional'],
    old: [['set', `${LIST}/responses/200/headers/X-Total/required`, true]],
  },
  {
    name: 'a stream item schema (3.2 itemSchema) loses a required property',
    breaking: true,
    ids: ['response-required-property-removed', 'response-property-added'],
    old: [
      [
        'set',
        `${LIST}/responses/200/content/application~1jsonl`,
        {
          itemSchema: {
            type: 'object',
            required: ['id'],
            properties: { id: { type: 'integer' } },
          },
        },
      ],
    ],
    edits: [
      [
        'set',
        `${LIST}/responses/200/content/application~1jsonl/itemSchema`,
        { type: 'object', properties: { name: { type: 'string' } } },
      ],
    ],
  },
  {
    name: 'a required query parameter added',
    breaking: true,
    ids: ['request-required-parameter-added'],
    edits: [
      [
        'set',
        `${LIST}/parameters/-`,
        { name: 'shop', in: 'query', required: true, schema: { type: 'string' } },
      ],
    ],
  },
  {
    name: 'an optional parameter made required',
    breaking: true,
    ids: ['request-parameter-became-required'],
    edits: [['set', `${LIST}/parameters/0/required`, true]],
  },
  {
    name: 'a parameter written in another style',
    breaking: true,
    ids: ['request-parameter-style-changed'],
    edits: [['set', `${LIST}/parameters/1/explode`, false]],
  },
  {
    name: 'a required property added to a request body',
    breaking: true,
    ids: ['request-required-property-added'],
    edits: [['set', `${NEW_PET}/required`, ['name', 'tag']]],
  },
  {
    name: 'a request type narrowed (number to integer)',
    breaking: true,
    ids: ['request-type-narrowed'],
    old: [['set', `${LIST}/parameters/0/schema/type`, 'number']],
  },
  {
    name: 'a request property of another type',
    breaking: true,
    ids: ['request-type-changed'],
    edits: [['set', `${NEW_PET}/properties/tag/type`, 'integer']],
  },
  {
    name: 'null refused in a request',
    breaking: true,
    ids: ['request-nullable-removed'],
    old: [['set', `${NEW_PET}/properties/tag/type`, ['string', 'null']]],
  },
  {
    name: 'an enum value removed from a request',
    breaking: true,
    ids: ['request-enum-value-removed'],
    edits: [['set', `${NEW_PET}/properties/status/enum`, ['available']]],
  },
  {
    name: 'an enum laid on a request',
    breaking: true,
    ids: ['request-enum-added'],
    edits: [['set', `${NEW_PET}/properties/tag/enum`, ['dog', 'cat']]],
  },
  {
    name: 'a request bound tightened',
    breaking: true,
    ids: ['request-bound-tightened'],
    edits: [['set', `${LIST}/parameters/0/schema/maximum`, 50]],
  },
  {
    name: 'a pattern added to a request',
    breaking: true,
    ids: ['request-pattern-added'],
    edits: [['set', `${NEW_PET}/properties/tag/pattern`, '^[a-z]+$']],
  },
  {
    name: 'a request pattern changed',
    breaking: true,
    ids: ['request-pattern-changed'],
    old: [['set', `${NEW_PET}/properties/tag/pattern`, '^[a-z]+$']],
    edits: [['set', `${NEW_PET}/properties/tag/pattern`, '^[a-z]{2,}$']],
  },
  {
    name: 'additionalProperties: false added to a request',
    breaking: true,
    ids: ['request-additional-properties-closed'],
    edits: [['set', `${NEW_PET}/additionalProperties`, false]],
  },
  {
    name: 'a request media type removed',
    breaking: true,
    ids: ['request-media-type-removed'],
    old: [['set', `${CREATE}/requestBody/content/application~1xml`, {}]],
  },
  {
    name: 'a request body made required',
    breaking: true,
    ids: ['request-body-became-required'],
    edits: [['set', '/paths/~1trees/post/requestBody/required', true]],
  },
  {
    name: 'a required request body added',
    breaking: true,
    ids: ['request-required-body-added'],
    edits: [['set', `${LIST}/requestBody`, { required: true, content: { 'text/plain': {} } }]],
  },
  {
    name: 'a request variant removed',
    breaking: true,
    ids: ['request-variant-removed'],
    old: [['set', `${NEW_PET}/properties/contact/oneOf/-`, { type: 'boolean' }]],
  },
  {
    name: 'a credential required where none was',
    breaking: true,
    ids: ['security-requirement-added'],
    edits: [['set', `${LIST}/security`, [{ key: [] }]]],
  },
  {
    name: 'a security scheme changed',
    breaking: true,
    ids: ['security-scheme-changed'],
    edits: [['set', '/components/securitySchemes/key/name', 'X-Token']],
  },
  {
    name: 'a scope added',
    breaking: true,
    ids: ['security-scope-added'],
    edits: [['set', `${READ}/security`, [{ oauth: ['read', 'write'] }]]],
  },
  {
    name: 'a required property removed from an answer',
    breaking: true,
    ids: ['response-required-property-removed'],
    edits: [
      ['delete', `${PET}/properties/name`],
      ['set', `${PET}/required`, ['id']],
    ],
  },
  {
    name: 'an answer property made optional',
    breaking: true,
    ids: ['response-property-became-optional'],
    edits: [['set', `${PET}/required`, ['id']]],
  },
  {
    name: 'an answer property of another type',
    breaking: true,
    ids: ['response-type-changed'],
    edits: [['set', `${PET}/properties/id/type`, 'integer']],
  },
  {
    name: 'an answer type widened',
    breaking: true,
    ids: ['response-type-widened'],
    edits: [['set', `${PET}/properties/id/type`, ['string', 'integer']]],
  },
  {
    name: 'null sent in an answer (nullable added)',
    breaking: true,
    ids: ['response-nullable-added'],
    edits: [['set', `${PET}/properties/name/type`, ['string', 'null']]],
  },
  {
    name: 'an enum value added to an answer',
    breaking: true,
    ids: ['response-enum-value-added'],
    edits: [['set', `${PET}/properties/status/enum/-`, 'pending']],
  },
  {
    name: 'an answer enum lifted',
    breaking: true,
    ids: ['response-enum-removed'],
    edits: [['delete', `${PET}/properties/status/enum`]],
  },
  {
    name: 'an answer bound loosened and its pattern dropped (warnings) with a variant added',
    breaking: true,
    ids: ['response-bound-loosened', 'response-pattern-removed', 'response-variant-added'],
    old: [['set', `${PET}/properties/tag/pattern`, '^[a-z]+$']],
    edits: [
      ['set', `${PET}/properties/name/maxLength`, 100],
      ['delete', `${PET}/properties/tag/pattern`],
      ['set', `${PET}/properties/owner/oneOf/-`, { type: 'string' }],
    ],
  },
  {
    name: 'an answer opened to properties it does not name (warning), its pattern changed (warning), a success status changed',
    breaking: true,
    ids: [
      'response-additional-properties-opened',
      'response-pattern-changed',
      'response-success-status-removed',
      'response-success-status-added',
    ],
    old: [
      ['set', `${PET}/additionalProperties`, false],
      ['set', `${PET}/properties/tag/pattern`, '^[a-z]+$'],
    ],
    edits: [
      ['delete', `${PET}/additionalProperties`],
      ['set', `${PET}/properties/tag/pattern`, '^[a-z]{2,}$'],
      ['replace', '"201":{"description":"Created"', '"200":{"description":"Created"'],
    ],
  },
  {
    name: 'an answer media type removed',
    breaking: true,
    ids: ['response-media-type-removed'],
    old: [['set', `${READ}/responses/200/content/application~1xml`, {}]],
  },
  {
    name: 'an operation removed',
    breaking: true,
    ids: ['operation-removed'],
    edits: [['delete', `${CREATE}`]],
  },
  {
    name: 'a path removed',
    breaking: true,
    ids: ['path-removed'],
    edits: [['delete', '/paths/~1trees']],
  },
  {
    name: 'the base path changed',
    breaking: true,
    ids: ['base-path-changed'],
    edits: [['set', '/servers/0/url', 'https://api.example.com/v2']],
  },
  {
    name: 'a recursive schema changed deep inside',
    breaking: true,
    ids: ['request-type-changed', 'response-type-changed'],
    edits: [['set', '/components/schemas/Node/properties/value/type', 'integer']],
  },
  {
    name: 'callback: a required property removed from the request the API sends',
    breaking: true,
    ids: [
      'callback-request-required-property-removed',
      'webhook-request-required-property-removed',
    ],
    edits: [
      ['delete', `${EVENT}/properties/at`],
      ['set', `${EVENT}/required`, ['kind']],
    ],
  },
  {
    name: 'callback: a required property added to the answer the API reads',
    breaking: true,
    ids: ['callback-response-required-property-added'],
    edits: [['set', `${CALLBACK}/responses/200/content/application~1json/schema/required`, ['ok']]],
  },
  {
    name: 'callback: the request body the client reads became optional',
    breaking: true,
    ids: ['callback-request-body-became-optional'],
    edits: [['set', `${CALLBACK}/requestBody/required`, false]],
  },
  {
    name: 'webhook: null sent where it never was',
    breaking: true,
    ids: ['webhook-request-nullable-added', 'callback-request-nullable-added'],
    edits: [['set', `${EVENT}/properties/note/type`, ['string', 'null']]],
  },
  {
    name: 'webhook: an enum value added to what the API sends',
    breaking: true,
    ids: ['webhook-request-enum-value-added', 'callback-request-enum-value-added'],
    edits: [['set', `${EVENT}/properties/kind/enum/-`, 'adopted']],
  },
  {
    name: 'webhook: the answer the API reads narrowed to a media type the client does not send',
    breaking: true,
    ids: ['webhook-response-media-type-removed'],
    old: [
      ['set', `${WEBHOOK}/responses/200/content`, { 'application/json': {}, 'text/plain': {} }],
    ],
    edits: [['set', `${WEBHOOK}/responses/200/content`, { 'application/json': {} }]],
  },
  {
    name: 'webhook: a success answer the API no longer takes (warning), and a parameter the client reads removed',
    breaking: true,
    ids: ['webhook-response-success-status-removed', 'webhook-request-parameter-removed'],
    old: [
      ['set', `${WEBHOOK}/responses/204`, { description: 'Received' }],
      [
        'set',
        `${WEBHOOK}/parameters`,
        [{ name: 'X-Signature', in: 'header', required: true, schema: { type: 'string' } }],
      ],
    ],
    edits: [
      ['delete', `${WEBHOOK}/responses/204`],
      ['delete', `${WEBHOOK}/parameters`],
    ],
  },
];

/**
 * The same API across versions, and real history of public descriptions: each file under
 * real/ names its repository and commit, and what of it was kept.
 */
const FILES: readonly Pair[] = [
  {
    name: 'Swagger 2.0 and OpenAPI 3.1 of the same API',
    breaking: false,
    ids: [],
    files: ['versions/swagger2.yaml', 'versions/openapi31.yaml'],
  },
  {
    name: 'OpenAPI 3.0 (nullable) and OpenAPI 3.1 (type: [x, null]) of the same API',
    breaking: false,
    ids: [],
    files: ['versions/openapi30.yaml', 'versions/openapi31.yaml'],
  },
  {
    name: 'Swagger 2.0 and OpenAPI 3.0 of the same API',
    breaking: false,
    ids: [],
    files: ['versions/swagger2.yaml', 'versions/openapi30.yaml'],
  },
  {
    name: 'OpenAPI 3.1 back to Swagger 2.0',
    breaking: false,
    ids: [],
    files: ['versions/openapi31.yaml', 'versions/swagger2.yaml'],
  },
  {
    name: 'a schema moved behind a relative-file $ref, and 3.0 to 3.1',
    breaking: false,
    ids: [],
    files: ['external/old.yaml', 'external/new.yaml'],
  },
  {
    name: 'a property made optional in a schema behind a relative-file $ref',
    breaking: true,
    ids: ['response-property-became-optional'],
    files: ['external/new.yaml', 'external/id-optional.yaml'],
  },
  {
    name: 'swagger-petstore c6a8b2c: summaries and descriptions reworded',
    breaking: false,
    ids: [],
    files: ['real/petstore-descriptions/old.yaml', 'real/petstore-descriptions/new.yaml'],
  },
  {
    name: 'swagger-petstore bdc1a82: OpenAPI 3.0.2 to 3.0.4, statuses reworked, keys reordered',
    breaking: false,
    ids: ['response-success-status-added', 'response-status-added', 'response-status-removed'],
    files: ['real/petstore-oas-304/old.yaml', 'real/petstore-oas-304/new.yaml'],
  },
  {
    name: 'swagger-petstore 39b7b5f: default answers become the Error schema, server moved',
    breaking: true,
    ids: [
      'base-path-changed',
      'response-type-changed',
      'response-media-type-removed',
      'response-header-removed',
      'response-required-property-added',
    ],
    files: ['real/petstore-default-error/old.yaml', 'real/petstore-default-error/new.yaml'],
  },
  {
    name: 'swagger-petstore 99f04dd: default answers lose their JSON content',
    breaking: true,
    ids: ['response-media-type-removed'],
    files: ['real/petstore-default-content/old.yaml', 'real/petstore-default-content/new.yaml'],
  },
  {
    name: 'Xero-OpenAPI 38d8c4d: the empty currency code removed from an enum',
    breaking: true,
    ids: ['request-enum-value-removed', 'response-enum-value-removed'],
    files: ['real/xero-bankfeeds-empty-enum/old.yaml', 'real/xero-bankfeeds-empty-enum/new.yaml'],
  },
  {
    name: 'Xero-OpenAPI f750320: an optional Idempotency-Key header',
    breaking: false,
    ids: ['request-optional-parameter-added'],
    files: ['real/xero-bankfeeds-idempotency/old.yaml', 'real/xero-bankfeeds-idempotency/new.yaml'],
  },
  {
    name: 'Xero-OpenAPI b202007: the file reformatted, examples rewritten',
    breaking: false,
    ids: [],
    files: ['real/xero-bankfeeds-reformatted/old.yaml', 'real/xero-bankfeeds-reformatted/new.yaml'],
  },
];

const PAIRS = [...NOT_BREAKING, ...BREAKING, ...FILES];

async function sideOf(pair: Pair, side: 0 | 1): Promise<string> {
  if (pair.files) return join(FIXTURES, pair.files[side]);
  const old = applyEdits(base(), pair.old ?? []) as Record<string, unknown>;
  // A pair with only `old` edits compares them with base() itself.
  const document =
    side === 0 ? old : pair.edits ? applyEdits(old, pair.edits) : applyEdits(base(), []);
  const file = join(folder, `${PAIRS.indexOf(pair)}-${side}.json`);
  await writeFile(file, JSON.stringify(document));
  return file;
}

/**
 * Each document loaded once, by its text: most pairs have base() itself on one side, and each
 * load runs the official OpenAPI check, which compiles its schema again (four fifths of this
 * file's CPU when every side was loaded anew). diffDocuments only reads what it is given.
 */
const loads = new Map<string, Promise<LoadedSpec>>();

async function load(file: string): Promise<LoadedSpec> {
  // Its folder too: a `$ref` to another file is read from there.
  const key = `${dirname(file)}\n${await readFile(file, 'utf8')}`;
  let loaded = loads.get(key);
  if (!loaded) {
    loaded = loadSpec(file, { checkCache: false });
    loads.set(key, loaded);
  }
  return loaded;
}

async function diffOf(pair: Pair): Promise<Change[]> {
  const [old, now] = await Promise.all([sideOf(pair, 0).then(load), sideOf(pair, 1).then(load)]);
  return diffDocuments(old.resolved, now.resolved);
}

describe('petstore-kit diff: pairs of descriptions', () => {
  it('has at least 60 pairs, about half of them breaking', () => {
    expect(PAIRS.length).toBeGreaterThanOrEqual(60);
    const breaking = PAIRS.filter((pair) => pair.breaking).length;
    expect(breaking / PAIRS.length).toBeGreaterThan(0.35);
    expect(breaking / PAIRS.length).toBeLessThan(0.65);
  });

  it('covers every rule of the API and every kind of change, in every part', () => {
    const found = new Set(PAIRS.flatMap((pair) => pair.ids));
    for (const rule of Object.keys(API_RULES)) expect(found, rule).toContain(rule);
    for (const kind of Object.keys(MESSAGE_KINDS))
      expect(
        [...found].some((id) => id.endsWith(`-${kind}`) && id !== kind),
        kind,
      ).toBe(true);
    for (const part of PARTS)
      expect(
        [...found].some((id) => id.startsWith(`${part}-`)),
        part,
      ).toBe(true);
  });

  it('documents every rule and its default levels in docs/diff.md', async () => {
    const page = await readFile(new URL('../docs/diff.md', import.meta.url), 'utf8');
    for (const [kind, { api, client }] of Object.entries(MESSAGE_KINDS))
      expect(page).toMatch(new RegExp(`\\| \`${kind}\` +\\| ${api} +\\| ${client} +\\|`));
    for (const [rule, level] of Object.entries(API_RULES))
      expect(page).toMatch(new RegExp(`\\| \`${rule}\` +\\| ${level} +\\|`));
  });

  it.each(PAIRS.map((pair) => [pair.name, pair] as const))('%s', async (_name, pair) => {
    const changes = await diffOf(pair);
    expect([...new Set(changes.map((change) => change.id))].sort()).toEqual([...pair.ids].sort());
    expect(changes.some((change) => change.level === 'breaking')).toBe(pair.breaking);
    for (const change of changes) expect(change.pointer).toMatch(/^#\//);
  });
});

/** Runs `petstore-kit diff` in-process; its output and exit code. */
async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  let stdout = '';
  let stderr = '';
  let code = -1;
  const sink = (write: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        write(chunk.toString());
        done();
      },
    });
  const program = createCli({
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    onExitCode: (exit) => (code = exit),
  });
  program.exitOverride();
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync(['node', 'petstore-kit', 'diff', ...args]);
  } catch (err) {
    code = (err as { exitCode?: number }).exitCode ?? 99;
  }
  return { stdout, stderr, code };
}

describe('petstore-kit diff: the command', () => {
  const pair = (edits: readonly Edit[]): Promise<[string, string]> =>
    Promise.all([
      sideOf({ name: 'old', breaking: false, ids: [] }, 0),
      (async () => {
        const file = join(folder, `cli-${Math.random().toString(36).slice(2)}.json`);
        await writeFile(file, JSON.stringify(applyEdits(base(), edits)));
        return file;
      })(),
    ]);
  const breaking: Edit[] = [
    ['set', `${PET}/required`, ['id']],
    ['set', `${LIST}/deprecated`, true],
  ];

  it('exits 1 on a breaking change, its first line one sentence, then id, location and message', async () => {
    const [old, now] = await pair(breaking);
    const { stdout, code } = await cli(old, now);
    expect(code).toBe(1);
    const [first, ...rest] = stdout.trimEnd().split('\n');
    expect(first).toMatch(
      /^petstore-kit diff: 3 breaking changes from .* \(and 1 other change\): a client written against the old description can fail against the new one\.$/,
    );
    expect(rest.join('\n')).toContain(
      'response-property-became-optional  GET /pets #/paths/~1pets/get/responses/200/content/application~1json/schema/items/properties/name',
    );
    expect(rest.join('\n')).toContain('property name became optional');
  });

  it('exits 0 when nothing breaks, and 1 with --fail-on warning when a warning is found', async () => {
    const [old, now] = await pair([['set', `${LIST}/deprecated`, true]]);
    expect((await cli(old, now)).code).toBe(0);
    const strict = await cli(old, now, '--fail-on', 'warning');
    expect(strict.code).toBe(1);
    expect(strict.stdout.split('\n')[0]).toMatch(
      /no breaking change .*, but 1 change at --fail-on warning or above/,
    );
  });

  it('prints {"breaking": [...], "nonBreaking": [...]} with --format json', async () => {
    const [old, now] = await pair(breaking);
    const { stdout, stderr, code } = await cli(old, now, '--format', 'json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      breaking: { id: string; location: string; message: string }[];
      nonBreaking: { id: string; level: string }[];
    };
    // Pet is read in three answers: each operation is told of.
    expect(report.breaking.map((item) => item.id)).toEqual(
      Array(3).fill('response-property-became-optional'),
    );
    expect(report.breaking[0]!.location).toMatch(/^GET \/pets #\/paths\//);
    expect(report.nonBreaking).toMatchObject([{ id: 'operation-deprecated', level: 'warning' }]);
    expect(stderr).toMatch(/^petstore-kit diff: 3 breaking changes/);
  });

  it('writes JUnit XML with one failure per breaking change, and Markdown', async () => {
    const [old, now] = await pair(breaking);
    const junit = await cli(old, now, '--format', 'junit');
    expect(junit.stdout).toMatch(/^<\?xml/);
    expect(junit.stdout).toContain('failures="3"');
    expect(junit.stdout.match(/<failure /g)).toHaveLength(3);
    expect(junit.stdout).toContain(
      'name="operation-deprecated GET /pets #/paths/~1pets/get/deprecated"/>',
    );
    const markdown = await cli(old, now, '--format', 'markdown');
    expect(markdown.stdout).toContain('| Level | Rule | Location | Change |');
    expect(markdown.stdout).toContain('| breaking | `response-property-became-optional` |');
  });

  it('takes rule levels from a YAML or JSON configuration', async () => {
    const [old, now] = await pair([['set', `${PET}/properties/status/enum/-`, 'pending']]);
    expect((await cli(old, now)).code).toBe(1);
    const yaml = join(folder, 'levels.yaml');
    await writeFile(yaml, 'rules:\n  response-enum-value-added: warning\n');
    const lowered = await cli(old, now, '--config', yaml);
    expect(lowered.code).toBe(0);
    expect(lowered.stdout).toContain('warning  response-enum-value-added');
    const raised = join(folder, 'levels.json');
    await writeFile(raised, JSON.stringify({ rules: { 'operation-deprecated': 'breaking' } }));
    const [, deprecated] = await pair([['set', `${LIST}/deprecated`, true]]);
    expect((await cli(old, deprecated, '--config', raised)).code).toBe(1);
  });

  it.each([
    [
      'a missing file',
      ['missing.yaml'],
      /cannot compare: cannot read the spec at .*missing\.yaml \(ENOENT\)/,
    ],
    ['a file that is not OpenAPI', ['not-openapi.yaml'], /is not an OpenAPI document/],
    [
      'an unknown rule in the configuration',
      ['--config', 'bad-levels.yaml'],
      /no rule is named "no-such-rule"/,
    ],
    [
      'an unknown format',
      ['--format', 'html'],
      /petstore-kit diff: option .*--format.* argument 'html' is invalid/,
    ],
  ])('exits 2 with one line for %s', async (_name, args, line) => {
    await writeFile(join(folder, 'not-openapi.yaml'), 'hello: world\n');
    await writeFile(join(folder, 'bad-levels.yaml'), 'rules:\n  no-such-rule: info\n');
    const [old, now] = await pair([]);
    const files =
      args[0]!.endsWith('.yaml') && !args[0]!.startsWith('--')
        ? [old, join(folder, args[0]!)]
        : [old, now, ...args.map((arg) => (arg.endsWith('.yaml') ? join(folder, arg) : arg))];
    const { stderr, stdout, code } = await cli(...files);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(line);
  });
});
