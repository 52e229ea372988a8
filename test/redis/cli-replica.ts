// A replica of the mock as a team runs it: a process of the built CLI on a Redis, for the tests
// of replicas (redis-mock) and of what Redis does under them (redis-team).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));

export interface CliReplica {
  child: ChildProcess;
  /** Its base URL (`.../v1`). */
  url: string;
  /** What it printed so far, stdout and stderr together. */
  output: () => string;
}

/**
 * Spawns `petstore-kit mock --port 0 --quiet` with `args`; `started` is told of each process, to
 * kill it after the test.
 */
export function runMock(
  args: readonly string[],
  started: (child: ChildProcess) => void,
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--quiet', ...args], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started(child);
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, output: () => text };
}

/** A replica on `redisUrl` under `prefix` with `key`, three records seeded, once it listens. */
export function startCliReplica(
  redisUrl: string,
  prefix: string,
  key: string,
  args: readonly string[],
  started: (child: ChildProcess) => void,
): Promise<CliReplica> {
  const { child, output } = runMock(
    ['--redis', redisUrl, '--redis-prefix', prefix, '--api-key', key, '--seed-count', '3', ...args],
    started,
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', () => {
      const url = /listening on (http:\/\/\S+?)["\s)]/.exec(output())?.[1];
      if (url) resolve({ child, url, output });
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output()}`)));
  });
}
