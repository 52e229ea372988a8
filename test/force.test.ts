// A scenario forced on a session through the admin API (`PATCH /__mock/settings` with `force`,
// the Playwright fixture's `mock.force()`): held by the session, so it reaches the mock however
// the client calls it, and it ends by count, by time, or when cleared (issue 47, items 1 and 6).
import { beforeEach, describe, expect, it } from 'vitest';
import type { Mock } from '../src/core/create-mock.js';
import { ADMIN_SPEC_PATH } from '../src/openapi/bundled.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';

const SESSION = 'worker-0';

let mock: Mock;

beforeEach(async () => {
  const [spec, adminSpec] = await Promise.all([loadSpec(), loadSpec(ADMIN_SPEC_PATH)]);
  mock = createApp({ spec, adminSpec, apiKeys: [KEY] }).mock;
});

function call(path: string, init: RequestInit = {}, session = SESSION): Promise<Response> {
  return mock.fetch(
    new Request(`http://mock.test${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${KEY}`,
        'Content-Type': 'application/json',
        'Mock-Session': session,
        ...(init.headers as Record<string, string> | undefined),
      },
    }),
  );
}

const force = (force: object | null) =>
  call('/__mock/settings', { method: 'PATCH', body: JSON.stringify({ force }) });

async function statuses(count: number, session = SESSION): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < count; i++) answers.push((await call('/v1/categories', {}, session)).status);
  return answers;
}

describe('a forced scenario', () => {
  it('holds until cleared when it names no end: both runs of a StrictMode effect get it', async () => {
    expect((await force({ prefer: 'code=500' })).status).toBe(200);
    expect(await statuses(3)).toEqual([500, 500, 500]);
    expect((await force(null)).status).toBe(200);
    expect(await statuses(1)).toEqual([200]);
    expect(await (await call('/__mock/settings')).json()).not.toHaveProperty('force');
  });

  it('holds for a count of requests, then ends', async () => {
    await force({ prefer: 'code=500', times: 2 });
    expect(await statuses(3)).toEqual([500, 500, 200]);
  });

  it('spends its count once per request, however many arrive at once', async () => {
    await force({ prefer: 'code=500', times: 2 });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call('/v1/categories').then((res) => res.status)),
    );
    expect(answers.filter((status) => status === 500)).toHaveLength(2);
  });

  it('holds until its time, and not after', async () => {
    const inAMinute = new Date(Date.now() + 60_000).toISOString();
    await force({ prefer: 'code=500', until: inAMinute });
    expect(await statuses(2)).toEqual([500, 500]);
    await force({ prefer: 'code=500', until: new Date(Date.now() - 1).toISOString() });
    expect(await statuses(1)).toEqual([200]);
    expect(await (await call('/__mock/settings')).json()).not.toHaveProperty('force');
  });

  it('is the session’s own: another session and the default state answer as usual', async () => {
    await force({ prefer: 'code=500' });
    expect(await statuses(1, 'worker-1')).toEqual([200]);
    const plain = await mock.fetch(
      new Request('http://mock.test/v1/categories', {
        headers: { Authorization: `Bearer ${KEY}` },
      }),
    );
    expect(plain.status).toBe(200);
  });

  it('ends with the session’s reset', async () => {
    await force({ prefer: 'fault=malformed' });
    expect((await call('/__mock/reset', { method: 'POST' })).status).toBe(204);
    expect(await statuses(1)).toEqual([200]);
  });

  it('plays what a Prefer header would, and is logged with what it answered', async () => {
    await force({ prefer: 'code=401', times: 1 });
    const res = await call('/v1/categories');
    expect(res.status).toBe(401);
    const log = (await (await call('/__mock/requests?limit=1')).json()) as {
      requests: { status: number }[];
    };
    expect(log.requests[0]?.status).toBe(401);
  });

  it.each([
    [{ prefer: 'code=9000' }, 'invalid_preference'],
    [{ prefer: 'fault=explode' }, 'invalid_preference'],
    [{ prefer: 'code=500', times: 0 }, undefined],
    [{ prefer: 'code=500', until: 'tomorrow' }, undefined],
    [{ prefer: '' }, undefined],
  ])('refuses a force it cannot play (%j) in the Error shape', async (given, code) => {
    const res = await force(given);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string; status: number };
    expect(body).toMatchObject({ status: 400, message: expect.any(String) });
    if (code) expect(body.code).toBe(code);
    expect(await statuses(1)).toEqual([200]);
  });
});
