// Run as `node --import tsx bench/list-shapes.ts [count]`: how long the mock takes to answer a
// list of a store of <count> categories (about 120 bytes of JSON each) in each of its shapes:
// the whole collection, filtered on a field, a page (limit), a page deep in the list (offset),
// each the median of several, after one that warms it. In process, one connection, for the
// list path alone (issue 28: a filtered or paged list reads its records as objects).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { createApp } from '../src/wiring/create-app.js';
import { createMockServer } from '../src/http/server.js';
import { loadSpec } from '../src/openapi/load.js';
import { ADMIN_SPEC_PATH } from '../src/openapi/bundled.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { BENCH_KEY } from './processes.js';
import { median, round } from './stats.js';

const count = Number(process.argv[2] ?? 100_000);
const RUNS = 7;
// The documented list with a filter on `name` and offset paging: the petstore's own has none.
const { document } = await loadSpec();
const edited = structuredClone(document);
(edited.paths as Record<string, { get: { parameters?: unknown[] } }>)[
  '/categories'
]!.get.parameters = [
  { name: 'name', in: 'query', schema: { type: 'string' } },
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
];
const folder = await mkdtemp(join(tmpdir(), 'petstore-kit-bench-'));
await writeFile(join(folder, 'openapi.yaml'), stringify(edited));
const spec = await loadSpec(join(folder, 'openapi.yaml'));
const store = createMemoryStore();
const app = createApp({
  spec,
  adminSpec: await loadSpec(ADMIN_SPEC_PATH),
  apiKeys: [BENCH_KEY],
  store,
});
const { server, close } = createMockServer(app, {});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
try {
  const categories = store.collection({ name: 'categories', idProperty: 'id', idKind: 'integer' });
  for (let i = 0; i < count; i++)
    await categories.create({
      name: i % 100 === 0 ? 'Wanted' : `Category ${i}`,
      description: 'A category of the list shapes bench, about one hundred and twenty bytes.',
    });
  const timed = async (path: string) => {
    const started = performance.now();
    const res = await fetch(`${origin}/v1${path}`, {
      headers: { authorization: `Bearer ${BENCH_KEY}` },
    });
    const bytes = (await res.arrayBuffer()).byteLength;
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return { ms: performance.now() - started, bytes };
  };
  const rows: Record<string, { medianMs: number; minMs: number; bytes: number }> = {};
  for (const [name, path] of [
    ['whole', '/categories'],
    ['filtered', '/categories?name=Wanted'],
    ['page', '/categories?limit=20'],
    ['deep page', `/categories?limit=20&offset=${count - 40}`],
  ] as const) {
    await timed(path);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const run = await timed(path);
      times.push(run.ms);
      bytes = run.bytes;
    }
    rows[name] = { medianMs: round(median(times), 1), minMs: round(Math.min(...times), 1), bytes };
  }
  console.log(JSON.stringify({ count, rows }));
} finally {
  await close();
  await rm(folder, { recursive: true, force: true });
}
