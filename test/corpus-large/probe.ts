// One large document against the mock: started twice (cold, with nothing remembered, then
// warm), then every operation called once with a valid request, one at a time. A request
// unanswered within its bound is checked against a second, trivial one: when that is not
// answered either, the event loop is blocked, and the mock is killed and started again so that
// the other operations are still called. Beside the calls, a trivial request every
// STALL_PROBE_EVERY_MS measures how long the mock's event loop leaves a request waiting (its
// longest turn, seen from outside). The result is data; run.ts judges it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import {
  credentialsFor,
  labelOf,
  prepareRequest,
  requestBodyOf,
  seeClosedConnections,
} from '../corpus/drive.js';
import { loadDocument } from '../corpus/document.js';
import { operationsOf } from '../corpus/operations.js';
import { createValueMaker } from '../corpus/values.js';
import { pathOf, type LargeDocument } from './documents.js';
import {
  lastLines,
  startMockChild,
  type MockChild,
  type MockChildOptions,
} from './mock-process.js';

export const API_KEY = 'corpus-large-key';
export const BASIC = 'corpus:corpus-large-key';

/**
 * What came of one call. `answered`: a status came back, its body read whole; `hung`: nothing
 * within the bound while the mock still answered others; `blocked`: nothing within the bound
 * and a trivial request unanswered too (its event loop is stuck: it was restarted); `closed`:
 * the connection ended without an answer; `crashed`: the process ended; `unsent`: the
 * document's budget ran out first.
 */
export type CallOutcome = 'answered' | 'hung' | 'blocked' | 'closed' | 'crashed' | 'unsent';

export interface CallRecord {
  /** `GET /v1/containers`. */
  operation: string;
  outcome: CallOutcome;
  status?: number;
  /** Request sent to the last byte of the answer (or to the failure), ms. */
  ms?: number;
  /** The 5xx body's message, the network error, or the mock's last log lines. */
  detail?: string;
}

export interface StartRecord {
  ms: number;
  cpuSeconds: number;
  rssMb: number;
}

export interface DocumentRun {
  slug: string;
  operations: number;
  /** Why it did not start, when it did not. */
  notStarted?: string;
  cold?: StartRecord;
  warm?: StartRecord;
  calls: CallRecord[];
  /** CPU seconds of the mock over the calls (all its processes, restarts included). */
  callCpuSeconds: number;
  /** The highest RSS seen over every process of this document, MB. */
  peakRssMb: number;
  /** How often the mock was started again after a block or a crash. */
  restarts: number;
  /** With `settleMs`: how long the mock took to go idle after it listened (or the bound), ms, and its RSS then. */
  settled?: { ms: number; rssMb: number };
  /** Whether the watchdog killed a process past the RSS bound. */
  rssKilled: boolean;
  wallMs: number;
  /**
   * The stall probe's latencies over the calls, ms (see stallProbe): the longest is about the
   * longest turn of the mock's event loop, seen from outside.
   */
  stallsMs?: number[];
}

export interface ProbeOptions {
  /** The mock's CLI entry. */
  bin: string;
  /** Where its remembered readings live, deleted before the cold start; none: not deleted. */
  cacheDir?: string;
  cwd: string;
  /** @default 10000 */
  callTimeoutMs?: number;
  /** How long a trivial request may take to prove the event loop turns. @default 3000 */
  aliveTimeoutMs?: number;
  /** Past this, the remaining operations are left unsent. @default 360000 */
  budgetMs?: number;
  rssLimitBytes?: number;
  /** Another server than the mock, started for each start (Prism, for the bench). */
  command?: (spec: string) => Promise<NonNullable<MockChildOptions['command']>>;
  /** Each line of progress, for a person watching. */
  log?: (line: string) => void;
  /**
   * Before the first call, wait (at most this long) for the mock to go idle: its precompiling
   * done, as a test suite that starts the mock and then sets up finds it. None: call at once.
   */
  settleMs?: number;
}

const MB = 1024 * 1024;

function startRecord(mock: MockChild): StartRecord {
  return {
    ms: Math.round(mock.startMs),
    cpuSeconds: mock.startCpuSeconds,
    rssMb: Math.round(mock.startRss / MB),
  };
}

/** A few words of an error body: its message, detail, title or error, else its start. */
function messageOf(text: string): string {
  try {
    const json = JSON.parse(text) as unknown;
    if (typeof json === 'object' && json !== null) {
      const record = json as Record<string, unknown>;
      const found = [record.message, record.detail, record.title, record.error].find(
        (value) => typeof value === 'string',
      );
      if (typeof found === 'string') return found.slice(0, 400);
    }
  } catch {
    // Not JSON: its text.
  }
  return text.slice(0, 400);
}

