/* global process */
// `npm run build`'s TypeScript step: each project given (src/, then the contract suite) compiled
// into dist/ by tsc, one after the other. TypeScript 7's tsc (the `typescript7` package): it
// emits the same JavaScript as TypeScript 5's in a quarter of the CPU (decisions/055). Under `npm test` the type check runs beside the build
// (scripts/run-parallel.mjs), over tsconfig.json, which holds src/ and contract-tests/ with the
// same settings: checking them again here was 8 of the build's 28 CPU seconds, and the build is
// what the tests wait for. So when PETSTORE_KIT_BUILD_EMIT_ONLY=1 (run-parallel sets it when it
// runs `typecheck` beside the build), tsc only emits (`--noCheck`): a type error then fails
// `npm test` through the type check, not through the build. Every other build (prepack,
// `npm start`'s ensure-built, a build of its own) checks the types as it emits.
// Usage: node scripts/build-typescript.mjs <tsconfig>...
// Exit code: tsc's, of the first project that failed.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const tsc = join(
  dirname(createRequire(import.meta.url).resolve('typescript7/package.json')),
  'bin/tsc',
);
const emitOnly = process.env.PETSTORE_KIT_BUILD_EMIT_ONLY === '1';

for (const project of process.argv.slice(2)) {
  const args = [tsc, '-p', project, ...(emitOnly ? ['--noCheck'] : [])];
  const { status, error } = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (error) throw error;
  if (status !== 0) {
    process.exitCode = status ?? 1;
    break;
  }
}
