// petstore-kit's proxy beside Prism's (`prism proxy`), on the same target and the same requests
// (issue 33): which faults of the target each flags, whether each passes answers through as
// the target gave them, and the latency each adds (median and p99 over the same requests).
//
// Usage: npm run build && npx tsx scripts/proxy-vs-prism.ts [requests]   (default: 300)
// Prism is installed with npm into a temporary folder at run time (never into package.json);
// PRISM_DIR names a folder where `npm install @stoplight/prism-cli` was run already.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { parse, stringify } from 'yaml';
import { latencyOf } from '../bench/stats.js';
import { categoriesTarget, TARGET_AUTH, type Fault } from '../test/proxy-target.js';
import { freePort } from '../test/free-port.js';

const PRISM_VERSION = '5.14.2';
const ADMIN_KEY = 'compare-admin-key';
const REQUESTS = Number(process.argv[2] ?? 300);
const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url));
const SPEC = fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url));
/** Fields that differ between any two answers, or that only framing sets. */
const UNCOMPARED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

function run(command: string, args: string[], cwd?: string): ChildProcess {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

async function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', resolve));
}

async function installPrism(): Promise<string> {
  if (process.env.PRISM_DIR) return process.env.PRISM_DIR;
  const dir = await mkdtemp(join(tmpdir(), 'prism-'));
  console.error(`installing @stoplight/prism-cli@${PRISM_VERSION} into ${dir} ...`);
  const npm = run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `@stoplight/prism-cli@${PRISM_VERSION}`,
    ],
    dir,
  );
  if ((await exitOf(npm)) !== 0) throw new Error('npm could not install Prism');
  return dir;
}

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Waits for a line of a child's output that `pattern` matches, and gives its first group. */
function awaitOutput(child: ChildProcess, pattern: RegExp): Promise<string> {
  let text = '';
  return new Promise((resolve, reject) => {
    const look = (chunk: Buffer) => {
      text += chunk.toString();
      const found = pattern.exec(text);
      if (found) resolve(found[1] ?? found[0]);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
  });
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
  ms: number;
}

async function send(
  agent: Agent,
  url: string,
  options: { method?: 'GET' | 'POST'; body?: string } = {},
): Promise<Answer> {
  const started = performance.now();
  const res = await request(url, {
    dispatcher: agent,
    method: options.method ?? 'GET',
    headers: { ...TARGET_AUTH, ...(options.body ? { 'Content-Type': 'application/json' } : {}) },
    ...(options.body ? { body: options.body } : {}),
  });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, bytes, ms: performance.now() - started };
}

/** How an answer through a proxy differs from the direct one: nothing, when it is transparent. */
function differences(direct: Answer, through: Answer): string[] {
  const found: string[] = [];
  if (direct.status !== through.status) found.push(`status ${through.status}`);
  if (!direct.bytes.equals(through.bytes)) found.push('body');
  const names = new Set([...Object.keys(direct.headers), ...Object.keys(through.headers)]);
  for (const name of names) {
    if (UNCOMPARED.has(name)) continue;
    if (JSON.stringify(direct.headers[name]) !== JSON.stringify(through.headers[name]))
      found.push(
        through.headers[name] === undefined
          ? `-${name}`
          : direct.headers[name] === undefined
            ? `+${name}`
            : `~${name}`,
      );
  }
  return found;
}

// The spec both proxies check against: the bundled one, its list operation without `default`,
// so that a status it does not document is one.
const dir = await mkdtemp(join(tmpdir(), 'proxy-vs-prism-'));
const document = parse(await readFile(SPEC, 'utf8')) as {
  paths: Record<string, { get?: { responses: Record<string, unknown> } }>;
};
delete document.paths['/categories']?.get?.responses.default;
const specPath = join(dir, 'openapi.yaml');
await writeFile(specPath, stringify(document));

const prismDir = await installPrism();
const target = categoriesTarget();
const targetUrl = `http://127.0.0.1:${await listening(target.server)}/api/v1`;

