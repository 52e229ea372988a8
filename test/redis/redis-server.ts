// A real Redis for the tests: Debian's redis-server, started on a free loopback port in a
// temporary folder and stopped by its process id. Where it is missing, the Redis tests are
// skipped with a note the skip reporter shows after the summary; in CI they fail instead.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, it } from 'vitest';
import { isCi } from '../browser/chromium.js';
import { findRedisServer, REDIS_INSTALL_HINT, REDIS_SKIP_NOTE_PREFIX } from './find-redis.js';

export { REDIS_INSTALL_HINT, REDIS_SKIP_NOTE_PREFIX };

export const redisLookup = findRedisServer(process.env);

/**
 * For a describe block (or a file) of Redis tests: where redis-server is missing, each test
 * is skipped with a note that the skip reporter shows, and in CI one failing test says why.
 * @returns whether redis-server was found, so that hooks can do nothing without it.
 * @example describe('on Redis', () => { if (!withRedis()) return; ... });
 */
export function withRedis(): boolean {
  if (redisLookup.found) return true;
  const missing = `redis-server not found (${redisLookup.why}). ${REDIS_INSTALL_HINT}`;
  if (isCi(process.env)) {
    // CI installs redis-server (.ci/run): there, a missing one is a broken CI, not a skip.
    it('redis-server is installed', () => {
      throw new Error(`The Redis tests cannot run in CI: ${missing}`);
    });
  } else {
    beforeEach((ctx) => ctx.skip(`${REDIS_SKIP_NOTE_PREFIX}: ${missing}`));
  }
  return false;
}

export interface RedisServerOptions {
  /** Keep every write in an append-only file, synced before Redis answers. @default false */
  appendOnly?: boolean;
}

/** A redis-server of a test's own. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** The running process's id; changes with `start`. */
  readonly pid: number | undefined;
  /** Kills it with SIGKILL, as a crash would, and waits until it is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port and folder (with its append-only file, if any). */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Starts a redis-server on a free loopback port, in a new temporary folder.
 * @example const redis = await startRedisServer(); ...; await redis.stop();
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  if (!redisLookup.found) throw new Error(`redis-server not found: ${redisLookup.why}`);
  const binary = redisLookup.path;
  const dir = await mkdtemp(join(tmpdir(), 'petstore-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    // The same port when started again, so that clients reconnect to it.
    for (let attempt = 0; ; attempt++) {
      const wanted = port || (await freePort());
      const args = [
        '--port',
        String(wanted),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--daemonize',
        'no',
        '--appendonly',
        options.appendOnly ? 'yes' : 'no',
        '--appendfsync',
        'always',
      ];
      const started = await launchAt(binary, args);
      if (started) {
        port = wanted;
        child = started;
        return;
      }
      // Another process took the free port between the probe and the start.
      if (port || attempt >= 4) throw new Error(`redis-server could not listen on ${wanted}`);
    }
  };
  await launch();

  const kill = async (signal: NodeJS.Signals): Promise<void> => {
    const current = child;
    child = undefined;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill(signal);
    await exited;
  };

  return {
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    get pid() {
      return child?.pid;
    },
    kill: () => kill('SIGKILL'),
    start: launch,
    async stop() {
      await kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Starts redis-server; resolves when it accepts connections, or undefined when it exited. */
function launchAt(binary: string, args: string[]): Promise<ChildProcess | undefined> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout.off('data', onData);
        // Keep draining, or a full pipe would stall the server.
        child.stdout.resume();
        child.off('exit', onExit);
        running.add(child);
        child.once('exit', () => running.delete(child));
        resolve(child);
      }
    };
    const onExit = () => {
      if (/Address already in use/i.test(output)) resolve(undefined);
      else reject(new Error(`redis-server exited at start:\n${output}`));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

/** A port that was free a moment ago on the loopback address. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
