// Webhooks: sent to every --webhook-url after the write they tell of, and on demand through
// the admin API, signed by the Standard Webhooks convention (docs/callbacks-and-webhooks.md).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createMock } from '../src/core/create-mock.js';
import { MAX_IN_FLIGHT } from '../src/core/outgoing/outgoing.js';
import { loadSpec } from '../src/openapi/load.js';
import { resolveOptions } from '../src/wiring/options.js';
import { createApp } from '../src/wiring/create-app.js';
import { AUTH, capturedLogger, KEY } from './helpers.js';
import { startReceiver, type Received, type Receiver } from './receiver.js';

const SPEC = 'test/fixtures/specs/pets-webhooks.yaml';
const SECRET_BYTES = Buffer.alloc(32, 7);
const SECRET = `whsec_${SECRET_BYTES.toString('base64')}`;

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function mockOf(options: { webhookUrls?: string[]; webhookSecret?: string } = {}) {
  const logged = capturedLogger();
  const app = createApp({
    spec: await loadSpec(SPEC),
    adminSpec: await loadSpec('spec/admin.yaml'),
    apiKeys: [KEY],
    seedCount: 0,
    logger: logged.logger,
    ...options,
  });
  return { mock: app.mock, text: logged.text };
}

type TestMock = Awaited<ReturnType<typeof mockOf>>['mock'];

