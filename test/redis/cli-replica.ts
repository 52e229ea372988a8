// A replica of the mock as a team runs it, on a Redis, for the tests of replicas (redis-mock) and
// of what Redis does under them (redis-team): the CLI's mock command run in the test's process,
// with connections of its own, or a process of the built CLI where the process is the point.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serveCli } from '../helpers.js';

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

/** The mock's arguments for a replica on `redisUrl` under `prefix` with `key`, three seeded. */
const replicaArgs = (redisUrl: string, prefix: string, key: string, args: readonly string[]) => [
  ...['--redis', redisUrl, '--redis-prefix', prefix, '--api-key', key, '--seed-count', '3'],
  ...args,
];

/** A replica run in process: what a process would print, and its stop. */
export interface InProcessReplica {
  /** Its base URL (`.../v1`). */
  url: string;
  /** What it printed so far, stdout and stderr together. */
  output: () => string;
  /** Stops it as a signal stops bin.ts (its Redis connections closed). */
  stop: () => Promise<number>;
}

/**
 * A replica on `redisUrl` under `prefix` with `key`, three records seeded, run in this process as
 * bin.ts runs `petstore-kit mock --port 0 --quiet` (its own store and Redis connections), once it
 * listens; `started` is told of its stop, to stop it after the test.
 */
export async function serveReplica(
  redisUrl: string,
  prefix: string,
  key: string,
  args: readonly string[],
  started: (stop: () => Promise<unknown>) => void,
): Promise<InProcessReplica> {
  const serving = await serveCli([
    ...['mock', '--port', '0', '--quiet'],
    ...replicaArgs(redisUrl, prefix, key, args),
  ]);
  started(serving.stop);
  return serving;
}

/**
 * A replica as `serveReplica` makes one, but a process of the built CLI: for a replica that is
 * killed. `started` is told of the process, to kill it after the test.
 */
export function startCliReplica(
  redisUrl: string,
  prefix: string,
  key: string,
  args: readonly string[],
  started: (child: ChildProcess) => void,
): Promise<CliReplica> {
  const { child, output } = runMock(replicaArgs(redisUrl, prefix, key, args), started);
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', () => {
      const url = /listening on (http:\/\/\S+?)["\s)]/.exec(output())?.[1];
      if (url) resolve({ child, url, output });
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output()}`)));
  });
}
