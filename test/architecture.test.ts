// The ladder of src/ (ARCHITECTURE.md) is a check: `npm test` runs ESLint, whose rules refuse
// an import from a higher layer, an import cycle, and HTTP below the HTTP adapter. These tests
// prove the rules are on, with probe files the lint would meet.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function problemsOf(files: Record<string, string>): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const results = await eslint.lintFiles(Object.keys(files).map((file) => join(ROOT, file)));
  return results.flatMap((result) =>
    result.messages.map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`),
  );
}

/** Writes probe files under src/, lints them, and removes them whatever happens. */
async function lintProbes(folder: string, files: Record<string, string>): Promise<string[]> {
  await mkdir(join(ROOT, folder), { recursive: true });
  try {
    for (const [file, text] of Object.entries(files)) await writeFile(join(ROOT, file), text);
    return await problemsOf(files);
  } finally {
    await rm(join(ROOT, folder), { recursive: true, force: true });
  }
}

describe('the ladder of src/', () => {
  it('refuses an import from a higher layer (store/ importing core/)', async () => {
    const problems = await lintProbes('src/store/__probe__', {
      'src/store/__probe__/up.ts':
        "import { createMockCore } from '../../core/mock-core.js';\nexport const up = createMockCore;\n",
    });
    expect(problems).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*ladder/)]);
  });

  it('refuses an import between siblings (openapi/ importing store/)', async () => {
    const problems = await lintProbes('src/openapi/__probe__', {
      'src/openapi/__probe__/side.ts':
        "import { createMemoryStore } from '../../store/memory-store.js';\nexport const side = createMemoryStore;\n",
    });
    expect(problems).toEqual([expect.stringMatching(/^import\/no-restricted-paths/)]);
  });

  it('lets a layer import the ones below it (wiring/ importing core/)', async () => {
    const problems = await lintProbes('src/wiring/__probe__', {
      'src/wiring/__probe__/down.ts':
        "import { createMockCore } from '../../core/mock-core.js';\nexport const down = createMockCore;\n",
    });
    expect(problems).toEqual([]);
  });

  it('refuses an import cycle', async () => {
    const problems = await lintProbes('src/core/__probe__', {
      'src/core/__probe__/a.ts':
        "import { b } from './b.js';\nexport const a = (): unknown => b;\n",
      'src/core/__probe__/b.ts':
        "import { a } from './a.js';\nexport const b = (): unknown => a;\n",
    });
    expect(problems).toEqual([
      expect.stringMatching(/^import\/no-cycle/),
      expect.stringMatching(/^import\/no-cycle/),
    ]);
  });

  it('keeps node:http out of the core', async () => {
    const problems = await lintProbes('src/core/__probe__', {
      'src/core/__probe__/socket.ts':
        "import { createServer } from 'node:http';\nexport const socket = createServer;\n",
    });
    expect(problems).toEqual([expect.stringMatching(/^no-restricted-imports: .*Only src\/http/)]);
  });
});
