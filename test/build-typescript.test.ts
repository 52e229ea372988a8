// scripts/build-typescript.mjs, `npm run build`'s TypeScript step: a build of its own refuses
// a type error; under `npm test`, where the type check runs beside it, it only emits (and the
// type check is what fails).
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from './recipes/frontend-project.js';
import { tempFolderSync } from './temp-folders.js';

const SCRIPT = join(ROOT, 'scripts/build-typescript.mjs');
let dir = '';

/** A project whose one module holds a type error, and what the script did with it. */
function build(env: Record<string, string>): Promise<{ code: number; output: string }> {
  dir = tempFolderSync('build-ts');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, types: [], lib: ['ES2023'], outDir: 'out' },
      files: ['wrong.ts'],
    }),
  );
  writeFileSync(join(dir, 'wrong.ts'), "export const count: number = 'not a number';\n");
  return new Promise((resolve) =>
    execFile(
      process.execPath,
      [SCRIPT, 'tsconfig.json'],
      { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env } },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }),
    ),
  );
}

it('refuses a type error in a build of its own', async () => {
  const { code, output } = await build({});
  expect(code).not.toBe(0);
  expect(output).toMatch(/wrong\.ts.*TS2322/);
}, 60_000);

it('only emits when npm test type-checks beside it', async () => {
  const { code, output } = await build({ PETSTORE_KIT_BUILD_EMIT_ONLY: '1' });
  expect(code, output).toBe(0);
  expect(existsSync(join(dir, 'out/wrong.js'))).toBe(true);
}, 60_000);
