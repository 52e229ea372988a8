import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ProbeAnswers, ProbeRequest } from './probe-messages.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BENCH_KEY = 'bench-key';

/**
 * With two cores or more and taskset, servers run on the last core and the load generator
 * (this process) on the others, so that they never compete for a core: far less noise.
 */
const SERVER_CORE =
  availableParallelism() >= 2 && existsSync('/usr/bin/taskset')
    ? availableParallelism() - 1
    : undefined;

/** Pins this process (the load generator) away from the servers' core; says what it did. */
export function pinLoadGenerator(): string {
  if (SERVER_CORE === undefined) return 'cores not pinned (that needs taskset and two cores)';
  const others = SERVER_CORE > 1 ? `0-${SERVER_CORE - 1}` : '0';
  spawnSync('taskset', ['-pc', others, String(process.pid)], { stdio: 'ignore' });
  return `servers on core ${SERVER_CORE}, load generator on core ${others}`;
}

/**
 * Moves a running server process (e.g. redis-server) to the servers' core, off the load
 * generator's; says what it did.
 */
export function pinServer(pid: number): string {
  if (SERVER_CORE === undefined) return 'not pinned';
  spawnSync('taskset', ['-pc', String(SERVER_CORE), String(pid)], { stdio: 'ignore' });
  return `on core ${SERVER_CORE}`;
}

/** A server under test, in its own process so that it has a core to itself. */
export interface ServerProcess {
  /** What the tables call it, e.g. `mock` or `baseline`. */
  name: string;
  /** Its base URL, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  /** Its process id (node itself, also when started through taskset). */
  pid: number | undefined;
  /** CPU time the process has used so far, in seconds (Linux); undefined elsewhere. */
  cpuSeconds(): number | undefined;
  /** Its resident memory now and at its peak, in bytes (Linux); undefined elsewhere. */
  resident(): { rss: number; peak: number } | undefined;
  /** Asks bench/probe.ts in the server; only for a server started with `probe`. */
  ask<T extends ProbeRequest>(request: T): Promise<ProbeAnswers[T['type']]>;
  stop(): Promise<void>;
}

export interface MockOptions {
  /** @default 'mock' */
  name?: string;
  /** @default 10 */
  seedCount?: number;
  /** @default 0: a free one */
  port?: number;
  /** @default true: on the servers' core */
  pinned?: boolean;
  /** More flags of `petstore-kit mock`, e.g. `['--spec', path]` or `['--data', file]`. */
  args?: readonly string[];
  /**
   * Runs bench/probe.ts in the mock (with tsx and --expose-gc), for its heap, event-loop
   * delay and CPU profiles. It changes nothing the mock does.
   * @default false
   */
  probe?: boolean;
  /** Flags of node itself, e.g. `['--cpu-prof']`. */
  nodeArgs?: readonly string[];
  /**
   * `--quiet`: no request log line. False measures what `npm start` runs (a JSON line a
   * request on stdout, which the bench reads and discards).
   * @default true
   */
  quiet?: boolean;
  /**
   * The CLI script run: another build's copy (see bench/builds.ts) for a before and after.
   * @default BENCH_MOCK_ENTRY, else 'dist/cli/bin.js'
   */
  entry?: string;
}

/** The mock as `npm start` runs it (the built CLI), quiet unless asked otherwise. */
export function startMock(options: MockOptions = {}): Promise<ServerProcess> {
  const probe = options.probe
    ? ['--expose-gc', '--import', 'tsx', '--import', pathToFileURL(`${ROOT}bench/probe.ts`).href]
    : [];
  return launch(options.pinned ?? true, options.name ?? 'mock', Boolean(options.probe), [
    ...probe,
    ...(options.nodeArgs ?? []),
    options.entry ?? process.env.BENCH_MOCK_ENTRY ?? 'dist/cli/bin.js',
    'mock',
    ...((options.quiet ?? true) ? ['--quiet'] : []),
    '--port',
    String(options.port ?? 0),
    '--seed-count',
    String(options.seedCount ?? 10),
    '--api-key',
    BENCH_KEY,
    ...(options.args ?? []),
  ]);
}

/** A bare express baseline (bench/serve-baseline.ts), holding `count` seeded records. */
export function startBaseline(
  count: number,
  kind: 'categories' | 'authors' = 'categories',
): Promise<ServerProcess> {
  return launch(true, 'baseline', false, [
    '--import',
    'tsx',
    'bench/serve-baseline.ts',
    String(count),
    BENCH_KEY,
    kind,
  ]);
}

/** A raw node:http server (bench/raw-baseline.ts): the same bytes and key check, nothing else. */
export function startRaw(count: number, nodeArgs: readonly string[] = []): Promise<ServerProcess> {
  return launch(true, 'raw', false, [
    ...nodeArgs,
    '--import',
    'tsx',
    'bench/raw-baseline.ts',
    String(count),
    BENCH_KEY,
  ]);
}

function launch(
  pinned: boolean,
  name: string,
  probe: boolean,
  nodeArgs: string[],
): Promise<ServerProcess> {
  const [command, args] =
    SERVER_CORE === undefined || !pinned
      ? [process.execPath, nodeArgs]
      : ['taskset', ['-c', String(SERVER_CORE), process.execPath, ...nodeArgs]];
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit', ...(probe ? (['ipc'] as const) : [])],
  });
  const pending = new Map<
    number,
    { resolve: (value: never) => void; reject: (err: Error) => void }
  >();
  let asked = 0;
  child.on('message', (message: { id: number; value?: unknown; error?: string }) => {
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.error === undefined) waiting?.resolve(message.value as never);
    else waiting?.reject(new Error(`${name}: ${message.error}`));
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${output}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // The mock logs JSON, the baselines plain text: the URL ends at a quote or a space.
      const url = /listening on (http:\/\/[^\s"]+)[\s"]/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      resolve({
        name,
        pid: child.pid,
        url,
        cpuSeconds: () => cpuSecondsOf(child.pid),
        resident: () => residentOf(child.pid),
        ask: (request) =>
          new Promise((resolve, reject) => {
            if (!probe) return reject(new Error(`${name} was started without the probe`));
            const id = ++asked;
            pending.set(id, { resolve, reject });
            child.send({ id, ...request });
          }),
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${output}`)));
  });
}

/** utime + stime of a process, from /proc (taskset execs node, so the pid is node's). */
function cpuSecondsOf(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat, counted from the state (field 3); clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** VmRSS and VmHWM (the peak of VmRSS) of a process, from /proc. */
function residentOf(pid: number | undefined): { rss: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kilobytes = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
    return { rss: kilobytes('VmRSS'), peak: kilobytes('VmHWM') };
  } catch {
    return undefined;
  }
}
