import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec, SpecError } from '../src/openapi/load.js';
import { tempFolder } from './temp-folders.js';

async function specFile(text: string): Promise<string> {
  const path = join(await tempFolder('bad-spec'), 'openapi.yaml');
  await writeFile(path, text);
  return path;
}

describe('loadSpec', () => {
  it('loads the bundled spec with every $ref resolved', async () => {
    const spec = await loadSpec();
    expect(spec.document.info.version).toBe('1.0.0');
    expect(JSON.stringify(spec.resolved.paths)).not.toContain('$ref');
  });

  it.each([
    { problem: 'a missing file', text: undefined, message: /cannot read the spec .*ENOENT/ },
    {
      problem: 'broken YAML',
      text: 'openapi: 3.1.0\ninfo: [unclosed',
      message: /not valid YAML or JSON/,
    },
    { problem: 'broken JSON', text: '{"openapi": "3.1.0",', message: /not valid YAML or JSON/ },
    { problem: 'not OpenAPI', text: 'hello: world\n', message: /not an OpenAPI document/ },
    {
      problem: 'an unknown version',
      text: 'openapi: 4.0.0\ninfo: {title: t, version: "1"}\npaths: {}\n',
      message: /not an OpenAPI document/,
    },
    {
      problem: 'no paths at all',
      text: 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\n',
      message: /has no paths/,
    },
    {
      problem: 'a broken $ref',
      text: 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          $ref: "#/components/responses/Nope"\n',
      message: /\$ref that cannot be resolved/,
    },
    {
      problem: 'a $ref to a file that is not there',
      text: 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    $ref: "./paths/a.yaml"\n',
      message: /\$ref that cannot be resolved: .*paths\/a\.yaml/,
    },
  ])('refuses $problem with a one-line SpecError', async ({ text, message }) => {
    const path = text === undefined ? '/nonexistent/openapi.yaml' : await specFile(text);
    const failure = loadSpec(path, { checkCache: false });
    await expect(failure).rejects.toBeInstanceOf(SpecError);
    await expect(failure).rejects.toThrow(message);
    await failure.catch((err: Error) => expect(err.message).not.toContain('\n'));
  });

  it('reads a $ref inside an example, a default or an enum as data, never fetching it (GitHub’s description was refused)', async () => {
    // GitHub's SCIM examples carry `"$ref": "https://api.github.com/scim/v2/..."`: a URL this
    // machine cannot reach, so a try to fetch it fails the load.
    const member = { value: 'u1', $ref: 'https://api.github.invalid/scim/v2/Users/u1' };
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {
        '/groups': {
          get: {
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: { $ref: '#/components/schemas/Group' },
                    examples: {
                      one: { value: { members: [member] } },
                      named: { $ref: '#/components/examples/Named' },
                    },
                  },
                },
              },
            },
          },
        },
      },
      components: {
        examples: { Named: { value: { members: [member] } } },
        schemas: {
          Group: {
            type: 'object',
            example: { members: [member] },
            properties: {
              members: { type: 'array', items: { $ref: '#/components/schemas/Member' } },
              // A property named like a keyword is a schema: its $ref is a reference.
              example: { $ref: '#/components/schemas/Member' },
              default: { type: 'object', default: { $ref: '#/not/a/pointer' } },
            },
          },
          Member: { type: 'object', properties: { value: { type: 'string' } } },
        },
      },
    });
    const spec = await loadSpec(await specFile(text), { checkCache: false });
    const media = spec.resolved.paths?.['/groups']?.get?.responses?.['200'] as {
      content: Record<string, { examples: Record<string, { value: unknown }>; schema: object }>;
    };
    const json = media.content['application/json'];
    expect(json?.examples.one?.value).toEqual({ members: [member] });
    expect(json?.examples.named?.value).toEqual({ members: [member] });
    const group = spec.resolved.components?.schemas?.Group as Record<string, unknown>;
    expect(group.example).toEqual({ members: [member] });
    const properties = group.properties as Record<string, Record<string, unknown>>;
    expect(properties.example).toBe(spec.resolved.components?.schemas?.Member);
    expect(properties.default?.default).toEqual({ $ref: '#/not/a/pointer' });
  });

  it('reads items written as a list, a name repeated in required, an empty enum and an unknown format, each with one warning', async () => {
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: {
          Tags: { type: 'array', items: [{ type: 'string' }] },
          Pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
          // Discord's description: an enum whose values were never filled in.
          Action: { type: 'string', enum: [] },
          Container: {
            type: 'object',
            required: ['id', 'name', 'id', 'name'],
            properties: {
              id: { type: 'string' },
              name: { type: 'string' },
              created_at: { type: 'integer', format: 'unixtime' },
              expires_at: { type: 'integer', format: 'unixtime' },
            },
          },
        },
      },
    });
    const spec = await loadSpec(await specFile(text), { checkCache: false });
    const schemas = spec.resolved.components?.schemas as Record<string, Record<string, unknown>>;
    expect(schemas.Tags?.items).toEqual({ type: 'string' });
    expect(schemas.Pair?.prefixItems).toEqual([{ type: 'string' }, { type: 'integer' }]);
    expect(schemas.Pair?.items).toBeUndefined();
    expect(schemas.Container?.required).toEqual(['id', 'name']);
    expect(schemas.Action).toEqual({ type: 'string' });
    expect(spec.warnings).toEqual(
      expect.arrayContaining([
        'items written as a list, 2 times (first at #/components/schemas/Tags): a list of one schema is read as the schema of every item, a longer one as a tuple (prefixItems)',
        'a name repeated in required, once (first at #/components/schemas/Container): each name is read once',
        'an empty enum, once (first at #/components/schemas/Action): it would allow no value at all, which no service means (an enum whose values were never filled in): read as no enum, the other keywords check the value',
        'a format the mock does not check: unixtime (2): their values are checked by their type alone',
      ]),
    );
  });

  it('reads a $ref to a schema the document never defines as any value, with a warning (DocuSign’s eSignature description would not start)', async () => {
    const text = JSON.stringify({
      swagger: '2.0',
      info: { title: 't', version: '1' },
      paths: {
        '/envelopes': {
          get: {
            responses: {
              '200': { description: 'ok', schema: { $ref: '#/definitions/envelope' } },
            },
          },
        },
      },
      definitions: {
        envelope: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            offline: { $ref: '#/definitions/offlineAttributes' },
            also: { $ref: '#/definitions/offlineAttributes' },
            // A reference inside an example is a value: never mended.
            note: { type: 'object', example: { $ref: '#/definitions/nowhere' } },
          },
        },
      },
    });
    const spec = await loadSpec(await specFile(text), { checkCache: false });
    const envelope = spec.resolved.components?.schemas?.envelope as {
      properties: Record<string, Record<string, unknown>>;
    };
    expect(envelope.properties.offline).toEqual({});
    expect(envelope.properties.also).toEqual({});
    expect(envelope.properties.note?.example).toHaveProperty('$ref');
    expect(spec.warnings).toContainEqual(
      expect.stringMatching(
        /^a \$ref to nothing in the document, read as any value: #\/components\/schemas\/offlineAttributes \(2 times, first at #\/components\/schemas\/envelope\/properties\/(also|offline)\)$/,
      ),
    );
  });

  it('reads the arms of a oneOf that differ only by examples once, with a warning (PagerDuty’s references: no value matched exactly one)', async () => {
    const reference = (example: string) => ({
      type: 'object',
      required: ['id', 'type'],
      properties: { id: { type: 'string' }, type: { type: 'string', example } },
    });
    const text = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: {},
      components: {
        schemas: {
          Agent: {
            oneOf: [
              { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
              reference('service_reference'),
              reference('workflow_reference'),
            ],
          },
          // A property named like an annotation is a property: these two arms differ. (Each
          // requires its own, else every object meets both: see openArmsReader.)
          Named: {
            oneOf: [
              { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
              {
                type: 'object',
                required: ['description'],
                properties: { description: { type: 'string' } },
              },
            ],
          },
        },
      },
    });
    const spec = await loadSpec(await specFile(text), { checkCache: false });
    const schemas = spec.resolved.components?.schemas as Record<string, { oneOf: unknown[] }>;
    expect(schemas.Agent?.oneOf).toHaveLength(2);
    expect(schemas.Named?.oneOf).toHaveLength(2);
    expect(spec.warnings).toContain(
      'a oneOf listing the same schema twice (but for its examples or descriptions), which no value can match exactly once: each read once, once (first at #/components/schemas/Agent)',
    );
  });

  it('serves a document the official check refuses for a small defect, with a warning', async () => {
    const spec = await loadSpec(await specFile('openapi: 3.1.0\ninfo: {title: t}\npaths: {}\n'), {
      checkCache: false,
    });
    expect(spec.warnings).toEqual(["#/info must have required property 'version'"]);
  });

  it('reads JSON with a byte order mark, and YAML with a duplicate key (with a warning)', async () => {
    const json = await loadSpec(
      await specFile(
        '\uFEFF{"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}}',
      ),
      { checkCache: false },
    );
    expect(json.warnings).toEqual([]);
    const yaml = await loadSpec(
      await specFile('openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\npaths: {}\n'),
      { checkCache: false },
    );
    expect(yaml.warnings).toEqual([
      expect.stringMatching(/^a duplicate key, the last value is used/),
    ]);
  });
});

