// The mock's bounds hold for the whole mock, the default state and every session together
// (issue 30, case 5): `--max-records 20` with four sessions held 100 records, `--max-store-size
// 200kb` 5 × 200 KB, and each session's request log grew on its own. On every store.
import { afterEach, expect, it } from 'vitest';
import type { MockOptions } from '../src/wiring/options.js';
import { KEY } from './helpers.js';
import { onEveryStore, type StoreKind } from './store-kinds.js';
import { inProcessMock, type InProcessMock } from './in-process.js';

const started: InProcessMock[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

const headers = (session?: string): Record<string, string> => ({
  Authorization: `Bearer ${KEY}`,
  'Content-Type': 'application/json',
  ...(session === undefined ? {} : { 'Mock-Session': session }),
});

/** The default state (undefined) and four sessions. */
const STATES = [undefined, 'w1', 'w2', 'w3', 'w4'];

async function mock(where: StoreKind, options: MockOptions): Promise<InProcessMock> {
  const running = await inProcessMock({ apiKeys: [KEY], ...(await where.options()), ...options });
  started.push(running);
  return running;
}

async function create(mock: InProcessMock, body: unknown, session?: string) {
  const res = await mock.fetch(`${mock.url}/categories`, {
    method: 'POST',
    headers: headers(session),
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code?: string } };
}

async function listed(mock: InProcessMock, session?: string): Promise<unknown[]> {
  const res = await mock.fetch(`${mock.url}/categories`, { headers: headers(session) });
  expect(res.status).toBe(200);
  return (await res.json()) as unknown[];
}

onEveryStore('bounds for the whole mock', (where) => {
  it('--max-records 20 with four sessions holds 20 records in all; past it, 507 insufficient_storage', async () => {
    const running = await mock(where, { seedCount: 0, maxRecords: 20 });
    const answers = [];
    for (let i = 0; i < 10; i++)
      for (const session of STATES) answers.push(await create(running, { name: `n${i}` }, session));
    const created = answers.filter(({ status }) => status === 201);
    expect(created).toHaveLength(20);
    for (const refused of answers.filter(({ status }) => status !== 201)) {
      expect(refused.status).toBe(507);
      expect(refused.body.code).toBe('insufficient_storage');
    }
    let held = 0;
    for (const session of STATES) held += (await listed(running, session)).length;
    expect(held).toBe(20);
  });

  it("the start-up data counts once, not once per session: each session's copy of it is free", async () => {
    const running = await mock(where, { seedCount: 3, maxRecords: 100 });
    const startup = await heldRecords(running);
    expect(startup).toBeGreaterThan(0);
    let created = 0;
    for (let i = 0; i < 30; i++)
      for (const session of STATES)
        if ((await create(running, { name: `n${i}` }, session)).status === 201) created++;
    expect(created).toBe(100 - startup);
    let held = 0;
    for (const session of STATES) held += await heldRecords(running, session);
    expect(held - startup * (STATES.length - 1)).toBe(100);
  });

  it('--max-store-size 200kb across five states stores 200 KB in all, not 5 × 200 KB', async () => {
    const maxBytes = 200 * 1024;
    const running = await mock(where, { seedCount: 0, maxStoreSize: maxBytes });
    const name = 'x'.repeat(10_000);
    let stored = 0;
    for (let i = 0; i < 10; i++)
      for (const session of STATES) {
        const { status } = await create(running, { name }, session);
        expect([201, 507]).toContain(status);
        if (status === 201) stored++;
      }
    // A record is its name and about 20 bytes of JSON around it.
    expect(stored).toBe(Math.floor(maxBytes / (name.length + 20)));
    let bytes = 0;
    for (const session of STATES) bytes += JSON.stringify(await listed(running, session)).length;
    expect(bytes).toBeLessThanOrEqual(maxBytes);
  });
});

/** How many records a state holds, every collection together. */
async function heldRecords(running: InProcessMock, session?: string): Promise<number> {
  const res = await running.fetch(`${running.url.replace(/\/v1$/, '/__mock')}/collections`, {
    headers: headers(session),
  });
  expect(res.status).toBe(200);
  const { collections } = (await res.json()) as { collections: { count: number }[] };
  return collections.reduce((sum, { count }) => sum + count, 0);
}