function call(
  mock: TestMock,
  method: string,
  path: string,
  body?: unknown,
  type = 'application/json',
) {
  return mock.fetch(
    new Request(`http://mock.test${path}`, {
      method,
      headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': type }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

/** The receiver's check of a Standard Webhooks signature, written from the standard's text. */
function verified(request: Received, key: Buffer): boolean {
  const id = String(request.headers['webhook-id']);
  const timestamp = String(request.headers['webhook-timestamp']);
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest();
  return String(request.headers['webhook-signature'])
    .split(' ')
    .some((signature) => {
      const [version, value] = signature.split(',');
      const given = Buffer.from(value ?? '', 'base64');
      return (
        version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected)
      );
    });
}

describe('webhooks', () => {
  it('warns at start, in one line, of the webhooks no write matches', async () => {
    const { mock, text } = await mockOf();
    const lines = mock.warnings.filter((line) => line.includes('webhooks'));
    expect(lines).toEqual([expect.stringContaining('petReturned')]);
    expect(lines[0]).not.toMatch(/newPet|petUpdated|petDeleted/);
    expect(text()).toContain('petReturned');
  });

  it('lists the webhooks, the writes they follow and the receivers', async () => {
    const { mock } = await mockOf({ webhookUrls: ['http://localhost:9/hooks'] });
    const res = await call(mock, 'GET', '/__mock/webhooks');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      webhooks: [
        { name: 'newPet', method: 'POST', follows: { collection: 'pets', change: 'created' } },
        { name: 'petUpdated', method: 'POST', follows: { collection: 'pets', change: 'updated' } },
        { name: 'petDeleted', method: 'POST', follows: { collection: 'pets', change: 'deleted' } },
        { name: 'petReturned', method: 'POST', unmatched: expect.any(String) },
      ],
      receivers: ['http://localhost:9/hooks'],
      signed: false,
    });
  });

  it('sends newPet after a create, signed, with the record made as its payload', async () => {
    receiver = await startReceiver();
    const { mock } = await mockOf({
      webhookUrls: [`${receiver.url}/hooks`],
      webhookSecret: SECRET,
    });
    const res = await call(mock, 'POST', '/v1/pets', { name: 'Rex' });
    expect(res.status).toBe(201);
    const pet = (await res.json()) as { id: number; name: string };
    const sent = await receiver.next();
    expect(sent.url).toBe('/hooks');
    expect(JSON.parse(sent.body)).toEqual(pet);
    expect(sent.headers['webhook-id']).toMatch(/^msg_/);
    expect(Math.abs(Number(sent.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(
      60,
    );
    expect(verified(sent, SECRET_BYTES)).toBe(true);
    expect(verified({ ...sent, body: sent.body.replace('Rex', 'Max') }, SECRET_BYTES)).toBe(false);
    await mock.outgoing.idle();
    const log = await call(mock, 'GET', '/__mock/requests?direction=outgoing');
    const { requests } = (await log.json()) as { requests: Record<string, unknown>[] };
    expect(requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `${receiver.url}/hooks`,
        status: 200,
        outgoing: expect.objectContaining({
          kind: 'webhook',
          name: 'newPet',
          cause: 'createPet: pets created',
          problems: [],
        }),
      }),
    ]);
  });

  it('sends petUpdated in its envelope after an update, and petDeleted with the id after a delete', async () => {
    receiver = await startReceiver();
    const { mock } = await mockOf({ webhookUrls: [receiver.url] });
    const { id } = (await (await call(mock, 'POST', '/v1/pets', { name: 'Rex' })).json()) as {
      id: number;
    };
    await receiver.next();
    const patched = await call(
      mock,
      'PATCH',
      `/v1/pets/${id}`,
      { name: 'Rex', tag: 'good' },
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    expect(JSON.parse((await receiver.next()).body)).toEqual({
      type: 'pet.updated',
      data: { id, name: 'Rex', tag: 'good' },
    });
    expect((await call(mock, 'DELETE', `/v1/pets/${id}`)).status).toBe(204);
    expect(JSON.parse((await receiver.next()).body)).toEqual({ id });
    await mock.outgoing.idle();
    expect(receiver.received).toHaveLength(3);
  });

  it('sends one on demand: the payload given, else one generated from its schema', async () => {
    receiver = await startReceiver();
    const { mock } = await mockOf({ webhookUrls: [receiver.url], webhookSecret: SECRET });
    const given = await call(mock, 'POST', '/__mock/webhooks/petReturned', { id: 7, name: 'Rex' });
    expect(given.status).toBe(200);
    expect(await given.json()).toEqual({
      deliveries: [
        expect.objectContaining({
          path: receiver.url,
          status: 200,
          body: { id: 7, name: 'Rex' },
          response: expect.objectContaining({ body: { received: true } }),
          outgoing: expect.objectContaining({
            kind: 'webhook',
            name: 'petReturned',
            cause: 'on demand',
            attempts: 1,
          }),
        }),
      ],
    });
    expect(verified(receiver.received[0] as Received, SECRET_BYTES)).toBe(true);
    const generated = await call(mock, 'POST', '/__mock/webhooks/newPet');
    expect(generated.status).toBe(200);
    const payload = JSON.parse((receiver.received[1] as Received).body) as Record<string, unknown>;
    expect(payload).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      ...('tag' in payload ? { tag: expect.any(String) } : {}),
    });
  });

  it('answers 404 for a webhook the spec lacks, 409 with no receiver', async () => {
    const { mock: without } = await mockOf();
    const none = await call(without, 'POST', '/__mock/webhooks/newPet');
    expect(none.status).toBe(409);
    expect(await none.json()).toMatchObject({ code: 'no_webhook_receiver' });
    const { mock } = await mockOf({ webhookUrls: ['http://localhost:9/hooks'] });
    const unknown = await call(mock, 'POST', '/__mock/webhooks/petAdopted');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('newPet, petUpdated, petDeleted, petReturned');
  });

  it('logs a receiver that cannot be reached, and the write is answered as ever', async () => {
    receiver = await startReceiver();
    const gone = receiver.url;
    await receiver.close();
    receiver = undefined;
    const { mock, text } = await mockOf({ webhookUrls: [gone] });
    expect((await call(mock, 'POST', '/v1/pets', { name: 'Rex' })).status).toBe(201);
    await mock.outgoing.idle();
    const log = await call(mock, 'GET', '/__mock/requests?direction=outgoing');
    const { requests } = (await log.json()) as {
      requests: { status?: number; outgoing: { attempts: number; error: string } }[];
    };
    expect(requests[0]?.status).toBeUndefined();
    expect(requests[0]?.outgoing).toMatchObject({
      attempts: 3,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
    expect(text()).toMatch(/webhook newPet to http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
  });

  it('refuses a webhook secret that is not a whsec_ secret, quoting nothing of it', async () => {
    await expect(mockOf({ webhookSecret: 'hunter2-hunter2-hunter2-hunter2' })).rejects.toThrow(
      /whsec_/,
    );
    await expect(mockOf({ webhookSecret: 'hunter2-hunter2-hunter2-hunter2' })).rejects.not.toThrow(
      /hunter2/,
    );
  });

  it('holds at most MAX_IN_FLIGHT at once: a slow receiver under a burst of writes drops the rest, and says so', async () => {
    const spec = await loadSpec(SPEC);
    const warned: string[] = [];
    let sent = 0;
    const settings = resolveOptions({
      apiKeys: [KEY],
      seedCount: 0,
      callbackHosts: ['localhost'],
      webhookUrls: ['http://localhost:9/hooks'],
    });
    const mock = createMock(
      spec,
      { ...settings, logger: { warn: (line) => warned.push(line), error: () => undefined } },
      {
        // A receiver that never answers.
        fetch: () => {
          sent++;
          return new Promise<Response>(() => undefined);
        },
      },
    );
    for (let i = 0; i <= MAX_IN_FLIGHT; i++)
      expect((await call(mock, 'POST', '/v1/pets', { name: `Rex ${i}` })).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toBe(MAX_IN_FLIGHT);
    expect(
      warned.filter((line) =>
        /createPet: its callbacks and webhooks are not sent: 64 are being sent already/.test(line),
      ),
    ).toHaveLength(1);
  });
});
