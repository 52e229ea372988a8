// A closed answer (`additionalProperties: false`) that requires a property neither it nor its
// parts declare (ShipEngine's rate and shipment update answers): no value met it, and every
// answer was a 500; the name is read as declared, of any value, and said at start.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';
import { jsonCaller } from './in-process-request.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/required-undeclared.yaml', import.meta.url));

describe('a closed answer requiring what it declares nowhere', () => {
  let app: MockApp;
  const call = jsonCaller(() => app);

  beforeAll(async () => {
    app = createApp({ spec: await loadSpec(SPEC), apiKeys: [KEY], seed: 1 });
  });

  it('answers, with the required name and the closed part’s fields', async () => {
    const rate = await call('GET', '/rates/se-1');
    expect(rate.status).toBe(200);
    expect(rate.body).toHaveProperty('rate_request_id');
    expect(rate.body).toMatchObject({ rate_id: expect.any(String), amount: expect.any(Number) });
  });

  it('says so among the warnings', () => {
    expect(
      app.mock.warnings.filter((line) => line.includes('requires and declares nowhere')),
    ).toHaveLength(1);
  });
});
