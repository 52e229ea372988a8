// The false alarms the contract suite raised against the mock serving the classic Swagger
// Petstore (OpenAPI 3.1 edition), one class each: the mock behaves as a careful
// implementation, so each rule named here must pass, the description's gaps told as advice.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../contract-tests/http.js';
import { createKit } from '../contract-tests/kit.js';
import { queryPairs, styledText } from '../contract-tests/parameter-style.js';
import type { ContractPlan, Schema } from '../contract-tests/plan.js';
import { invalidBodies } from '../contract-tests/bodies.js';
import { sampleValue } from '../contract-tests/samples.js';
import { specOf } from '../contract-tests/spec.js';
import type { Rule, RuleContext } from '../contract-tests/rule.js';
import { contractRules } from '../contract-tests/rules.js';
import { targetFromSettings } from '../contract-tests/target.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { loadSpec } from '../src/openapi/load.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { allPassed, ruleOutcomes } from './contract-helpers.js';
import { KEY, QUICK_SHUTDOWN } from './helpers.js';
import { tempFolderSync } from './temp-folders.js';

const PETSTORE = fileURLToPath(
  new URL('./fixtures/corpus/petstore-openapi31/petstore.yaml', import.meta.url),
);

let mock: RunningMock;
let rules: Rule[];
let ctx: RuleContext;
let advice: Set<string>;

beforeAll(async () => {
  mock = await startMock({ ...QUICK_SHUTDOWN, spec: PETSTORE, port: 0, apiKeys: [KEY], seed: 1 });
  const target = targetFromSettings({
    baseUrl: mock.url,
    token: KEY,
    seed: 7,
    budget: 0,
    timeoutMs: 10_000,
    replay: '',
  });
  rules = contractRules(buildContractPlan((await loadSpec(PETSTORE)).resolved), target);
  advice = new Set();
  ctx = { target, advise: (text) => advice.add(text), circuit: {}, memo: new Map() };
});
afterAll(() => mock.close());

const outcomes = (name: RegExp) => ruleOutcomes(rules, ctx, name);

describe('the contract suite against the mock of the classic Petstore', () => {
  it('takes the 2xx of an operation that documents no success (addPet: only 405) as the description’s gap', async () => {
    const found = await outcomes(/^addPet: (a valid body gets|each create gets a new id)/);
    expect(found).toEqual(allPassed(found));
    expect([...advice]).toContainEqual(
      expect.stringMatching(/the spec documents no success answer for addPet/),
    );
  });

  it('chooses each key a client chooses anew for each create (an order `id`, a `username`), never one the service holds', async () => {
    const found = await outcomes(
      /^(placeOrder|createUser): (a valid body|each create)|^createUser: a body with unknown/,
    );
    expect(found).toEqual(allPassed(found));
  });

  it('keeps the key of a replace body equal to the path’s: a changed `username` would move the record', async () => {
    const found = await outcomes(/^updateUser: /);
    expect(found).toEqual(allPassed(found));
  });

  it('sends a query array as its style says (`status=available&status=sold`), not as JSON text', async () => {
    const found = await outcomes(/^findPetsByStatus: answers 200/);
    expect(found).toEqual(allPassed(found));
  });

  it('skips, as the description’s gap, a read of a record whose key the read’s own parameter refuses', async () => {
    // placeOrder takes any `id`; getOrderById's `orderId` only 1 to 10, all held already.
    const found = await outcomes(/^getOrderById: a record just created reads back/);
    expect(Object.values(found)).toEqual([
      expect.stringMatching(
        /^RuleSkipped: the record's orderId \d+ breaks the schema getOrderById gives `orderId` \(it must be <= 10\).*the description's gap/,
      ),
    ]);
  });

  it('is refused an empty `username` (no path could name that record), never given another', async () => {
    const found = await outcomes(/^createUser: a `username` that is empty/);
    expect(found).toEqual(allPassed(found));
    const answer = await fetch(`${mock.url}/user`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: '' }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      message: expect.stringMatching(/username is empty/),
    });
  });

  it('names a record a create made without the key (a `firstName` alone) by the Location it answered', async () => {
    const found = await outcomes(/^createUser: a `firstName` /);
    expect(found).toEqual(allPassed(found));
  });
});

