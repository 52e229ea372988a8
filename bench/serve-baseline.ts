// Runs the baseline as its own process, seeded like the mock: `tsx bench/serve-baseline.ts <count> <key>`.
import type { AddressInfo } from 'node:net';
import { generateCategories } from '../src/state/seed-data.js';
import { createBaselineApp } from './baseline-server.js';

const [count = '10', key = 'bench-key'] = process.argv.slice(2);
const categories = generateCategories({ count: Number(count), seed: 1 }).map((category, i) => ({
  id: i + 1,
  ...category,
}));
const server = createBaselineApp({ keys: [key], categories }).listen(0, '127.0.0.1', () => {
  console.log(
    `baseline listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
  );
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
