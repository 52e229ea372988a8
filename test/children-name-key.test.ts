// Records keyed by an opaque text whose children's paths name them as an integer (Jira's
// dashboards, read at `/dashboard/{id}`, with gadgets at `/dashboard/{dashboardId}/gadget`):
// the mock keyed them by UUIDs, and every request to a child was a 400.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/children-name-key.yaml', import.meta.url));

describe('a key its children’s paths name as an integer', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('is made of digits, so that the record’s children are reached', async () => {
    const board = await call('POST', '/boards', { name: 'Team' });
    expect(board.status).toBe(201);
    expect(board.body.id).toMatch(/^[0-9]+$/);
    const key = String(board.body.id);
    expect((await call('GET', `/boards/${key}`)).body).toMatchObject({ id: key, name: 'Team' });
    const card = await call('POST', `/boards/${key}/cards`, { title: 'First' });
    expect(card.status).toBe(200);
    const cards = (await call('GET', `/boards/${key}/cards`)).body as unknown as { id: number }[];
    expect(cards.map((one) => one.id)).toContain(card.body.id);
    expect((await call('DELETE', `/boards/${key}/cards/${String(card.body.id)}`)).status).toBe(204);
  });

  it('keeps seeded records reachable through their children too', async () => {
    const boards = (await call('GET', '/boards')).body as unknown as { id: string }[];
    expect(boards.length).toBeGreaterThan(0);
    for (const one of boards) expect(one.id).toMatch(/^[0-9]+$/);
    expect((await call('GET', `/boards/${boards[0]?.id ?? ''}/cards`)).status).toBe(200);
  });
});