describe('the contract suite against the mock of Scalar’s Galaxy', () => {
  const GALAXY = fileURLToPath(
    new URL('./fixtures/corpus/scalar-galaxy/3.1.yaml', import.meta.url),
  );

  it('sends a parameter rule’s body in the operation’s own media type (uploadImage: multipart only)', async () => {
    const galaxy = await startMock({
      ...QUICK_SHUTDOWN,
      spec: GALAXY,
      port: 0,
      apiKeys: [KEY],
      seed: 1,
    });
    try {
      const target = targetFromSettings({
        baseUrl: galaxy.url,
        token: KEY,
        seed: 7,
        budget: 0,
        timeoutMs: 10_000,
        replay: '',
      });
      const plan = buildContractPlan((await loadSpec(GALAXY)).resolved);
      const rule = contractRules(plan, target).find((one) =>
        /^uploadImage: `planetId` in the path breaking its schema/.test(one.name),
      )!;
      const seen: number[] = [];
      await rule.check({
        target,
        advise: () => {},
        circuit: {},
        memo: new Map(),
        seen: (operationId, status) => {
          if (operationId === 'uploadImage') seen.push(status);
        },
      });
      // Refused for the parameter, not for a JSON body the operation never takes (415).
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.filter((status) => status === 415)).toEqual([]);
    } finally {
      await galaxy.close();
    }
  });
});

describe('parameters written as their style says', () => {
  const query = { name: 'status', in: 'query' } as const;
  const path = { name: 'ids', in: 'path' } as const;

  it.each([
    {
      parameter: query,
      value: ['available', 'sold'],
      pairs: [
        ['status', 'available'],
        ['status', 'sold'],
      ],
    },
    { parameter: { ...query, explode: false }, value: [3, 4], pairs: [['status', '3,4']] },
    {
      parameter: { ...query, style: 'pipeDelimited', explode: false },
      value: [3, 4],
      pairs: [['status', '3|4']],
    },
    {
      parameter: { ...query, style: 'spaceDelimited', explode: false },
      value: [3, 4],
      pairs: [['status', '3 4']],
    },
    {
      parameter: { ...query, style: 'deepObject', explode: true },
      value: { a: 1 },
      pairs: [['status[a]', '1']],
    },
    {
      parameter: query,
      value: { a: 1, b: 'x' },
      pairs: [
        ['a', '1'],
        ['b', 'x'],
      ],
    },
    { parameter: query, value: 7, pairs: [['status', '7']] },
    { parameter: { ...query, json: true }, value: { a: 1 }, pairs: [['status', '{"a":1}']] },
  ])('query $parameter.style $parameter.explode: $value', ({ parameter, value, pairs }) => {
    expect(queryPairs(parameter, value)).toEqual(pairs);
  });

  it.each([
    { parameter: path, value: [3, 4], text: '3,4' },
    { parameter: path, value: 'a b', text: 'a%20b' },
    { parameter: { ...path, explode: true }, value: { a: 1, b: 2 }, text: 'a=1,b=2' },
    { parameter: { ...path, style: 'label' }, value: [3, 4], text: '.3,4' },
    { parameter: { ...path, style: 'label', explode: true }, value: [3, 4], text: '.3.4' },
    { parameter: { ...path, style: 'matrix' }, value: [3, 4], text: ';ids=3,4' },
    { parameter: { ...path, style: 'matrix', explode: true }, value: [3, 4], text: ';ids=3;ids=4' },
  ])('path $parameter.style $parameter.explode: $value', ({ parameter, value, text }) => {
    expect(styledText(parameter, value, encodeURIComponent)).toBe(text);
  });
});

/** A service whose creates answer the new id alone, and whose reads show fewer fields than a create takes. */
const THINGS = `
openapi: 3.1.0
info: { title: things, version: '1' }
servers: [{ url: /api }]
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: the things
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/ThingView' } }
    post:
      operationId: createThing
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewThing' }
      responses:
        '201':
          description: the id of the new thing
          content:
            application/json:
              schema: { type: string, example: the-example-id }
  /things/{thingId}:
    get:
      operationId: getThing
      parameters:
        - { name: thingId, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: the thing
          content:
            application/json:
              schema: { $ref: '#/components/schemas/ThingView' }
        '404': { description: no such thing }
components:
  schemas:
    NewThing:
      type: object
      required: [name]
      properties:
        name: { type: string }
        note: { type: string }
    ThingView:
      type: object
      required: [id, name]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string }
`;

