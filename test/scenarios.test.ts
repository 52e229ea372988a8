// Every state a UI must handle, on demand: forced answers (Prism's Prefer syntax), latency,
// network faults, stability markers, and a spec reloaded while it is being written.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { createLogger } from '../src/http/logger.js';
import { SpecError, type OpenApiDocument } from '../src/openapi/load.js';
import type { MockOptions } from '../src/wiring/options.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { addHealth, AUTH, capturedLogger, editedSpec, KEY, QUICK_SHUTDOWN } from './helpers.js';
import { inProcessMock, type InProcessMock } from './in-process.js';
import { raw } from './server-helpers.js';

const LIBRARY = fileURLToPath(new URL('./fixtures/specs/library.yaml', import.meta.url));
const mocks: InProcessMock[] = [];
const servers: RunningMock[] = [];

afterEach(async () => {
  await Promise.all([...mocks.splice(0), ...servers.splice(0)].map((mock) => mock.close()));
});

/** The mock, called with no port: what it answers is the point, not the socket. */
async function mock(options: MockOptions = {}): Promise<InProcessMock> {
  const opened = await inProcessMock({ apiKeys: [KEY], seedCount: 3, ...options });
  mocks.push(opened);
  return opened;
}

/** The mock behind Node's HTTP layer, for what a connection does (resets, timeouts, raw headers). */
async function served(options: MockOptions = {}): Promise<RunningMock> {
  const started = await startMock({ ...QUICK_SHUTDOWN, apiKeys: [KEY], seedCount: 3, ...options });
  servers.push(started);
  return started;
}

/** Calls `url` on the mock the test opened last (or through `on`, a socket's `{ fetch }`), with this Prefer. */
async function call(
  url: string,
  prefer?: string,
  init: RequestInit = {},
  on: Pick<InProcessMock, 'fetch'> = mocks.at(-1)!,
): Promise<{ status: number; body: unknown; headers: Headers; text: string }> {
  const res = await on.fetch(url, {
    ...init,
    headers: { ...AUTH, ...(prefer ? { Prefer: prefer } : {}), ...(init.headers as object) },
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, headers: res.headers, text };
}

const errorOf = (status: number) => ({
  code: expect.any(String),
  message: expect.any(String),
  status,
});

describe('Prefer: code=<status>', () => {
  it.each([500, 503, 404, 429])(
    '%i answers the Error shape with that status (the default response, made to fit)',
    async (status) => {
      const { url } = await mock();
      const answer = await call(`${url}/categories`, `code=${status}`);
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual(errorOf(status));
    },
  );

  it('answers the example a status documents for itself', async () => {
    const { url } = await mock();
    const answer = await call(`${url}/categories`, 'code=401');
    expect(answer).toMatchObject({
      status: 401,
      body: { code: 'missing_credential', status: 401 },
    });
  });

  it('a success status answers its example, and never changes the state', async () => {
    const { url } = await mock();
    const before = (await call(`${url}/categories`)).body as unknown[];
    const answer = await call(`${url}/categories`, 'code=201', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"Ghost"}',
    });
    expect(answer).toMatchObject({ status: 201, body: { id: 4, name: 'Rabbit' } });
    expect((await call(`${url}/categories`)).body).toEqual(before);
  });

  it('comes after authentication: a missing key is 401 whatever the Prefer', async () => {
    const running = await mock();
    const res = await running.fetch(`${running.url}/categories`, {
      headers: { Prefer: 'code=500' },
    });
    expect(res.status).toBe(401);
  });

  it('refuses, saying what it can answer, a status the operation does not document', async () => {
    const { url } = await mock({ spec: LIBRARY });
    const answer = await call(`${url}/health`, 'code=404');
    expect(answer.status).toBe(400);
    // health documents no error at all: the mock's own Error shape.
    expect(answer.body).toEqual({
      code: 'invalid_preference',
      message: 'health does not answer 404: it documents 200',
      status: 400,
    });
  });

  it.each(['abc', '99', '600', ''])('refuses code=%s, which is not a status', async (code) => {
    const { url } = await mock();
    const answer = await call(`${url}/categories`, `code=${code}`);
    expect(answer).toMatchObject({ status: 400, body: { code: 'invalid_preference' } });
    // As docs/scenarios.md promises: the statuses the operation can answer (issue 18).
    expect((answer.body as { message: string }).message).toMatch(
      /not an HTTP status: listCategories documents 200, 401, default/,
    );
  });
});

describe('several preferences', () => {
  it('are read from one Prefer header or from several', async () => {
    const { url } = await served();
    const { port } = new URL(url);
    for (const prefer of ['Prefer: code=503, example=x', 'Prefer: code=503\r\nPrefer: example=x']) {
      const answer = await raw(
        Number(port),
        `GET /v1/categories HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\n${prefer}\r\nConnection: close\r\n\r\n`,
      );
      // Both read: 503 is the default answer, which has no example named x.
      expect(answer.status).toBe(400);
      expect((answer.json as { message: string }).message).toMatch(
        /default answer of listCategories has no example "x"/,
      );
    }
  });
});

