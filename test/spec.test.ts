import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec, SpecError } from '../src/openapi/load.js';

async function specFile(text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'petstore-kit-bad-spec-')), 'openapi.yaml');
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
    { problem: 'broken YAML', text: 'openapi: 3.1.0\ninfo: [unclosed', message: /not valid YAML/ },
    { problem: 'not OpenAPI', text: 'hello: world\n', message: /not an OpenAPI 3\.1 document/ },
    {
      problem: 'OpenAPI 3.0',
      text: 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\n',
      message: /not an OpenAPI 3\.1/,
    },
    {
      problem: 'an invalid document',
      text: 'openapi: 3.1.0\ninfo: {title: t}\npaths: {}\n',
      message: /not a valid OpenAPI document/,
    },
    {
      problem: 'a broken $ref',
      text: 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          $ref: "#/components/responses/Nope"\n',
      message: /\$ref that cannot be resolved/,
    },
  ])('refuses $problem with a one-line SpecError', async ({ text, message }) => {
    const path = text === undefined ? '/nonexistent/openapi.yaml' : await specFile(text);
    const failure = loadSpec(path);
    await expect(failure).rejects.toBeInstanceOf(SpecError);
    await expect(failure).rejects.toThrow(message);
    await failure.catch((err: Error) => expect(err.message).not.toContain('\n'));
  });
});

describe('loadSpec remembers documents that passed the check', () => {
  const valid = 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\n';

  it('remembers a passing document under the hash of its text, and loads it again', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'petstore-kit-cache-'));
    const path = await specFile(valid);
    await loadSpec(path, { checkCache: cache });
    expect((await readdir(cache)).filter((name) => name.startsWith('loaded-'))).toHaveLength(1);
    await expect(loadSpec(path, { checkCache: cache })).resolves.toMatchObject({ source: path });
  });

  it('never remembers a failing document, and checks a changed one again', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'petstore-kit-cache-'));
    await loadSpec(await specFile(valid), { checkCache: cache });
    const broken = await specFile(valid.replace('version: "1"', 'versio: "1"'));
    await expect(loadSpec(broken, { checkCache: cache })).rejects.toThrow(
      /not a valid OpenAPI document/,
    );
    await expect(loadSpec(broken, { checkCache: cache })).rejects.toThrow(
      /not a valid OpenAPI document/,
    );
    expect(await readdir(cache)).toHaveLength(1);
  });

  it('still loads when the cache cannot be written', async () => {
    const path = await specFile(valid);
    // A folder inside a file cannot exist.
    await expect(loadSpec(path, { checkCache: join(path, 'cache') })).resolves.toBeDefined();
  });
});
