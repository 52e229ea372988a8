// `npx tsx bench/log-line.ts`: the CPU one request line costs, written to stdout as `npm start`
// writes it (a pipe read by this process), against pino's other destinations: process CPU, the
// writer threads' included, which a loaded machine distorts less than throughput. Each writer
// runs in a process of its own, in alternating rounds (BENCH_ROUNDS, default 5); medians.
import { spawn } from 'node:child_process';
import { pino, type DestinationStream } from 'pino';
import { median } from './stats.js';
import { createLogger, requestLines, type RequestLine } from '../src/http/logger.js';

const LINES = Number(process.env.BENCH_LOG_LINES ?? 100_000);
const settings = { base: undefined, timestamp: pino.stdTimeFunctions.isoTime };
const writers: Record<string, () => (line: RequestLine) => void> = {
  'no line': () => () => undefined,
  'the mock (buffered batches)': () => requestLines(createLogger(undefined, { bufferedFd: 1 })),
  'pino, formatted, not written': () =>
    requestLines(pino(settings, { write: () => undefined } as DestinationStream)),
  'pino, one write a line': () =>
    requestLines(pino(settings, pino.destination({ dest: 1, sync: true }))),
  'SonicBoom asynchronous, 8 KiB': () =>
    requestLines(pino(settings, pino.destination({ dest: 1, sync: false, minLength: 8192 }))),
};

/** One line a turn of the event loop, as a server under load logs them. */
async function cpuPerLine(write: (line: RequestLine) => void): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < LINES; i++) {
    write({ method: 'GET', path: '/v1/categories', status: 200, ms: 0.4 });
    await new Promise(setImmediate);
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / LINES;
}

/** One writer in a child process (its stdout a pipe, read and dropped): µs a line. */
function measured(name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, name], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let result = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => (result += chunk.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(Number(result))
        : reject(new Error(`${name}: exited ${code}: ${result}`)),
    );
  });
}

const one = process.argv[2];
if (one) {
  process.stderr.write(String(await cpuPerLine(writers[one]!())));
} else {
  const names = Object.keys(writers);
  const runs = new Map(names.map((name) => [name, [] as number[]]));
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  for (let round = 0; round < rounds; round++)
    for (const name of round % 2 ? [...names].reverse() : names)
      runs.get(name)!.push(await measured(name));
  console.log(`CPU a request line, µs (median of ${rounds} processes; ${LINES} lines each)`);
  for (const [name, values] of runs)
    console.log(
      `  ${name.padEnd(32)} ${median(values).toFixed(2)}  (${values.map((v) => v.toFixed(1)).join(', ')})`,
    );
}