describe('Prefer: example=<name> and dynamic=true', () => {
  it('answers the named example, and lists the names when it has none of that name', async () => {
    const { url } = await mock();
    const named = await call(`${url}/categories`, 'example=categories');
    expect(named.status).toBe(200);
    expect((named.body as unknown[]).length).toBe(3);
    const missing = await call(`${url}/categories`, 'example=nope');
    expect(missing.status).toBe(400);
    expect((missing.body as { message: string }).message).toMatch(
      /has no example "nope" \(it has: categories\)/,
    );
  });

  it('generates from the schema, the same for the same seed', async () => {
    const [a, b] = await Promise.all([mock({ seed: 4 }), mock({ seed: 4 })]);
    const first = await call(`${a.url}/store/orders`, 'dynamic=true', {}, a);
    const second = await call(`${b.url}/store/orders`, 'dynamic=true', {}, b);
    expect(first.status).toBe(200);
    expect(Array.isArray(first.body)).toBe(true);
    expect(first.body).toEqual(second.body);
  });

  it('answers generated data in place of a named example that breaks its schema, and warns', async () => {
    const broken = await editedSpec((document) => {
      const media = (
        document.paths!['/categories']!.get!.responses!['200'] as {
          content: Record<string, { examples: Record<string, { value: unknown }> }>;
        }
      ).content['application/json']!;
      media.examples.categories!.value = [{ id: 'one', name: 42 }];
    });
    const running = await mock({ spec: broken });
    const answer = await call(`${running.url}/categories`, 'example=categories');
    expect(answer.status).toBe(200);
    expect(answer.body).not.toEqual([{ id: 'one', name: 42 }]);
    expect(Array.isArray(answer.body)).toBe(true);
    expect(running.warnings).toContainEqual(
      expect.stringMatching(
        /^the example "categories" of the 200 answer of listCategories breaks its schema \(\/0\/id must be an integer.*generated data is answered instead$/,
      ),
    );
  });
});

describe('latency', () => {
  it('Prefer: delay=<ms> delays one answer', async () => {
    const { url } = await mock();
    const started = performance.now();
    // Lower bounds only: no delay can race them, and an in-process answer takes a few ms.
    expect((await call(`${url}/categories`, 'delay=150')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('a run-wide delay range delays every answer, errors included', async () => {
    const running = await mock({ delayMs: { min: 100, max: 120 } });
    for (const headers of [AUTH, {}]) {
      const started = performance.now();
      await running.fetch(`${running.url}/categories`, { headers });
      expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    }
  });
});

describe('faults', () => {
  it('fault=reset resets the connection', async () => {
    const { url } = await served();
    const failure = await fetch(`${url}/categories`, {
      headers: { ...AUTH, Prefer: 'fault=reset' },
    }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as { cause?: { code?: string } }).cause?.code)).toMatch(
      /ECONNRESET|UND_ERR_SOCKET/,
    );
  });

  it('fault=timeout answers nothing, and closes the connection after the bound', async () => {
    const { url } = await served({ faultTimeoutSeconds: 0.15 });
    const started = performance.now();
    const failure = await fetch(`${url}/categories`, {
      headers: { ...AUTH, Prefer: 'fault=timeout' },
    }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('fault=malformed answers the success status with a body that is not JSON', async () => {
    const { url } = await mock();
    const answer = await call(`${url}/categories`, 'fault=malformed');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(() => JSON.parse(answer.text)).toThrow();
  });

  it('a fault rate injects faults at random, the same ones for the same seed', async () => {
    const outcomes = async (seed: number) => {
      const { url } = await mock({
        seed,
        faultRate: 0.5,
        faultKinds: ['malformed'],
      });
      const seen: string[] = [];
      for (let i = 0; i < 20; i++) {
        const { body } = await call(`${url}/categories`);
        seen.push(body === undefined ? 'fault' : 'ok');
      }
      return seen;
    };
    const first = await outcomes(9);
    expect(first).toContain('fault');
    expect(first).toContain('ok');
    expect(await outcomes(9)).toEqual(first);
  });

  it('the admin API sets latency and faults for a run, and its reset restores them', async () => {
    const running = await mock();
    const admin = running.url.replace(/\/v1$/, '/__mock');
    const set = await call(`${admin}/settings`, undefined, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ faultRate: 1, faultKinds: ['malformed'] }),
    });
    expect(set).toMatchObject({ status: 200, body: { faultRate: 1, faultKinds: ['malformed'] } });
    expect((await call(`${running.url}/categories`)).body).toBeUndefined();
    const refused = await call(`${admin}/settings`, undefined, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ delay: { min: 500, max: 100 } }),
    });
    expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_settings' } });
    await running.fetch(`${admin}/reset`, { method: 'POST', headers: AUTH });
    expect((await call(`${admin}/settings`)).body).toEqual({
      delay: { min: 0, max: 0 },
      faultRate: 0,
      faultKinds: ['reset', 'timeout', 'malformed'],
    });
    expect(Array.isArray((await call(`${running.url}/categories`)).body)).toBe(true);
  });
});

