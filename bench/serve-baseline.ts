// Runs a baseline as its own process, seeded like the mock:
// `tsx bench/serve-baseline.ts <count> <key> [categories|authors]`.
import type { AddressInfo } from 'node:net';
import { animalKinds, seededFaker } from '../src/openapi/realistic.js';
import { createLibraryBaselineApp } from './baseline-library.js';
import { createBaselineApp } from './baseline-server.js';

const [count = '10', key = 'bench-key', kind = 'categories'] = process.argv.slice(2);
const app =
  kind === 'authors'
    ? createLibraryBaselineApp({ keys: [key], count: Number(count) })
    : createBaselineApp({
        keys: [key],
        categories: animalKinds(Number(count), seededFaker(1)).map((category, i) => ({
          id: i + 1,
          ...category,
        })),
      });
const base = kind === 'authors' ? '/api' : '/v1';
const server = app.listen(0, '127.0.0.1', () => {
  console.log(
    `baseline listening on http://127.0.0.1:${(server.address() as AddressInfo).port}${base}`,
  );
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
