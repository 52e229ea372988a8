// A string whose format its pattern rules out (ShipEngine's `created_at`: a date-time that must
// also match its id pattern `^se(-...)+$`): every answer requiring one was a 500, as no value
// met both; the format is read as an annotation, its pattern checked alone, and said at start.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/format-ruled-out.yaml', import.meta.url));

describe('a format its pattern rules out', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('answers a list that requires one, the value meeting the pattern', async () => {
    const batch = await call('POST', '/batches', { name: 'Morning' });
    expect(batch.status).toBe(201);
    const notes = await call('GET', `/batches/${String(batch.body.batch_id)}/notes`);
    expect(notes.status).toBe(200);
    expect(notes.body.created_at).toMatch(/^se(-[a-z0-9]+)+$/);
  });

  it('says so among the warnings, once for the schema', () => {
    expect(
      app.mock.warnings.filter((line) => line.startsWith('a format that its pattern rules out')),
    ).toEqual([expect.stringContaining('/properties/created_at')]);
  });
});
