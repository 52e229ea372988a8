// petstore-kit/msw finds where a request goes once: the route MSW's predicate found is the one
// the mock answers with, not found a second time.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as RequestTarget from '../src/core/request-target.js';
import { mockHandlers, type MswMock } from '../src/msw.js';

const routed = vi.hoisted(() => ({ count: 0 }));
vi.mock('../src/core/request-target.js', async (original) => {
  const real = await original<typeof RequestTarget>();
  return {
    ...real,
    splitTarget: (target: string) => {
      routed.count++;
      return real.splitTarget(target);
    },
  };
});

const KEY = 'route-once-key';
let mock: MswMock;
const server = setupServer();
beforeAll(async () => {
  mock = await mockHandlers({ apiKeys: [KEY] });
  server.use(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(async () => {
  server.close();
  await mock.close();
});

describe('a request through petstore-kit/msw', () => {
  it('is routed once, and answered on that route', async () => {
    routed.count = 0;
    const response = await fetch(`http://mock.test${mock.basePath}/categories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Birds' }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ name: 'Birds' });
    expect(routed.count).toBe(1);
  });
});
