// Run as `node --expose-gc --import tsx bench/memory.ts <count>`: the heap and off-heap
// memory the mock holds per stored category, its cached serializations included.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/wiring/create-app.js';
import { loadSpec } from '../src/openapi/load.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { animalKinds, seededFaker } from '../src/openapi/realistic.js';

const count = Number(process.argv[2] ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

function used(): number {
  gc!();
  gc!();
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  return heapUsed + external + arrayBuffers;
}

const spec = await loadSpec();
const store = createMemoryStore();
const server = createServer(createApp({ spec, apiKeys: ['k'], store })).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/categories`;
const list = () =>
  fetch(url, { headers: { authorization: 'Bearer k' } }).then((res) => res.arrayBuffer());
await list();

const categories = store.collection({ name: 'categories', idProperty: 'id', idKind: 'integer' });
let input: ReturnType<typeof animalKinds> | undefined = animalKinds(count, seededFaker(1));
const before = used();
for (const category of input) await categories.create(category);
input = undefined;
// Only the size is kept: the client's copy of the list must not count as the mock's memory.
const jsonBytes = (await list()).byteLength;
const after = used();

const perCategory = (after - before) / count;
const jsonPerCategory = jsonBytes / count;
console.log(
  JSON.stringify({
    count,
    perCategory,
    jsonPerCategory,
    beyondJson: perCategory - jsonPerCategory,
  }),
);
server.close();