const ours = run(process.execPath, [
  BIN,
  'proxy',
  '--port',
  '0',
  '--spec',
  specPath,
  '--target',
  targetUrl,
  '--api-key',
  ADMIN_KEY,
  '--quiet',
  '--log-format',
  'json',
]);
const oursUrl = await awaitOutput(ours, /listening on (http:\/\/\S+?)[",\s]/);
const prismPort = await freePort();
const prism = run(join(prismDir, 'node_modules/.bin/prism'), [
  'proxy',
  specPath,
  targetUrl,
  '--port',
  String(prismPort),
  '--host',
  '127.0.0.1',
  '--errors',
  'false',
  '-v',
  'error',
]);
const prismUrl = `http://127.0.0.1:${prismPort}`;
for (let tries = 0; ; tries++) {
  try {
    await request(`${prismUrl}/categories`, { headers: TARGET_AUTH }).then((res) =>
      res.body.dump(),
    );
    break;
  } catch (err) {
    if (tries === 200) throw err;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const agents = { direct: new Agent(), ours: new Agent(), prism: new Agent() };
const admin = oursUrl.replace(/\/v1$/, '/__mock');
async function oursFlagged(): Promise<number> {
  // An answer is checked once it has gone by: a moment after the client has it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const res = await request(`${admin}/violations`, {
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
  });
  const { count } = (await res.body.json()) as { count: number };
  await request(`${admin}/violations`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
  }).then((r) => r.body.dump());
  return count;
}
const prismFlagged = (answer: Answer): number => {
  const header = answer.headers['sl-violations'];
  return header === undefined ? 0 : (JSON.parse(String(header)) as unknown[]).length;
};

const cases: { name: string; fault: Fault; method?: 'POST'; body?: string; path: string }[] = [
  { name: 'correct target (list)', fault: 'none', path: '/categories' },
  {
    name: 'correct target (create)',
    fault: 'none',
    path: '/categories',
    method: 'POST',
    body: '{"name":"Ferret"}',
  },
  { name: 'wrong status (202)', fault: 'wrong-status', path: '/categories' },
  { name: 'missing required field', fault: 'missing-field', path: '/categories' },
  { name: 'wrong type (id a string)', fault: 'wrong-type', path: '/categories' },
  { name: 'wrong content type', fault: 'wrong-content-type', path: '/categories' },
  { name: 'error not in the spec shape', fault: 'error-shape', path: '/categories' },
  { name: 'duplicate ids in a list', fault: 'duplicate-ids', path: '/categories' },
  {
    name: 'request missing a required field',
    fault: 'none',
    path: '/categories',
    method: 'POST',
    body: '{"description":"x"}',
  },
];

console.log(
  `\n## Faults flagged and transparency (Prism ${PRISM_VERSION}, petstore-kit at ${oursUrl})\n`,
);
console.log(
  '| case | petstore-kit: violations | petstore-kit: differs from direct | Prism: violations | Prism: differs from direct |',
);
console.log('| --- | --- | --- | --- | --- |');
await oursFlagged();
for (const c of cases) {
  target.state.fault = c.fault;
  const options = {
    ...(c.method ? { method: c.method } : {}),
    ...(c.body ? { body: c.body } : {}),
  };
  // Each create makes the same id, so that the three answers can be the same.
  const from = target.state.nextId;
  const direct = await send(agents.direct, `${targetUrl}${c.path}`, options);
  target.state.nextId = from;
  const viaOurs = await send(agents.ours, `${oursUrl}${c.path}`, options);
  target.state.nextId = from;
  const viaPrism = await send(agents.prism, `${prismUrl}${c.path}`, options);
  const shown = (found: string[]) => (found.length === 0 ? 'no' : found.join(' '));
  console.log(
    `| ${c.name} | ${await oursFlagged()} | ${shown(differences(direct, viaOurs))} | ${prismFlagged(viaPrism)} | ${shown(differences(direct, viaPrism))} |`,
  );
}

target.state.fault = 'none';
const samples = { direct: [] as number[], ours: [] as number[], prism: [] as number[] };
for (let i = 0; i < REQUESTS; i++) {
  // Interleaved, so that the machine's noise falls on the three alike.
  samples.direct.push((await send(agents.direct, `${targetUrl}/categories`)).ms);
  samples.ours.push((await send(agents.ours, `${oursUrl}/categories`)).ms);
  samples.prism.push((await send(agents.prism, `${prismUrl}/categories`)).ms);
}
const direct = latencyOf(samples.direct);
console.log(
  `\n## Latency over ${REQUESTS} GET /categories each, interleaved, keep-alive (ms; load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores)\n`,
);
console.log('| path | p50 | p99 | added p50 | added p99 |');
console.log('| --- | --- | --- | --- | --- |');
for (const [name, values] of Object.entries(samples)) {
  const latency = latencyOf(values);
  const added = (a: number, b: number) => (name === 'direct' ? '' : (a - b).toFixed(1));
  console.log(
    `| ${name} | ${latency.p50} | ${latency.p99} | ${added(latency.p50, direct.p50)} | ${added(latency.p99, direct.p99)} |`,
  );
}

ours.kill('SIGTERM');
prism.kill('SIGTERM');
await Promise.all([exitOf(ours), exitOf(prism)]);
await Promise.all(Object.values(agents).map((agent) => agent.close()));
target.server.closeAllConnections();
target.server.close();
