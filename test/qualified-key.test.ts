// Records keyed by a property named as the item parameter with a word before it (Discord's
// `/exceptions/{exception_id}` of records holding an `event_exception_id`): no key was found,
// the collection was served statelessly, and the exception a create told of was at no path.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { qualifiedPropertyFor } from '../src/openapi/item-key.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/qualified-key.yaml', import.meta.url));

describe('a key named as the item parameter with a word before it', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('keeps a created record, updated and deleted at the key it answered', async () => {
    const event = await call('POST', '/events', { name: 'Standup' });
    const base = `/events/${String(event.body.id)}/exceptions`;
    const created = await call('POST', base, { is_canceled: true });
    expect(created.status).toBe(200);
    const key = String(created.body.event_exception_id);
    const updated = await call('PATCH', `${base}/${key}`, { is_canceled: false });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ event_exception_id: key, is_canceled: false });
    expect((await call('DELETE', `${base}/${key}`)).status).toBe(204);
    expect((await call('PATCH', `${base}/${key}`, { is_canceled: true })).status).toBe(404);
  });

  it('reads only a property that is one, and only one, such name', () => {
    expect(qualifiedPropertyFor('hash', ['tx_hash', 'block'])).toBe('tx_hash');
    expect(qualifiedPropertyFor('hash', ['tx_hash', 'block_hash'])).toBeUndefined();
    expect(qualifiedPropertyFor('exception_id', ['exception_id'])).toBeUndefined();
  });
});
