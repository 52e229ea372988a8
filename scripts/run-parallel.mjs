/* global process, performance */
// `npm test` runs its checks (build, type check, lint, format, spec lint) at once rather than one
// after the other: each is a single Node process that leaves the other core idle, and none reads
// what another writes (build writes dist/ and inspector/generated/, the type check
// test/generated/, and the linters and the formatter skip all three). Each one's output is held
// and printed whole when it ends, so that the lines of two checks never interleave.
// Usage: node scripts/run-parallel.mjs <npm script>...   Exit code: 1 if any failed.
import { spawn } from 'node:child_process';

/** Runs `npm run <script>`, resolving to its exit code, output and seconds taken. */
function run(script) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // npm is a .cmd on Windows.
      shell: process.platform === 'win32',
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (err) => (output += `${err.message}\n`));
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      resolve({ script, code: code ?? 1, output, seconds });
    });
  });
}

const scripts = process.argv.slice(2);
const results = await Promise.all(
  scripts.map((script) =>
    run(script).then((result) => {
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
