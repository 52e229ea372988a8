// No state at module level in src/: what one mock keeps, another in the same process never sees.
// A module-level Map, Set, WeakMap or `let` is refused unless it is listed below with why it
// is no state two mocks could share: a constant, a memo of a pure function of an immutable
// key, or the process itself.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { specDefects } from '../src/openapi/spec-check.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Each allowed declaration (file: name) and why it holds no mock's state. */
const ALLOWED: Readonly<Record<string, string>> = {
  // The compiled OpenAPI check of a version: compiled code, the same for every reader, as
  // `require` keeps a module; its `errors` are read in the call that set them (below).
  'openapi/spec-check.ts: compiledChecks': 'a compiled constant per OpenAPI version',
  // Keyed by a schema object of a read document, which nothing changes once read.
  'core/parameter-styles.ts: shapes': 'a memo of a pure function of a schema',
  // Keyed by the Arazzo JSON Schema (an imported constant).
  'core/workflow/arazzo-read.ts: validators': 'a compiled constant per Arazzo version',
  // The process entry: the process is the one thing it describes.
  'cli/bin.ts: serverStarted': 'whether this process served',
};

/** Module-level declarations of mutable things: `let`, or a collection whose name is not a CONSTANT's. */
async function moduleState(): Promise<string[]> {
  const files = (await readdir(SRC, { recursive: true })).filter((file) => file.endsWith('.ts'));
  const found: string[] = [];
  for (const file of files) {
    const text = await readFile(join(SRC, file), 'utf8');
    for (const [, keyword, name, value] of text.matchAll(
      /^(?:export )?(let|var|const) (\w+)(?:: [^=\n]+)? = ([^\n]*)/gm,
    )) {
      const collection = /^new (?:Map|Set|WeakMap|WeakSet)\b/.test(value ?? '');
      const constant = /^[A-Z][A-Z0-9_]*$/.test(name ?? '');
      if (keyword !== 'const' || (collection && !constant))
        found.push(`${relative(SRC, join(SRC, file)).replaceAll('\\', '/')}: ${name}`);
    }
  }
  return found.sort();
}

describe('no state at module level', () => {
  it('holds no Map, Set or `let` at module level but the constants listed, each with why', async () => {
    expect(await moduleState()).toEqual(Object.keys(ALLOWED).sort());
  });

  it('checks documents read at once each against its own check: no complaint crosses', async () => {
    const valid = { openapi: '3.1.0', info: { title: 'A', version: '1' }, paths: {} };
    const noVersion = { openapi: '3.1.0', info: { title: 'B' }, paths: {} };
    const noTitle = { openapi: '3.1.0', info: { version: '1' }, paths: {} };
    const [a, b, c, d] = await Promise.all([
      specDefects(valid),
      specDefects(noVersion),
      specDefects(noTitle),
      specDefects(valid),
    ]);
    expect(a).toEqual([]);
    expect(b).toEqual([expect.stringContaining("'version'")]);
    expect(c).toEqual([expect.stringContaining("'title'")]);
    expect(d).toEqual([]);
  });
});
