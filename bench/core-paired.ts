// `npx tsx bench/core-paired.ts <before-dist> <after-dist>`: the core's own cost per request
// (`mock.handle`, in process: no socket, no request line), two builds loaded in one process
// and measured in alternating blocks by the process's CPU time. Load from other processes
// slows both alike, so a pipeline change shows here where bench/floor.ts' noise hides it.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunningMock, startMock } from '../src/wiring/start-mock.js';
import type { MockRequest } from '../src/vocabulary/request.js';

const [before, after] = process.argv.slice(2);
if (!before || !after) throw new Error('usage: bench/core-paired.ts <before dist> <after dist>');
const N = Number(process.env.BENCH_REQUESTS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const KEY = 'bench-key';

async function started(dist: string): Promise<RunningMock> {
  const url = pathToFileURL(resolve(dist, 'wiring/start-mock.js')).href;
  const module = (await import(url)) as { startMock: typeof startMock };
  return module.startMock({ port: 0, apiKeys: [KEY], logRequests: false, precompile: false });
}

const mocks = { before: await started(before), after: await started(after) };
const auth = `Bearer ${KEY}`;
const requests: Record<string, () => MockRequest> = {
  'list (10 categories)': () => ({
    method: 'GET',
    target: '/v1/categories',
    headers: { authorization: auth },
  }),
  create: () => ({
    method: 'POST',
    target: '/v1/categories',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: Buffer.from('{"name":"Owls"}'),
  }),
};

/** CPU µs per request of `N` requests answered one after the other. */
async function block(running: RunningMock, make: () => MockRequest): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const reply = await running.mock.handle(make());
    if (!reply.answer || reply.answer.status >= 300)
      throw new Error(`answered ${reply.answer?.status}`);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / N;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1] ?? NaN;
console.log('| scenario | before median / floor | after median / floor | after lower in |');
console.log('| --- | --- | --- | --- |');
for (const [name, make] of Object.entries(requests)) {
  for (const running of Object.values(mocks)) await block(running, make); // warm-up
  const cpu = { before: [] as number[], after: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    for (const which of order) cpu[which].push(await block(mocks[which], make));
    // The creates of a round are dropped: each round's list and store the same size.
    for (const running of Object.values(mocks)) await running.mock.reset();
  }
  const shown = (list: number[]) => `${median(list).toFixed(1)} / ${Math.min(...list).toFixed(1)}`;
  const lower = cpu.after.filter((value, i) => value < (cpu.before[i] ?? NaN)).length;
  console.log(`| ${name} | ${shown(cpu.before)} | ${shown(cpu.after)} | ${lower} of ${ROUNDS} |`);
}
await Promise.all(Object.values(mocks).map((running) => running.close()));
