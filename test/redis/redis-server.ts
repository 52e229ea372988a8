// A real Redis for the tests and the bench: Debian's redis-server, started on a free loopback
// port in a temporary folder and stopped by its process id.
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { findRedisServer } from './find-redis.js';
import { tempFolder } from '../temp-folders.js';
import { freePort } from '../free-port.js';

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
  const lookup = findRedisServer(process.env);
  if (!lookup.found) throw new Error(`redis-server not found: ${lookup.why}`);
  const binary = lookup.path;
  // Kept until the file ends if the server is: a hook may stop it after its test.
  const dir = await tempFolder('redis', { until: 'file' });
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
