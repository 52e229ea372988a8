// A `writeOnly` property inside a record's field (Scalar's Galaxy: a planet's `creator` is a
// User, whose `password` is write-only) is taken in and never shown. The mock kept it, found
// the record would break its own answers, and made the whole `creator` anew: the client's
// creator came back as a random user.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const GALAXY = fileURLToPath(new URL('./fixtures/corpus/scalar-galaxy/3.1.yaml', import.meta.url));

describe('a write-only property nested in a record field', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(GALAXY), apiKeys: [KEY], seed: 1 });
  });

  it('keeps what the client sent beside it, and never shows it', async () => {
    const creator = { name: 'Ada', email: 'ada@example.com', password: 'correct horse' };
    const created = await call('POST', '/planets', { name: 'Vulcan', creator });
    expect(created.status).toBe(201);
    expect(created.body.creator).toEqual({ name: 'Ada', email: 'ada@example.com' });
    const read = await call('GET', `/planets/${String(created.body.id)}`);
    expect(read.status).toBe(200);
    expect(read.body.creator).toEqual({ name: 'Ada', email: 'ada@example.com' });
    expect(JSON.stringify(read.body)).not.toContain('correct horse');
  });

  it('leaves a replaced record’s nested write-only value out too', async () => {
    const created = await call('POST', '/planets', { name: 'Romulus' });
    const id = String(created.body.id);
    const creator = { name: 'Grace', email: 'grace@example.com', password: 'hunter2!' };
    const replaced = await call('PUT', `/planets/${id}`, { name: 'Remus', creator });
    expect(replaced.status).toBe(200);
    expect(replaced.body.creator).toEqual({ name: 'Grace', email: 'grace@example.com' });
  });
});
