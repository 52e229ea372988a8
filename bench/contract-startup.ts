// `petstore-kit contract` on the bundled spec against a local mock, `--budget 0`, as CI runs
// it (the built CLI): from the process's start to its first request, to its first rule (the
// start-up its report prints) and to its end. Issue 31 asks for the first request within 2 s
// on a small spec on a quiet machine.
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BENCH_KEY, ROOT, startMock } from './processes.js';
import { median, round } from './stats.js';

export interface ContractStartup {
  /** Each run, in order, in ms: process start to the first request the target got. */
  firstRequestMs: number[];
  /** Process start to the first rule, as the report prints it. */
  firstRuleMs: number[];
  /** Process start to its exit. */
  wholeMs: number[];
  medians: { firstRequestMs: number; firstRuleMs: number; wholeMs: number };
}

const RUNS = 5;

/** Runs the contract command RUNS times against one mock, behind a front that notes the first request. */
export async function contractStartup(): Promise<ContractStartup> {
  const mock = await startMock();
  const target = new URL(mock.url);
  const state: { firstAt?: number } = {};
  const front = createServer((req, res) => {
    state.firstAt ??= performance.now();
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}${target.pathname}`;
  const result: ContractStartup = {
    firstRequestMs: [],
    firstRuleMs: [],
    wholeMs: [],
    medians: { firstRequestMs: 0, firstRuleMs: 0, wholeMs: 0 },
  };
  try {
    for (let r = 0; r < RUNS; r++) {
      delete state.firstAt;
      const started = performance.now();
      const child = spawn(
        process.execPath,
        ['dist/cli/bin.js', 'contract', '--base-url', baseUrl, '--budget', '0', '--seed', '1'],
        {
          cwd: ROOT,
          env: { ...process.env, API_KEY: BENCH_KEY },
          stdio: ['ignore', 'pipe', 'ignore'],
        },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      const whole = performance.now() - started;
      const firstRule = /\(start-up ([\d.]+) s/.exec(out)?.[1];
      if (code !== 0 || firstRule === undefined || state.firstAt === undefined)
        throw new Error(`the contract run did not conform (exit ${code}): ${out.slice(0, 300)}`);
      result.firstRequestMs.push(Math.round(state.firstAt - started));
      result.firstRuleMs.push(Math.round(Number(firstRule) * 1000));
      result.wholeMs.push(Math.round(whole));
    }
  } finally {
    front.closeAllConnections();
    await new Promise((resolve) => front.close(resolve));
    await mock.stop();
  }
  result.medians = {
    firstRequestMs: round(median(result.firstRequestMs), 0),
    firstRuleMs: round(median(result.firstRuleMs), 0),
    wholeMs: round(median(result.wholeMs), 0),
  };
  return result;
}

/** The row `npm run bench` prints. */
export function printContractStartup(startup: ContractStartup): void {
  const { medians } = startup;
  console.log(
    `petstore-kit contract, bundled spec, --budget 0: first request median ${medians.firstRequestMs} ms (runs: ${startup.firstRequestMs.join(', ')}), first rule ${medians.firstRuleMs} ms, whole run ${medians.wholeMs} ms`,
  );
}
