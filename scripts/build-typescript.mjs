/* global process */
// `npm run build`'s TypeScript step: each project given (src/, then the contract suite) compiled
// into dist/ by tsc, one after the other. Under `npm test` the type check runs beside the build
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

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
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
