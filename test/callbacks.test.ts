// Callbacks: after an operation that declares them succeeds, the mock calls the URL the
// callback's runtime expression gives, with a body from the record it made, logs it as an
// outgoing request and checks the receiver's answer (docs/callbacks-and-webhooks.md).
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';
import { AUTH, capturedLogger, KEY } from './helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

const SPEC = 'test/fixtures/specs/subscriptions-callbacks.yaml';
const ADMIN = 'spec/admin.yaml';

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function mockOf(options: { callbackHosts?: string[] } = {}) {
  const logged = capturedLogger();
  const app = createApp({
    spec: await loadSpec(SPEC),
    adminSpec: await loadSpec(ADMIN),
    apiKeys: [KEY],
    seedCount: 0,
    logger: logged.logger,
    ...options,
  });
  return { mock: app.mock, text: logged.text };
}

function subscribe(
  mock: Awaited<ReturnType<typeof mockOf>>['mock'],
  callbackUrl: string,
  headers = {},
) {
  return mock.fetch(
    new Request('http://mock.test/v1/subscriptions?channel=email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...AUTH, ...headers },
      body: JSON.stringify({ callbackUrl, topic: 'orders' }),
    }),
  );
}

async function outgoing(mock: Awaited<ReturnType<typeof mockOf>>['mock']) {
  const res = await mock.fetch(
    new Request('http://mock.test/__mock/requests?direction=outgoing', { headers: AUTH }),
  );
  return ((await res.json()) as { requests: Record<string, unknown>[] }).requests;
}

describe('callbacks', () => {
  it('calls the URL the request body names, with a body from the record made, and logs the answer', async () => {
    receiver = await startReceiver((request) =>
      request.method === 'PUT' ? { status: 204 } : { status: 200, body: '{"received":true}' },
    );
    const { mock } = await mockOf();
    const res = await subscribe(mock, `${receiver.url}/hooks`);
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: number };
    await mock.outgoing.idle();

    const byMethod = Object.fromEntries(receiver.received.map((one) => [one.method, one]));
    // onEvent: its URL is the request body's callbackUrl; its body fits Event.
    expect(byMethod.POST?.url).toBe('/hooks');
    const event = JSON.parse(byMethod.POST?.body ?? '') as Record<string, unknown>;
    expect(event).toMatchObject({ topic: expect.stringMatching(/^(orders|invoices)$/) });
    expect(typeof event.happenedAt).toBe('string');
    // onConfirm: the query and the answer's id in the URL, the record made as its body.
    expect(byMethod.PUT?.url).toBe(`/hooks/confirm?channel=email&id=${created.id}`);
    expect(JSON.parse(byMethod.PUT?.body ?? '')).toEqual(created);

    const log = await outgoing(mock);
    expect(log).toHaveLength(2);
    const confirm = log.find((entry) => entry.method === 'PUT');
    expect(confirm).toMatchObject({
      path: `${receiver.url}/hooks/confirm?channel=email&id=${created.id}`,
      status: 204,
      outgoing: {
        kind: 'callback',
        name: 'onConfirm',
        cause: 'createSubscription',
        attempts: 1,
        problems: [],
      },
    });
    // The triggering request is logged before what it set off.
    const all = await mock.fetch(
      new Request('http://mock.test/__mock/requests', { headers: AUTH }),
    );
    const entries = (
      (await all.json()) as { requests: { id: number; method: string; outgoing?: unknown }[] }
    ).requests;
    const create = entries.find((entry) => !entry.outgoing);
    expect(
      entries
        .filter((entry) => entry.outgoing)
        .every((entry) => entry.id > (create?.id ?? Infinity)),
    ).toBe(true);
  });

  it('tells of a receiver answer the callback does not document', async () => {
    receiver = await startReceiver(() => ({ status: 200, body: '{"ok":1}' }));
    const { mock } = await mockOf();
    await subscribe(mock, receiver.url);
    await mock.outgoing.idle();
    const event = (await outgoing(mock)).find((entry) => entry.method === 'POST');
    expect((event?.outgoing as { problems: string[] }).problems.join()).toMatch(/received/);
    const confirm = (await outgoing(mock)).find((entry) => entry.method === 'PUT');
    expect((confirm?.outgoing as { problems: string[] }).problems.join()).toMatch(
      /200, which is not documented/,
    );
  });

  it('refuses a host --callback-hosts does not allow, logs it, and answers the client as ever', async () => {
    const { mock, text } = await mockOf();
    const res = await subscribe(mock, 'http://169.254.169.254/latest/meta-data');
    expect(res.status).toBe(201);
    await mock.outgoing.idle();
    const log = await outgoing(mock);
    expect(log).toHaveLength(2);
    const event = log.find((entry) => entry.method === 'POST');
    expect(event).toMatchObject({
      path: 'http://169.254.169.254/latest/meta-data',
      outgoing: {
        kind: 'callback',
        attempts: 0,
        error: expect.stringMatching(
          /host 169\.254\.169\.254 is not allowed \(--callback-hosts: localhost, 127\.0\.0\.1, ::1\)/,
        ),
      },
    });
    expect(event?.status).toBeUndefined();
    expect(text()).toMatch(
      /callback onEvent of createSubscription not sent to http:\/\/169\.254\.169\.254/,
    );
  });

  it('sends to a host given in --callback-hosts', async () => {
    receiver = await startReceiver();
    // The receiver listens on 127.0.0.1; localhost alone is allowed, so 127.0.0.1 is refused.
    const { mock } = await mockOf({ callbackHosts: ['localhost'] });
    await subscribe(mock, receiver.url);
    await mock.outgoing.idle();
    expect(receiver.received).toHaveLength(0);
    const { mock: allowing } = await mockOf({ callbackHosts: ['127.0.0.1'] });
    await subscribe(allowing, receiver.url);
    await allowing.outgoing.idle();
    expect(receiver.received.length).toBeGreaterThan(0);
  });

  it('sends callbacks after the delay Prefer: callback-delay asks for, the answer not waiting', async () => {
    receiver = await startReceiver(() => ({ status: 204 }));
    const { mock } = await mockOf();
    const started = Date.now();
    const res = await subscribe(mock, receiver.url, { prefer: 'callback-delay=300' });
    expect(res.status).toBe(201);
    const answeredAfter = Date.now() - started;
    expect(receiver.received).toHaveLength(0);
    await receiver.next();
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(answeredAfter).toBeLessThan(300);
    await mock.outgoing.idle();
  });

  it('refuses a bad callback-delay as it refuses any bad preference', async () => {
    const { mock } = await mockOf();
    const res = await subscribe(mock, 'http://localhost:1/x', { prefer: 'callback-delay=soon' });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/callback-delay takes milliseconds/);
  });

  it('sends nothing when the operation fails', async () => {
    receiver = await startReceiver();
    const { mock } = await mockOf();
    const res = await mock.fetch(
      new Request('http://mock.test/v1/subscriptions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...AUTH },
        body: JSON.stringify({ callbackUrl: receiver.url }),
      }),
    );
    expect(res.status).toBe(400);
    await mock.outgoing.idle();
    expect(receiver.received).toHaveLength(0);
    expect(await outgoing(mock)).toEqual([]);
  });
});
