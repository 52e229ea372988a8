// Every version of OpenAPI a team may have: Swagger 2.0 (upgraded), 3.0 (read as 3.0 means its
// keywords), 3.1, and 3.2; and the 3.0 keywords a 3.1 document keeps by mistake.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { inProcessMock, type InProcessMock } from './in-process.js';
import { tempFolder } from './temp-folders.js';

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/specs/${name}`, import.meta.url));

const started: InProcessMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

async function mock(name: string): Promise<InProcessMock> {
  const running = await inProcessMock({ spec: fixture(name), seedCount: 2 });
  started.push(running);
  return running;
}

async function send(
  mock: InProcessMock,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> & { message?: string } }> {
  const res = await mock.fetch(`${mock.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('Swagger 2.0', () => {
  it('is upgraded and served: its base path, body parameter, definitions and x-nullable', async () => {
    const spec = await loadSpec(fixture('swagger2.yaml'), { checkCache: false });
    expect(spec.version).toBe('2.0');
    expect(spec.resolved.openapi).toBe('3.1.1');
    expect(spec.warnings).toEqual([]);

    const kennel = await mock('swagger2.yaml');
    expect(kennel.url).toMatch(/\/v2$/);
    const created = await send(kennel, 'POST', '/dogs', { name: 'Rex', nickname: null });
    expect(created).toMatchObject({ status: 201, body: { name: 'Rex', nickname: null } });
    const read = await send(kennel, 'GET', `/dogs/${String(created.body.id)}`);
    expect(read).toMatchObject({ status: 200, body: created.body });
    expect((await send(kennel, 'GET', '/dogs')).status).toBe(200);
  });

  it('reads swagger: 2.0 written unquoted (a YAML number), with a warning', async () => {
    const folder = await tempFolder('swagger');
    const path = join(folder, 'swagger.yaml');
    const text = await readFile(fixture('swagger2.yaml'), 'utf8');
    await writeFile(path, text.replace("swagger: '2.0'", 'swagger: 2.0'));
    const spec = await loadSpec(path, { checkCache: false });
    expect(spec).toMatchObject({ version: '2.0', resolved: { openapi: '3.1.1' } });
    expect(spec.warnings).toEqual([expect.stringMatching(/^swagger: 2\.0 is a number here/)]);
  });

  it('checks requests as the 2.0 document says: required body fields, exclusive minimum', async () => {
    const kennel = await mock('swagger2.yaml');
    const nameless = await send(kennel, 'POST', '/dogs', { nickname: 'x' });
    expect(nameless.status).toBe(400);
    expect(nameless.body.message).toMatch(/required property 'name'/);
    const weightless = await send(kennel, 'POST', '/dogs', { name: 'Rex', weight: 0 });
    expect(weightless.status).toBe(400);
    expect(weightless.body.message).toMatch(/weight must be > 0/);
  });
});

describe('OpenAPI 3.0', () => {
  it('reads nullable, boolean exclusive bounds and $ref siblings as 3.0 means them', async () => {
    const spec = await loadSpec(fixture('nullable-30.yaml'), { checkCache: false });
    expect(spec.version).toBe('3.0');
    // A 3.0 document is read as 3.0: its keywords are not defects.
    expect(spec.warnings).toEqual([]);

    const station = await mock('nullable-30.yaml');
    const cases: [unknown, number, RegExp?][] = [
      [{ celsius: null }, 201],
      [{ celsius: -89.5, station: null }, 201],
      [{ celsius: -90 }, 400, /celsius must be > -90/],
      [{ celsius: 20, humidity: 100 }, 400, /humidity must be < 100/],
      [{ celsius: 20, humidity: 99, station: { name: 'Halley' } }, 201],
      [{ celsius: 20, note: null }, 400, /note must be a string/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await send(station, 'POST', '/readings', body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      if (message) expect(answer.body.message).toMatch(message);
    }
  });

  it("answers a schema's example, as 3.0 writes it (example, singular)", async () => {
    const station = await mock('nullable-30.yaml');
    expect(await send(station, 'GET', '/station')).toEqual({
      status: 200,
      body: { name: 'Vostok' },
    });
  });
});

describe('OpenAPI 3.1 with 3.0 keywords left in', () => {
  it('reads them as 3.0 meant them, with one warning for each keyword', async () => {
    const spec = await loadSpec(fixture('leftovers-31.yaml'), { checkCache: false });
    expect(spec.warnings).toEqual([
      expect.stringMatching(
        /^boolean exclusiveMaximum is an OpenAPI 3\.0 keyword, found once in this 3\.1 document \(first at #\/components\/schemas\/Parcel\/properties\/kilograms\).*the maximum is exclusive$/,
      ),
      expect.stringMatching(/^nullable is an OpenAPI 3\.0 keyword, found once .*may also be null$/),
    ]);

    const parcels = await mock('leftovers-31.yaml');
    expect(parcels.warnings).toEqual(spec.warnings);
    expect(
      (await send(parcels, 'POST', '/parcels', { kilograms: 2, recipient: null })).status,
    ).toBe(201);
    const heavy = await send(parcels, 'POST', '/parcels', { kilograms: 30 });
    expect(heavy.status).toBe(400);
    expect(heavy.body.message).toMatch(/kilograms must be < 30/);
  });
});

describe('OpenAPI 3.2', () => {
  it('is served as 3.1 is, its QUERY operations included (test/openapi-32.test.ts)', async () => {
    const spec = await loadSpec(fixture('openapi-32.yaml'), { checkCache: false });
    expect(spec.version).toBe('3.2');
    expect(spec.warnings).toEqual([]);
    const notes = await mock('openapi-32.yaml');
    expect(await send(notes, 'POST', '/notes', { text: 'hello' })).toMatchObject({
      status: 201,
      body: { text: 'hello' },
    });
    expect((await send(notes, 'POST', '/notes', { text: '' })).status).toBe(400);
  });
});
