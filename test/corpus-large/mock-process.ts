// The mock as a user runs it (the built CLI), in a child process under a watchdog: a document
// can make it hang with its event loop blocked or grow without bound, and neither may take the
// harness (or the machine) with it. The watchdog kills it with SIGKILL past an RSS bound.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface MockChildOptions {
  /** The CLI's entry, e.g. `dist/cli/bin.js`. */
  bin: string;
  spec: string;
  cwd: string;
  apiKey: string;
  /** `user:password`. */
  basic: string;
  /** @default 2048 */
  maxOldSpaceMb?: number;
  /** Past this resident memory the mock is killed. @default 2.5 GiB */
  rssLimitBytes?: number;
  /** No listening line within this: killed. @default 120000 */
  startTimeoutMs?: number;
  /** @default 2 */
  seedCount?: number;
  /**
   * Another server to start instead of the mock (Prism, for the bench), which must log
   * `listening on <url>` too; `bin` and the mock's flags are then unused.
   */
  command?: { executable: string; args: readonly string[] };
}

/** Why the mock stopped, when it did on its own or the watchdog stopped it. */
export interface MockExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** `rss`: killed by the watchdog past the RSS bound. */
  killedFor?: 'rss' | 'start-timeout';
}

export interface MockChild {
  pid: number;
  /** Its base URL, the API's base path included. */
  url: string;
  /** Process start to the listening line, ms. */
  startMs: number;
  /** CPU seconds used by then. */
  startCpuSeconds: number;
  /** Resident memory at the listening line, bytes. */
  startRss: number;
  cpuSeconds(): number;
  /** Resident memory now, bytes (0 once it is gone). */
  rss(): number;
  /** The highest RSS the watchdog saw, bytes. */
  peakRss(): number;
  /** Set once the process has ended. */
  exit(): MockExit | undefined;
  /** The last lines it wrote (its log), for error messages. */
  output(): string;
  /** SIGKILL, and wait for the end. */
  kill(): Promise<void>;
}

const GIB = 1024 * 1024 * 1024;
const OUTPUT_KEPT = 64 * 1024;
const WATCH_EVERY_MS = 250;

/** Starts the mock; rejects, the process killed, when it does not start. */
export function startMockChild(options: MockChildOptions): Promise<MockChild> {
  const rssLimit = options.rssLimitBytes ?? 2.5 * GIB;
  const started = performance.now();
  const [executable, args] = options.command
    ? [options.command.executable, options.command.args]
    : [process.execPath, mockArguments(options)];
  const child = spawn(executable, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const pid = child.pid ?? -1;
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exit: MockExit | undefined;
  let killedFor: MockExit['killedFor'];
  let peak = 0;
  const ended = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal, ...(killedFor ? { killedFor } : {}) };
      clearInterval(watchdog);
      resolve();
    }),
  );
  const watchdog = setInterval(() => {
    const rss = residentOf(pid);
    peak = Math.max(peak, rss);
    if (rss > rssLimit && exit === undefined) {
      killedFor = 'rss';
      child.kill('SIGKILL');
    }
  }, WATCH_EVERY_MS);
  watchdog.unref();
  const kill = async () => {
    if (exit === undefined) child.kill('SIGKILL');
    await ended;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killedFor = 'start-timeout';
      void kill().then(() =>
        reject(new Error(`no listening line in ${options.startTimeoutMs ?? 120_000} ms`)),
      );
    }, options.startTimeoutMs ?? 120_000);
    const onData = () => {
      const url = /listening on (http:\/\/[^\s"]+)[\s"]/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      const startRss = residentOf(pid);
      peak = Math.max(peak, startRss);
      resolve({
        pid,
        url,
        startMs: performance.now() - started,
        startCpuSeconds: cpuSecondsOf(pid),
        startRss,
        cpuSeconds: () => cpuSecondsOf(pid),
        rss: () => residentOf(pid),
        peakRss: () => Math.max(peak, residentOf(pid)),
        exit: () => exit,
        output: () => output,
        kill,
      });
    };
    child.stdout.on('data', onData);
    void ended.then(() => {
      clearTimeout(timer);
      reject(
        new Error(
          `exited (${exit?.killedFor ?? exit?.signal ?? `code ${exit?.code}`}) before listening: ${lastLines(output)}`,
        ),
      );
    });
  });
}

/** `node` flags and the CLI's: the mock as a user starts it, its memory capped. */
function mockArguments(options: MockChildOptions): string[] {
  return [
    `--max-old-space-size=${options.maxOldSpaceMb ?? 2048}`,
    options.bin,
    'mock',
    '--spec',
    options.spec,
    '--port',
    '0',
    '--api-key',
    options.apiKey,
    '--basic',
    options.basic,
    '--seed-count',
    String(options.seedCount ?? 2),
    '--log-format',
    'json',
  ];
}

/** The last few lines of a log, in one line. */
export function lastLines(output: string, count = 3): string {
  return output.trim().split('\n').slice(-count).join(' | ').slice(0, 600);
}

/** utime + stime of a process, from /proc (clock ticks of 1/100 s); 0 once it is gone. */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** VmRSS of a process, from /proc; 0 once it is gone. */
function residentOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}
