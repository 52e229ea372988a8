import type { OpenAPIV3_1 } from 'openapi-types';
import {
  createAnswerJudge,
  type DocumentedAnswer,
  type JudgedOperation,
  type JudgedSchema,
} from '../../openapi/answer-judge.js';
import type { SchemaObject } from '../../openapi/load.js';
import type { Operation } from '../../openapi/operations.js';
import type { Envelope, Resource } from '../../openapi/resources.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import type { Breach } from './request-rules.js';
import { isJsonObject, keyIn } from '../../vocabulary/record.js';

type HeaderObject = OpenAPIV3_1.HeaderObject;

/** An answer of the target as the proxy saw it go by. */
export interface ObservedAnswer {
  /** The request's method: a HEAD's answer has no body to check. */
  method: string;
  status: number;
  /** By lower-case name, as Node gives them. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * The body's bytes, decoded from its Content-Encoding; undefined when it was too large to
   * keep (the proxy streams it on, unchecked).
   */
  body: Buffer | undefined;
}

/**
 * Checks the target's answers against the spec with the one judge of answers the contract
 * suite asks too (openapi/answer-judge.ts: status, required headers and their schemas, media
 * type, body, error shape and its `status` field), then, for a list of a collection the mock
 * infers, that no id repeats. Values are checked by the mock's compiled schemas.
 * @example checkAnswer(listCategories, { method: 'GET', status: 200, headers, body }) // [{ rule: 'duplicate-ids', message: '...' }]
 */
export function createAnswerRules(
  compiler: SchemaCompiler,
  resources: readonly Resource[],
): (operation: Operation, answer: ObservedAnswer) => Breach[] {
  const lists = new Map<Operation, { resource: Resource; envelope: Envelope }>();
  for (const resource of resources)
    for (const [operation, action] of resource.actions) {
      const envelope = resource.envelopes.get(operation);
      if (action === 'list' && envelope) lists.set(operation, { resource, envelope });
    }
  /** A header's schema as the one property of an object, made once, so that it compiles once. */
  const headerObjects = new WeakMap<JudgedSchema, Map<string, SchemaObject>>();
  const headerObject = (name: string, schema: JudgedSchema): SchemaObject => {
    let byName = headerObjects.get(schema);
    if (!byName) headerObjects.set(schema, (byName = new Map()));
    let object = byName.get(name);
    if (!object)
      byName.set(
        name,
        (object = { type: 'object', properties: { [name]: schema } } as SchemaObject),
      );
    return object;
  };
  const judge = createAnswerJudge({
    body: (schema, value) => compiler.response(schema as SchemaObject)(value, '/response'),
    header: (name, schema, text) =>
      compiler.parameters(headerObject(name, schema))({ [name]: text }, '/headers'),
  });
  /** Each operation's responses as the judge reads them, made once. */
  const documented = new WeakMap<Operation, JudgedOperation>();
  const documentedOf = (operation: Operation): JudgedOperation => {
    let judged = documented.get(operation);
    if (!judged) documented.set(operation, (judged = judgedOperation(operation)));
    return judged;
  };

  return (operation, answer) => {
    const heard = { ...answer, text: answer.body?.toString('utf8') };
    const found: Breach[] = judge(documentedOf(operation), heard).flatMap(({ rule, details }) =>
      details.map((message) => ({ rule, message })),
    );
    const list = lists.get(operation);
    if (list && answer.status < 300 && heard.text)
      found.push(...duplicateIds(list.resource, list.envelope, parsed(heard.text)));
    return found;
  };
}

/** An operation's documented responses as the judge reads them (the contract plan's shape). */
function judgedOperation(operation: Operation): JudgedOperation {
  const responses: Record<string, DocumentedAnswer> = {};
  for (const [key, response] of Object.entries(operation.responses)) {
    const headers: Record<string, { required: boolean; schema: JudgedSchema }> = {};
    for (const [name, header] of Object.entries(
      (response.headers ?? {}) as Record<string, HeaderObject>,
    ))
      headers[name.toLowerCase()] = {
        required: header.required === true,
        schema: (header.schema ?? {}) as JudgedSchema,
      };
    const content: Record<string, JudgedSchema> = {};
    for (const [type, media] of Object.entries(response.content ?? {}))
      content[type] = (media.schema ?? {}) as JudgedSchema;
    responses[key] = { headers, content };
  }
  return { operationId: operation.operationId, responses };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The ids a list holds more than once. */
function duplicateIds(resource: Resource, envelope: Envelope, body: unknown): Breach[] {
  const records =
    envelope.kind === 'plain'
      ? body
      : (body as Record<string, unknown> | null)?.[envelope.property];
  if (!Array.isArray(records)) return [];
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const record of records) {
    const id = isJsonObject(record) ? keyIn(record, resource) : undefined;
    if (id === undefined) continue;
    const key = JSON.stringify(id);
    if (seen.has(key)) repeated.add(key);
    seen.add(key);
  }
  if (repeated.size === 0) return [];
  return [
    {
      rule: 'duplicate-ids',
      message: `the list of ${resource.name} holds ${resource.idProperty} ${[...repeated].join(', ')} more than once`,
    },
  ];
}
