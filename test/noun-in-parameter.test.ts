// An item parameter that names the record's noun among its words (Lago's
// `/customers/{external_customer_id}` holds the customer's `external_id`): the mock found no
// key and served the customers statelessly, so a created customer could not be read back.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/noun-in-parameter.yaml', import.meta.url));

describe('an item parameter naming the record’s noun', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('keys the records by the property the rest of its words name', async () => {
    const created = await call('POST', '/customers', {
      customer: { external_id: 'cus-42', name: 'Ada' },
    });
    expect(created.status).toBe(200);
    expect(created.body.customer).toMatchObject({ external_id: 'cus-42', name: 'Ada' });
    const read = await call('GET', '/customers/cus-42');
    expect(read.status).toBe(200);
    expect(read.body.customer).toMatchObject({ external_id: 'cus-42', name: 'Ada' });
    const listed = (await call('GET', '/customers')).body.customers as { external_id: string }[];
    expect(listed.map((one) => one.external_id)).toContain('cus-42');
    expect((await call('DELETE', '/customers/cus-42')).status).toBe(200);
    expect((await call('GET', '/customers/cus-42')).status).toBe(404);
  });
});