/**
 * The harness's own first fetch is not the mock's latency: Node loads undici on a process's
 * first `fetch` (60-80 ms on two cores), and that went into the first call's time. One fetch
 * to a server of the harness's own (not the mock, whose code it would warm) before the calls.
 */
async function warmClient(): Promise<void> {
  const server = createServer((_req, res) => res.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await (await fetch(`http://127.0.0.1:${port}/`)).arrayBuffer();
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Whether the mock answers anything at all (a path no spec has) within `timeoutMs`. */
async function answersAtAll(mock: MockChild, timeoutMs: number): Promise<boolean> {
  try {
    const res = await fetch(`${mock.url}/__corpus-large-alive__`, {
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * How often the stall probe asks: more often than the mock's quiet before precompiling (100 ms)
 * would keep that work from ever running, and change what is measured.
 */
const STALL_PROBE_EVERY_MS = 150;

/**
 * A request for a path no document has, sent every STALL_PROBE_EVERY_MS beside the calls: the
 * mock answers it at once unless its event loop is busy, so its latency is how long a turn in
 * progress (a call's compile or generation, a step of precompiling) kept it waiting. A stall
 * shorter than the interval can be missed, a longer one is seen nearly whole. It runs in a
 * worker thread of its own: in the harness's thread, the harness making its next request's body
 * (hundreds of ms for Discord's) counted as the mock's stall.
 */
function stallProbe(target: () => MockChild, timeoutMs: number): { stop(): Promise<number[]> } {
  const worker = new Worker(STALL_PROBE_SOURCE, {
    eval: true,
    workerData: { everyMs: STALL_PROBE_EVERY_MS, timeoutMs },
  });
  worker.unref();
  let url = target().url;
  worker.postMessage({ url });
  // A mock started again (after a block or a crash) is asked at its own address.
  const follow = setInterval(() => {
    if (target().url !== url) worker.postMessage({ url: (url = target().url) });
  }, STALL_PROBE_EVERY_MS);
  follow.unref();
  return {
    stop: () =>
      new Promise<number[]>((resolve) => {
        clearInterval(follow);
        worker.once('message', (latencies: number[]) => {
          void worker.terminate();
          resolve(latencies);
        });
        worker.once('error', () => resolve([]));
        worker.postMessage({ stop: true });
      }),
  };
}

/** The stall probe's thread: asks `url` every `everyMs` until told to stop, then posts the latencies. */
const STALL_PROBE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { everyMs, timeoutMs } = workerData;
let url; let running = true; const latencies = [];
parentPort.on('message', (message) => {
  if (message.url) url = message.url;
  if (message.stop) running = false;
});
(async () => {
  while (running) {
    if (url) {
      const sent = performance.now();
      try {
        const res = await fetch(url + '/__corpus-large-stall__', { signal: AbortSignal.timeout(timeoutMs) });
        await res.arrayBuffer();
        latencies.push(Math.round(performance.now() - sent));
      } catch {}
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  parentPort.postMessage(latencies);
})();
`;

/** CPU a second below this is idle: the mock's timers, not its precompiling. */
const IDLE_CPU_SECONDS = 0.05;

/** Waits until a second passes with the mock nearly idle, or `boundMs` after it listened. */
async function settle(mock: MockChild, boundMs: number): Promise<{ ms: number; rssMb: number }> {
  const began = performance.now();
  let before = mock.cpuSeconds();
  while (performance.now() - began < boundMs) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = mock.cpuSeconds();
    if (now - before < IDLE_CPU_SECONDS) break;
    before = now;
  }
  return { ms: Math.round(performance.now() - began), rssMb: Math.round(mock.rss() / MB) };
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`.split('\n')[0] ?? 'error';
}

export async function probeDocument(
  document: LargeDocument,
  options: ProbeOptions,
): Promise<DocumentRun> {
  const began = performance.now();
  const log = options.log ?? (() => {});
  const callTimeoutMs = options.callTimeoutMs ?? 10_000;
  const aliveTimeoutMs = options.aliveTimeoutMs ?? 3_000;
  const budgetMs = options.budgetMs ?? 360_000;
  const spec = pathOf(document);
  const childOptions: MockChildOptions = {
    bin: options.bin,
    spec,
    cwd: options.cwd,
    apiKey: API_KEY,
    basic: BASIC,
    ...(options.rssLimitBytes ? { rssLimitBytes: options.rssLimitBytes } : {}),
  };
  const start = async () =>
    startMockChild(
      options.command ? { ...childOptions, command: await options.command(spec) } : childOptions,
    );
  const run: DocumentRun = {
    slug: document.slug,
    operations: document.operations,
    calls: [],
    callCpuSeconds: 0,
    peakRssMb: 0,
    restarts: 0,
    rssKilled: false,
    wallMs: 0,
  };
  const retire = async (mock: MockChild, countCpu: boolean) => {
    if (countCpu) run.callCpuSeconds += mock.cpuSeconds() - mock.startCpuSeconds;
    run.peakRssMb = Math.max(run.peakRssMb, Math.round(mock.peakRss() / MB));
    await mock.kill();
    if (mock.exit()?.killedFor === 'rss') run.rssKilled = true;
  };

  if (options.cacheDir) await rm(options.cacheDir, { recursive: true, force: true });
  let mock: MockChild;
  try {
    const cold = await start();
    run.cold = startRecord(cold);
    await retire(cold, false);
    mock = await start();
    run.warm = startRecord(mock);
  } catch (err) {
    run.notStarted = errorText(err);
    run.wallMs = Math.round(performance.now() - began);
    return run;
  }
  log(
    `${document.slug}: started cold ${run.cold.ms} ms, warm ${run.warm.ms} ms, ${run.warm.rssMb} MB`,
  );

  if (options.settleMs !== undefined) {
    run.settled = await settle(mock, options.settleMs);
    log(`${document.slug}: idle ${run.settled.ms} ms after listening, ${run.settled.rssMb} MB`);
  }
  const loaded = await loadDocument(spec);
  const credentials = credentialsFor(loaded.resolved, API_KEY, BASIC);
  const values = createValueMaker(1);
  const deadline = performance.now() + budgetMs;
  await warmClient();
  const stalls = stallProbe(() => mock, callTimeoutMs);
  for (const operation of operationsOf(loaded.resolved)) {
    const label = labelOf(operation);
    if (performance.now() > deadline) {
      run.calls.push({ operation: label, outcome: 'unsent', detail: 'budget exhausted' });
      continue;
    }
    // A body described for a GET (Stripe's empty form bodies) cannot be sent with fetch.
    const bodiless = operation.method === 'get' || operation.method === 'head';
    const request = prepareRequest(
      mock.url,
      credentials,
      values,
      operation,
      {},
      bodiless ? undefined : requestBodyOf(values, operation),
    );
    await seeClosedConnections();
    const sent = performance.now();
    let call: CallRecord;
    try {
      const res = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(callTimeoutMs),
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      const text = await res.text();
      call = {
        operation: label,
        outcome: 'answered',
        status: res.status,
        ms: Math.round(performance.now() - sent),
        ...(res.status >= 500 ? { detail: messageOf(text) } : {}),
      };
    } catch (err) {
      const ms = Math.round(performance.now() - sent);
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      // Give a dying process a moment to be seen as dead rather than as a closed connection.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const exit = mock.exit();
      if (exit) {
        call = {
          operation: label,
          outcome: 'crashed',
          ms,
          detail: `${exit.killedFor === 'rss' ? 'killed past the RSS bound' : `exited ${exit.signal ?? `with code ${exit.code}`}`}: ${lastLines(mock.output())}`,
        };
      } else if (timedOut) {
        const alive = await answersAtAll(mock, aliveTimeoutMs);
        call = {
          operation: label,
          outcome: alive ? 'hung' : 'blocked',
          ms,
          detail: alive
            ? `no answer in ${callTimeoutMs} ms`
            : `no answer in ${callTimeoutMs} ms, nor to any other request: event loop blocked`,
        };
      } else {
        call = { operation: label, outcome: 'closed', ms, detail: errorText(err) };
      }
    }
    run.calls.push(call);
    if (run.calls.length % 100 === 0)
      log(`${document.slug}: ${run.calls.length} of ${run.operations} called`);
    if (call.outcome !== 'answered' || (call.status ?? 0) >= 500)
      log(`${document.slug}: ${label}: ${call.outcome} ${call.status ?? ''} ${call.detail ?? ''}`);
    if (call.outcome === 'crashed' || call.outcome === 'blocked') {
      await retire(mock, true);
      run.restarts++;
      try {
        mock = await start();
      } catch (err) {
        run.notStarted = `could not start again: ${errorText(err)}`;
        break;
      }
    }
  }
  run.stallsMs = await stalls.stop();
  await retire(mock, true);
  run.wallMs = Math.round(performance.now() - began);
  return run;
}