describe('x-stability', () => {
  const marked = () =>
    editedSpec((document) => {
      Object.assign(document.paths!['/store/orders']!.get!, { 'x-stability': 'beta' });
    });

  it('an experimental or beta operation says so in a header', async () => {
    const { url } = await mock({ spec: await marked() });
    const answer = await call(`${url}/store/orders`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-stability')).toBe('beta');
    expect((await call(`${url}/categories`)).headers.get('x-stability')).toBeNull();
  });

  it('--stability stable refuses it with a 404 that says why', async () => {
    const { url } = await mock({ spec: await marked(), stability: 'stable' });
    const answer = await call(`${url}/store/orders`);
    expect(answer.status).toBe(404);
    expect((answer.body as { message: string }).message).toMatch(
      /x-stability: beta.*--stability stable/,
    );
    expect((await call(`${url}/categories`)).status).toBe(200);
  });

  it('a marker that is not a level stops start-up', async () => {
    const typo = await editedSpec((document) => {
      Object.assign(document.paths!['/store/orders']!.get!, { 'x-stability': 'betta' });
    });
    await expect(inProcessMock({ spec: typo })).rejects.toThrow(SpecError);
  });
});

describe('--watch', () => {
  /** A logger whose lines a test can wait for. */
  function recordingLogger() {
    const lines: string[] = [];
    const logger = createLogger(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    return { logger, lines };
  }

  it('reloads the spec, keeps the data that still fits, and keeps serving through a broken edit', async () => {
    const file = (await editedSpec(() => {})).source;
    const { logger, lines } = recordingLogger();
    const running = await mock({ spec: file, watch: true, logger });
    const created = (
      await call(`${running.url}/categories`, undefined, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"name":"Kept"}',
      })
    ).body as { id: number };

    await addHealth(file);
    await expect
      .poll(async () => (await running.fetch(`${running.url}/health`)).status, { timeout: 15_000 })
      .toBe(200);
    expect((await call(`${running.url}/categories`)).body).toContainEqual(
      expect.objectContaining({ id: created.id, name: 'Kept' }),
    );

    await writeFile(file, 'openapi: 3.1.0\npaths: [broken');
    await expect
      .poll(() => lines.join(''), { timeout: 15_000 })
      .toMatch(/spec not reloaded, the last good one still serves: .*not valid YAML/);
    expect((await running.fetch(`${running.url}/health`)).status).toBe(200);
  });

  it('never destroys data: a stricter spec that records no longer fit is held, naming them', async () => {
    const file = (await editedSpec(() => {})).source;
    const { logger, lines } = recordingLogger();
    const running = await mock({ spec: file, watch: true, logger });
    const long = (
      await call(`${running.url}/categories`, undefined, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'A name far too long for the new rule' }),
      })
    ).body as { id: number };
    const before = (await call(`${running.url}/categories`)).body;

    const original = await readFile(file, 'utf8');
    const document = parse(original) as OpenApiDocument;
    const newCategory = document.components!.schemas!.NewCategory as {
      properties: { name: object };
    };
    newCategory.properties.name = { ...newCategory.properties.name, maxLength: 20 };
    await writeFile(file, stringify(document));
    await expect
      .poll(() => lines.join(''), { timeout: 15_000 })
      .toMatch(
        new RegExp(
          `spec not reloaded, the last good one still serves: it no longer fits 1 record of categories \\(id ${long.id}: .*20 characters\\), and every record is kept`,
        ),
      );
    // Nothing deleted, nothing reseeded: the same records, the old spec still serving them.
    expect((await call(`${running.url}/categories`)).body).toEqual(before);

    // Relaxed again (or the record changed), the next save reloads, with the record still there.
    document.paths!['/health'] = {
      get: {
        operationId: 'health',
        security: [],
        responses: {
          '200': { description: 'Up.', content: { 'application/json': { example: { up: true } } } },
        },
      },
    };
    newCategory.properties.name = { ...newCategory.properties.name, maxLength: 100 };
    await writeFile(file, stringify(document));
    await expect
      .poll(async () => (await running.fetch(`${running.url}/health`)).status, { timeout: 15_000 })
      .toBe(200);
    expect((await call(`${running.url}/categories`)).body).toEqual(before);
  });
});

describe('request logs', () => {
  it('read well in a terminal: one plain line per request, no JSON', async () => {
    const { logger, text } = capturedLogger({ pretty: true });
    const { url } = await served({ logger, logRequests: true });
    await call(`${url}/categories`, undefined, {}, { fetch });
    await expect.poll(text, { timeout: 10_000 }).toMatch(/INFO.*GET \/v1\/categories 200 [\d.]+ms/);
    expect(text()).not.toMatch(/^\{/m);
  });
});