describe('loadSpec remembers documents that passed the check', () => {
  const valid = 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\n';

  it('remembers a passing document under the hash of its text, and loads it again', async () => {
    const cache = await tempFolder('cache');
    const path = await specFile(valid);
    await loadSpec(path, { checkCache: cache });
    expect((await readdir(cache)).filter((name) => name.startsWith('loaded-'))).toHaveLength(1);
    await expect(loadSpec(path, { checkCache: cache })).resolves.toMatchObject({ source: path });
  });

  it('never remembers a refused document, and reads a changed one again', async () => {
    const cache = await tempFolder('cache');
    await loadSpec(await specFile(valid), { checkCache: cache });
    const broken = await specFile(valid.replace('paths: {}', 'paths: {"/a": {"$ref": "#/nope"}}'));
    await expect(loadSpec(broken, { checkCache: cache })).rejects.toThrow(/cannot be resolved/);
    await expect(loadSpec(broken, { checkCache: cache })).rejects.toThrow(/cannot be resolved/);
    expect(await readdir(cache)).toHaveLength(1);
  });

  it('remembers what it read of a document: its version and its warnings', async () => {
    const cache = await tempFolder('cache');
    const path = await specFile(valid.replace('version: "1"', 'versio: "1"'));
    const first = await loadSpec(path, { checkCache: cache });
    const again = await loadSpec(path, { checkCache: cache });
    expect(again).toEqual(first);
    expect(again).toMatchObject({ version: '3.1', warnings: [expect.stringMatching(/^#\/info /)] });
  });

  it('still loads when the cache cannot be written', async () => {
    const path = await specFile(valid);
    // A folder inside a file cannot exist.
    await expect(loadSpec(path, { checkCache: join(path, 'cache') })).resolves.toBeDefined();
  });
});
