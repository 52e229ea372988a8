// `npx tsx bench/profile.ts [create|list|big-list|startup ...]`: where the mock's CPU time goes,
// from V8 CPU profiles (bench/results/profile-*.cpuprofile, which DevTools opens), summed by
// module and by function. Under load, the profiler is started once the mock is warm and stopped
// with the load (through bench/probe.ts), so that neither start-up nor warm-up is counted;
// start-up itself is profiled with `node --cpu-prof`, from process start to the first answer.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfTimes, type CpuProfile, type SelfTime } from './cpu-profile.js';
import { checked, load, type LoadOptions } from './load.js';
import { BENCH_KEY, pinLoadGenerator, ROOT, startMock, type ServerProcess } from './processes.js';
import { FIRST_LIST, spec50 } from './spec-50.js';

const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 10);
/** `BENCH_PROFILE_LOGGING=1` profiles the mock as `npm start` runs it, its request log on. */
const QUIET = process.env.BENCH_PROFILE_LOGGING !== '1';
const RESULTS = `${ROOT}bench/results`;
const BIG_BODY = JSON.stringify({ name: 'Bench', description: 'x'.repeat(974) });

interface Scenario {
  title: string;
  seedCount: number;
  /** Not profiled: fills the store before the warm-up. */
  prepare?: (mock: ServerProcess) => Promise<void>;
  load: Omit<LoadOptions, 'url' | 'seconds'>;
}

const SCENARIOS: Record<string, Scenario> = {
  create: {
    title: 'create load (POST /categories, 10 connections)',
    seedCount: 10,
    load: { method: 'POST', connections: 10 },
  },
  list: {
    title: 'list load (GET /categories of 10, 10 connections)',
    seedCount: 10,
    load: { method: 'GET', connections: 10 },
  },
  'big-list': {
    title: 'list load (GET /categories of 100,000 × 1 KB, 2 connections)',
    seedCount: 0,
    prepare: async (mock) => {
      checked(
        await load({
          url: mock.url,
          method: 'POST',
          connections: 20,
          amount: 100_000,
          body: BIG_BODY,
        }),
      );
    },
    load: { method: 'GET', connections: 2 },
  },
};

function print(
  title: string,
  detail: string,
  { modules, functions, busyMs }: ReturnType<typeof selfTimes>,
) {
  const rows = (entries: SelfTime[]) =>
    entries
      .map((e) => `  ${String(e.ms).padStart(7)} ms ${`${e.share}%`.padStart(6)}  ${e.name}`)
      .join('\n');
  console.log(`\n${title}: ${detail}; ${busyMs} ms busy (idle excluded)`);
  console.log(`top self time by module\n${rows(modules)}`);
  console.log(`top self time by function\n${rows(functions)}`);
}

async function underLoad(name: string, scenario: Scenario): Promise<void> {
  const mock = await startMock({ seedCount: scenario.seedCount, probe: true, quiet: QUIET });
  try {
    await scenario.prepare?.(mock);
    checked(await load({ ...scenario.load, url: mock.url, seconds: 2 })); // warm-up: JIT, caches
    const path = `${RESULTS}/profile-${name}.cpuprofile`;
    await mock.ask({ type: 'profile-start' });
    const result = checked(await load({ ...scenario.load, url: mock.url, seconds: SECONDS }));
    await mock.ask({ type: 'profile-stop', path });
    const profile = JSON.parse(await readFile(path, 'utf8')) as CpuProfile;
    print(
      scenario.title,
      `${result.total} requests in ${SECONDS} s, ${Math.round(result.rps)} rps, ${QUIET ? '--quiet' : 'default logging'}`,
      selfTimes(profile),
    );
  } finally {
    await mock.stop();
  }
}

/** `node --cpu-prof` from process start to the first list answer, with the 50-operation spec. */
async function startup(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-profile-'));
  try {
    const spec = join(dir, 'spec-50.json');
    await writeFile(spec, spec50('profile'));
    const started = performance.now();
    const mock = await startMock({
      pinned: false,
      args: ['--spec', spec],
      nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir],
    });
    const res = await fetch(`${mock.url}${FIRST_LIST}`, {
      headers: { authorization: `Bearer ${BENCH_KEY}` },
    });
    const ms = Math.round(performance.now() - started);
    if (res.status !== 200) throw new Error(`the first list answered ${res.status}`);
    await mock.stop();
    const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'))!;
    const text = await readFile(join(dir, file), 'utf8');
    await writeFile(`${RESULTS}/profile-startup.cpuprofile`, text);
    print(
      'start-up with the generated 50-operation spec (node --cpu-prof, until exit)',
      `first list answer after ${ms} ms`,
      selfTimes(JSON.parse(text) as CpuProfile),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const chosen = process.argv.slice(2);
const names = chosen.length ? chosen : [...Object.keys(SCENARIOS), 'startup'];
await mkdir(RESULTS, { recursive: true });
if (names.includes('startup')) await startup();
console.error(pinLoadGenerator());
for (const name of names) {
  if (name === 'startup') continue;
  const scenario = SCENARIOS[name];
  if (!scenario)
    throw new Error(`no scenario ${name} (known: ${Object.keys(SCENARIOS).join(', ')}, startup)`);
  await underLoad(name, scenario);
}
