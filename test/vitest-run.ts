import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');

/**
 * Test files in a vitest of their own, as `npm test` runs them, in an environment of only PATH,
 * NO_COLOR and `env`: what a run without some component prints, and its exit code.
 * @example const { code, output } = await runVitest(['test/redis-failure.test.ts'], { CI: 'true' });
 */
export function runVitest(
  files: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [VITEST, 'run', ...files], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}