describe('the contract suite against a mock whose creates answer the new id alone (as Dialogporten’s)', () => {
  it('gets the new record’s id from the mock, and reads the record back instead of comparing the id with the body', async () => {
    const dir = tempFolderSync('things');
    const spec = join(dir, 'things.yaml');
    writeFileSync(spec, THINGS);
    const things = await startMock({ ...QUICK_SHUTDOWN, spec, port: 0, apiKeys: [KEY], seed: 1 });
    try {
      const answer = await fetch(`${things.url}/things`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'a thing', note: 'kept, never shown' }),
      });
      expect(answer.status).toBe(201);
      const id = (await answer.json()) as string;
      expect(id).not.toBe('the-example-id');
      expect((await fetch(`${things.url}/things/${encodeURIComponent(id)}`)).status).toBe(200);

      const target = targetFromSettings({
        baseUrl: things.url,
        token: KEY,
        seed: 7,
        budget: 0,
        timeoutMs: 10_000,
        replay: '',
      });
      const plan = buildContractPlan((await loadSpec(spec)).resolved);
      const chosen = contractRules(plan, target).filter((rule) =>
        /^createThing: (a valid body gets|each create)|^listThings: /.test(rule.name),
      );
      expect(chosen.length).toBeGreaterThan(2);
      const context = { target, advise: () => {}, circuit: {}, memo: new Map() };
      const found: Record<string, string> = {};
      for (const rule of chosen)
        found[rule.name] = await rule.check(context).then(
          () => 'passed',
          (err: Error) => `${err.name}: ${err.message.slice(0, 600)}`,
        );
      expect(found).toEqual(allPassed(found));
    } finally {
      await things.close();
    }
  });
});

describe('what Mojaloop’s description asked of the suite', () => {
  let things: ContractPlan;
  beforeAll(async () => {
    things = await planOf(THINGS);
  });
  const withHeader = (): ContractPlan => {
    const plan = structuredClone(things);
    const create = plan.operations.find((op) => op.operationId === 'createThing')!;
    create.parameters.push({
      name: 'content-length',
      in: 'header',
      required: false,
      schema: { type: 'integer' },
    });
    return plan;
  };

  it('writes no pattern it cannot sample as a crash: a lookahead gives up on the pattern, not the run', () => {
    expect(() =>
      sampleValue({ type: 'string', pattern: '^(?=.*[1-9])\\d{1,18}$' }, 'contract-x amount'),
    ).not.toThrow();
  });

  it('never sends a documented `Content-Length` itself, nor breaks it: HTTP frames the message', () => {
    const target = targetFromSettings({
      baseUrl: 'http://127.0.0.1:9/api',
      token: KEY,
      seed: 1,
      budget: 0,
      timeoutMs: 100,
      replay: '',
    });
    const names = contractRules(withHeader(), target).map((rule) => rule.name);
    expect(names.filter((name) => /content-length/i.test(name))).toEqual([]);
  });

  it('sends no invalid body past a megabyte (10,001 parties test a size limit, not `maxItems`)', () => {
    const parties = (maxItems: number): Schema => ({
      type: 'object',
      properties: {
        partyList: { type: 'array', maxItems, items: { type: 'string', minLength: 200 } },
      },
    });
    const valid = { partyList: ['p'.repeat(200)] };
    const options = { label: 'contract-x', bodyRequired: true, breaks: () => true };
    const whats = (maxItems: number) =>
      invalidBodies(parties(maxItems), valid, options).map(({ what }) => what);
    expect(whats(3)).toContainEqual(expect.stringMatching(/more items than its maxItems \(3\)/));
    expect(whats(10_000)).not.toContainEqual(expect.stringMatching(/more items than its maxItems/));
  });

  it('takes a 413 to a body past a megabyte as a size limit the spec does not document, not a wrong status', () => {
    const kit = createKit(specOf(withHeader()), 'contract-x');
    const create = kit.plan.operations.find((op) => op.operationId === 'createThing')!;
    const told: string[] = [];
    const exchange: Exchange = {
      request: {
        method: 'post',
        path: '/things',
        url: 'http://127.0.0.1:9/api/things',
        headers: {},
        body: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
      },
      status: 413,
      headers: { 'content-type': 'application/json' },
      text: '{"message":"too large"}',
      json: { message: 'too large' },
      retries: [],
    };
    const ctx = { target: { baseUrl: '', timeoutMs: 1 }, advise: (t: string) => told.push(t) };
    const refused = { label: '400', accepts: (status: number) => status === 400 };
    expect(() =>
      kit.conforms(ctx as unknown as RuleContext, exchange, create, refused),
    ).not.toThrow();
    expect(told).toEqual([expect.stringMatching(/refused a body of \d+ bytes with 413/)]);
    // A small body is judged as before.
    const small = { ...exchange, request: { ...exchange.request, body: '{}' } };
    expect(() => kit.conforms(ctx as unknown as RuleContext, small, create, refused)).toThrow(
      /413 answers where the spec wants 400/,
    );
  });
});

async function planOf(yaml: string): Promise<ContractPlan> {
  const spec = join(tempFolderSync('plan'), 'spec.yaml');
  writeFileSync(spec, yaml);
  return buildContractPlan((await loadSpec(spec)).resolved);
}
