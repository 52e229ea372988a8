import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
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

/** A server under test, in its own process so that it has a core to itself. */
export interface ServerProcess {
  name: 'mock' | 'baseline';
  url: string;
  /** CPU time the process has used so far, in seconds (Linux); undefined elsewhere. */
  cpuSeconds(): number | undefined;
  stop(): Promise<void>;
}

/** The mock as `npm start` runs it (the built CLI), quiet, with `count` seeded categories. */
export function startMock(count: number, port = 0, pinned = true): Promise<ServerProcess> {
  return launch(pinned, 'mock', [
    'dist/cli/bin.js',
    'mock',
    '--quiet',
    '--port',
    String(port),
    '--seed-count',
    String(count),
    '--api-key',
    BENCH_KEY,
  ]);
}

/** The bare express baseline, holding the same seeded categories. */
export function startBaseline(count: number): Promise<ServerProcess> {
  return launch(true, 'baseline', [
    '--import',
    'tsx',
    'bench/serve-baseline.ts',
    String(count),
    BENCH_KEY,
  ]);
}

function launch(
  pinned: boolean,
  name: ServerProcess['name'],
  nodeArgs: string[],
): Promise<ServerProcess> {
  const [command, args] =
    SERVER_CORE === undefined || !pinned
      ? [process.execPath, nodeArgs]
      : ['taskset', ['-c', String(SERVER_CORE), process.execPath, ...nodeArgs]];
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${output}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/[^\s"]+?\/v1)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      resolve({
        name,
        url,
        cpuSeconds: () => cpuSecondsOf(child.pid),
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
