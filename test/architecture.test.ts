// The ladder of src/ (ARCHITECTURE.md) is a check: `npm test` runs ESLint, whose rules refuse
// an import from a higher layer and HTTP below the HTTP adapter, and these tests, which prove
// the rules are on with probe files the lint would meet. Import cycles are refused here, by a
// walk of the import graph (test/architecture-imports.ts), not by ESLint's import/no-cycle,
// which was nine tenths of the lint's time.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './architecture-imports.js';
import { tempFolder } from './temp-folders.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Lints probe files as if they were at their paths in src/, without writing them there (the
 * type check and the linters of `npm test` read src/ while the tests run).
 */
async function lintProbes(files: Record<string, string>): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const results = await Promise.all(
    Object.entries(files).map(([file, text]) =>
      eslint.lintText(text, { filePath: join(ROOT, file) }),
    ),
  );
  return results
    .flat()
    .flatMap((result) =>
      result.messages.map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`),
    );
}

/** The import cycles of probe files, written as they would be in src/ (in a folder of their own). */
async function cyclesWith(files: Record<string, string>): Promise<string[][]> {
  const root = await tempFolder('cycles');
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }
  return importCycles(await importGraph(root, 'src'));
}

describe('the ladder of src/', () => {
  it('refuses an import from a higher layer (store/ importing core/)', async () => {
    const problems = await lintProbes({
      'src/store/__probe__/up.ts':
        "import { createMockCore } from '../../core/mock-core.js';\nexport const up = createMockCore;\n",
    });
    expect(problems).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*ladder/)]);
  });

  it('refuses an import between siblings (openapi/ importing store/)', async () => {
    const problems = await lintProbes({
      'src/openapi/__probe__/side.ts':
        "import { createMemoryStore } from '../../store/memory-store.js';\nexport const side = createMemoryStore;\n",
    });
    expect(problems).toEqual([expect.stringMatching(/^import\/no-restricted-paths/)]);
  });

  it('lets a layer import the ones below it (wiring/ importing core/)', async () => {
    const problems = await lintProbes({
      'src/wiring/__probe__/down.ts':
        "import { createMockCore } from '../../core/mock-core.js';\nexport const down = createMockCore;\n",
    });
    expect(problems).toEqual([]);
  });

  it('has no import cycle', async () => {
    const graph = await importGraph(ROOT, 'src');
    // The walk reads the real tree: the mock's own modules and their imports are in it.
    expect(graph.get('src/wiring/create-app.ts')).toContain('src/core/create-mock.ts');
    expect(importCycles(graph).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('refuses an import cycle, through a re-export or an import() too', async () => {
    expect(
      await cyclesWith({
        'src/core/__probe__/a.ts':
          "import { b } from './b.js';\nexport const a = (): unknown => b;\n",
        'src/core/__probe__/b.ts':
          "import { a } from './a.js';\nexport const b = (): unknown => a;\n",
      }),
    ).toEqual([['src/core/__probe__/a.ts', 'src/core/__probe__/b.ts', 'src/core/__probe__/a.ts']]);
    expect(
      await cyclesWith({
        'src/core/__probe__/a.ts': "export { c } from './c.js';\nexport const a = 1;\n",
        'src/core/__probe__/b.ts': "import { a } from './a.js';\nexport const b = a;\n",
        'src/core/__probe__/c.ts':
          "export const c = async (): Promise<unknown> => (await import('./b.js')).b;\n",
      }),
    ).toEqual([
      [
        'src/core/__probe__/a.ts',
        'src/core/__probe__/c.ts',
        'src/core/__probe__/b.ts',
        'src/core/__probe__/a.ts',
      ],
    ]);
  });

  it('lets two modules import the types of each other: erased, they make no cycle at run time', async () => {
    expect(
      await cyclesWith({
        'src/core/__probe__/a.ts':
          "import type { B } from './b.js';\nexport interface A { b?: B }\nexport const a = 1;\n",
        'src/core/__probe__/b.ts':
          "import { type A, a } from './a.js';\nexport interface B { a?: A }\nexport const b = a;\n",
      }),
    ).toEqual([]);
  });

  it('keeps node:http out of the core', async () => {
    const problems = await lintProbes({
      'src/core/__probe__/socket.ts':
        "import { createServer } from 'node:http';\nexport const socket = createServer;\n",
    });
    expect(problems).toEqual([expect.stringMatching(/^no-restricted-imports: .*Only src\/http/)]);
  });
});
