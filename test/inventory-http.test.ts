// The inventory probe once over a real socket, with Node's own HTTP client (fetch): the
// headers, statuses and bodies of issue 48 as a client on the wire sees them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { INVENTORY, PROBE_KEYS, probeInventory } from './inventory-probe.js';

describe('the inventory probe over HTTP', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ spec: INVENTORY, apiKeys: [...PROBE_KEYS], seedCount: 0, port: 0 });
  });
  afterAll(() => mock.close());

  it('passes what the in-process mock passes, but for the effects only a custom handler adds', async () => {
    // The probe asks for http://inventory.test/v2/...: the same path, on the mock's address.
    const base = new URL(mock.url);
    const results = await probeInventory((request) => {
      const url = new URL(request.url);
      url.protocol = base.protocol;
      url.host = base.host;
      return fetch(new Request(url, request));
    });
    const failed = results.filter((one) => !one.passed).map((one) => one.name);
    expect(failed).toEqual([
      "a movement adds to the item's quantity",
      'a movement that would take the quantity below zero: 409',
    ]);
  });
});
