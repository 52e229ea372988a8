/* global process, performance */
// `npm test` runs its checks (type check, lint, format, spec lint) and the build and Vitest at
// once rather than one after the other: each check is a single Node process that leaves the
// other core idle, and Vitest's workers spend much of their time waiting on servers, browsers
// and child processes, which is time the checks can have. None reads what another writes: the
// build writes dist/ and inspector/generated/, the type check test/generated/ (which tests use
// for types only), the tests write in temporary folders, and the linters and the formatter skip
// all of those. Each check's output is held and printed whole when it ends, so that the lines of
// two never interleave; the last script's output (the tests') comes as it is written, so that a
// run shows its progress. The tests are the longest, so the checks run at a lower priority
// (nice 10): they take the CPU the build and the tests leave idle, rather than slow them down.
// Usage: node scripts/run-parallel.mjs <npm script>... <npm script shown live>
// Exit code: 1 if any failed.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

/** Runs `npm run <script>` in `env`, resolving to its exit code, its output unless `live`, and seconds taken. */
function run(script, live, env) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      env,
      stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'],
      // npm is a .cmd on Windows.
      shell: process.platform === 'win32',
    });
    // npm starts the script's own processes after this: they inherit the priority.
    if (!live && child.pid !== undefined) setPriority(child.pid, 10);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (err) => (output += `${err.message}\n`));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      resolve({ script, code: code ?? 1, output, seconds });
    });
  });
}

const scripts = process.argv.slice(2);
// The type check covers what the build compiles (src/, contract-tests/): beside it, the build
// only emits (scripts/build-typescript.mjs), and the tests start sooner.
const env = scripts.includes('typecheck')
  ? { ...process.env, PETSTORE_KIT_BUILD_EMIT_ONLY: '1' }
  : process.env;
const results = await Promise.all(
  scripts.map((script, index) =>
    run(script, index === scripts.length - 1, env).then((result) => {
      const verdict = result.code === 0 ? 'ok' : `failed (exit code ${result.code})`;
      process.stdout.write(
        `${result.output}> npm run ${script}: ${verdict}, ${result.seconds} s\n`,
      );
      return result;
    }),
  ),
);
const failed = results.filter((result) => result.code !== 0).map((result) => result.script);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
