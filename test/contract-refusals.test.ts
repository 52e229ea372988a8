// A documented refusal of a request the suite composed is no violation (issue 44, false-alarm
// class 1): the suite orders values as their names say, tries again with the values the
// server lists, and where the server still refuses, the rule is not judged, never failed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { orderByNames, pairsByName } from '../contract-tests/ordered-values.js';
import type { PlanOperation } from '../contract-tests/plan.js';
import type { Exchange } from '../contract-tests/http.js';
import { createKit } from '../contract-tests/kit.js';
import {
  betterBodies,
  collectValues,
  isDocumentedRefusal,
  notJudgedIfRefused,
} from '../contract-tests/refusals.js';
import { specOf } from '../contract-tests/spec.js';
import type { RuleContext } from '../contract-tests/rule.js';
import { contractRules } from '../contract-tests/rules.js';
import { sampleBody } from '../contract-tests/samples.js';
import { targetFromSettings } from '../contract-tests/target.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { loadSpec } from '../src/openapi/load.js';
import { ruleOutcomes, serveOnFreePort, type Served } from './contract-helpers.js';

const WINDOWS = fileURLToPath(new URL('./fixtures/specs/windows.yaml', import.meta.url));

/**
 * The windows service of windows.yaml, as a careful implementation: the kinds it knows listed
 * at GET /kinds, a window of another kind refused with the 501 it documents, one that does not
 * end after it starts, or is over already, with the documented 400.
 */
function windowsServer(kinds: string[]) {
  const windows: Record<string, unknown>[] = [];
  return async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const path = (req.url ?? '').split('?')[0]!.replace(/^\/v1/, '');
    if (req.method === 'GET' && path === '/kinds')
      return send(
        200,
        kinds.map((kind) => ({ kind, title: `${kind} window` })),
      );
    if (req.method === 'GET' && path === '/windows') return send(200, windows);
    const item = /^\/windows\/(\d+)$/.exec(path);
    if (req.method === 'GET' && item) {
      const found = windows.find((window) => window.id === Number(item[1]));
      return found ? send(200, found) : send(404, { message: 'no such window' });
    }
    if (req.method !== 'POST' || path !== '/windows') return send(404, { message: 'not found' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return send(400, { message: 'not JSON' });
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return send(400, { message: 'not an object' });
    const { kind, startsAt, endsAt, comment } = body;
    if (typeof kind !== 'string' || typeof startsAt !== 'string' || typeof endsAt !== 'string')
      return send(400, { message: 'kind, startsAt and endsAt are required texts' });
    if (comment !== undefined && typeof comment !== 'string')
      return send(400, { message: 'comment is a text' });
    const start = Date.parse(startsAt);
    const end = Date.parse(endsAt);
    if (Number.isNaN(start) || Number.isNaN(end)) return send(400, { message: 'not dates' });
    if (end <= start) return send(400, { message: 'a window ends after it starts' });
    if (end <= Date.now()) return send(400, { message: 'that window is over' });
    if (!kinds.includes(kind)) return send(501, { message: `no kind ${kind} here` });
    const window = { ...body, id: windows.length + 1 };
    windows.push(window);
    return send(201, window);
  };
}

let served: Served | undefined;
afterEach(() => served?.close());

async function outcomesAgainst(kinds: string[], name: RegExp) {
  const handle = windowsServer(kinds);
  served = await serveOnFreePort((req, res) => void handle(req, res));
  const target = targetFromSettings({
    baseUrl: served.url,
    seed: 7,
    budget: 0,
    timeoutMs: 10_000,
    replay: '',
  });
  const rules = contractRules(buildContractPlan((await loadSpec(WINDOWS)).resolved), target);
  const ctx: RuleContext = { target, advise: () => undefined, circuit: {}, memo: new Map() };
  return ruleOutcomes(rules, ctx, name);
}

describe('a documented refusal of a request the suite composed', () => {
  it('is met with a window that ends after it starts, ahead of now, of a kind the server lists', async () => {
    const found = await outcomesAgainst(
      ['maintenance', 'outage'],
      /^(createWindow: a valid body gets 201|createWindow: each create|getWindow: )/,
    );
    expect(Object.keys(found).length).toBeGreaterThan(2);
    for (const [rule, outcome] of Object.entries(found))
      expect(outcome, rule).toMatch(/^passed$|^RuleSkipped/);
    expect(Object.values(found)).toContain('passed');
  });

  it('leaves the rule not judged, with why, where the server refuses every body the suite can compose', async () => {
    const found = await outcomesAgainst([], /^(createWindow: a valid body gets 201|getWindow: )/);
    const outcomes = Object.values(found);
    expect(outcomes.filter((outcome) => outcome.startsWith('ContractViolation'))).toEqual([]);
    expect(outcomes).toContainEqual(
      expect.stringMatching(
        /^NotJudged: createWindow refused each valid body the suite composed \(3: its own, with unique texts, with the required fields only\) with the 501 it documents \(\{"message":"no kind .*"\}\): no record of windows/,
      ),
    );
  });
});

describe('values ordered as their names say', () => {
  it('pairs fields whose names open and close a range, in any case style', () => {
    expect(pairsByName(['startsAt', 'endsAt', 'comment'])).toEqual([['startsAt', 'endsAt']]);
    expect(pairsByName(['min_price', 'max_price', 'valid_from', 'valid_until'])).toEqual([
      ['min_price', 'max_price'],
      ['valid_from', 'valid_until'],
    ]);
    expect(pairsByName(['StartDate', 'EndDate'])).toEqual([['StartDate', 'EndDate']]);
    expect(pairsByName(['start', 'endpoint'])).toEqual([]);
  });

  it('writes a window of date-times that ends a day after it starts, an hour ahead of now', () => {
    const now = Date.parse('2026-12-06T10:00:00.400Z');
    const body = orderByNames(
      { startsAt: '2024-02-01T12:34:56Z', endsAt: '2024-02-01T12:34:56Z' },
      { startsAt: { format: 'date-time' }, endsAt: { format: 'date-time' } },
      0,
      now,
    );
    expect(body).toEqual({ startsAt: '2026-12-06T11:00:00Z', endsAt: '2026-12-07T11:00:00Z' });
  });

  it('puts the larger of two bounds second, within its maximum', () => {
    expect(
      orderByNames({ minPrice: 1, maxPrice: 1 }, { minPrice: {}, maxPrice: { type: 'integer' } }),
    ).toEqual({ minPrice: 1, maxPrice: 2 });
    expect(
      orderByNames(
        { minPrice: 5, maxPrice: 5 },
        { minPrice: {}, maxPrice: { type: 'integer', maximum: 5 } },
      ),
    ).toEqual({ minPrice: 4, maxPrice: 5 });
  });

  it('is how sampled bodies come: the description’s window is no longer empty', () => {
    const body = sampleBody(windowSchema(), 'contract-x') as Record<string, string>;
    expect(Date.parse(body.endsAt!)).toBeGreaterThan(Date.parse(body.startsAt!));
    expect(Date.parse(body.startsAt!)).toBeGreaterThan(Date.now());
  });
});

describe('the better values of a retry', () => {
  const create = {
    responses: { '201': {}, '400': {}, '501': {}, default: {} },
  } as unknown as PlanOperation;

  it('follow only refusals the operation documents by status, about the values sent', () => {
    expect(isDocumentedRefusal(create, 400)).toBe(true);
    expect(isDocumentedRefusal(create, 501)).toBe(true);
    expect(isDocumentedRefusal(create, 500)).toBe(false); // only under default
    expect(isDocumentedRefusal(create, 201)).toBe(false);
    expect(isDocumentedRefusal({ responses: { '401': {} } } as unknown as PlanOperation, 401)).toBe(
      false,
    );
  });

  it('are unique texts, then the values the server lists for fields of that name, then the required fields', () => {
    const listed = new Map<string, unknown[]>();
    collectValues({ default: 'python3', kernelspecs: { python3: { name: 'python3' } } }, listed);
    collectValues([{ id: 'k-1', name: 'python3' }], listed);
    expect(listed.get('name')).toEqual(['python3']);
    const tries = betterBodies(
      {
        id: 'contract-x key 1',
        path: 'contract-x path',
        kernel: { id: 'u', name: 'contract-x name' },
      },
      {
        schema: {
          type: 'object',
          required: ['path'],
          properties: {
            id: { type: 'string' },
            path: { type: 'string' },
            kernel: {
              type: 'object',
              properties: { id: { type: 'string' }, name: { type: 'string' } },
            },
          },
        },
        label: 'contract-x',
        listed,
        fits: () => true,
        kept: new Set(['id']),
        mayDrop: true,
      },
    );
    expect(tries).toHaveLength(3);
    expect(tries.map(({ what }) => what)).toEqual([
      'with unique texts',
      "with the values the server lists and the spec's examples",
      'with the required fields only',
    ]);
    const [unique, fromServer, requiredOnly] = tries.map(({ body }) => body) as Record<
      string,
      Record<string, unknown>
    >[];
    expect(unique!.id).toBe('contract-x key 1'); // the record's key stays
    expect(unique!.path).toMatch(/^contract-x path [0-9a-f]{6}$/);
    expect(fromServer!.kernel).toEqual({ id: 'u', name: 'python3' }); // an id is never borrowed
    expect(Object.keys(requiredOnly!)).toEqual(['path']); // an optional key made up is left out
  });
});

/** NewWindow of windows.yaml. */
function windowSchema() {
  return {
    type: 'object',
    required: ['kind', 'startsAt', 'endsAt'],
    properties: {
      kind: { type: 'string' },
      startsAt: { type: 'string', format: 'date-time' },
      endsAt: { type: 'string', format: 'date-time' },
    },
  };
}

describe('an answer the rule does not expect', () => {
  const exchange = (status: number, text: string): Exchange => ({
    request: { method: 'post', path: '/windows', url: 'http://127.0.0.1/v1/windows', headers: {} },
    status,
    headers: {},
    text,
    json: undefined,
    retries: [],
  });
  const success = { label: '201', accepts: (status: number) => status === 201 };
  const create = {
    operationId: 'createWindow',
    responses: { '201': {}, '404': {}, default: {} },
  } as unknown as PlanOperation;

  it('leaves the rule not judged where the operation documents it as a refusal', () => {
    expect(() => notJudgedIfRefused(create, exchange(404, '"silence not found"'), success)).toThrow(
      expect.objectContaining({
        name: 'NotJudged',
        message:
          'createWindow answered a request the suite composed with the 404 it documents, where the rule looks for 201: the server refused a value the suite made up ("silence not found")',
      }),
    );
  });

  it('stays the rule’s to judge where it is undocumented, or what the rule expects', () => {
    expect(() => notJudgedIfRefused(create, exchange(500, ''), success)).not.toThrow();
    expect(() => notJudgedIfRefused(create, exchange(201, '{}'), success)).not.toThrow();
  });
});

describe('the id of a created record', () => {
  it('is read under the name its item path gives it, or as the one field of the answer, where the record’s own id is absent', async () => {
    const plan = buildContractPlan((await loadSpec(WINDOWS)).resolved);
    const kit = createKit(specOf(plan), 'contract-x');
    const windows = kit.collections.find((collection) => collection.plan.name === 'windows')!;
    const answer: Exchange = {
      request: {
        method: 'post',
        path: '/windows',
        url: 'http://127.0.0.1/v1/windows',
        headers: {},
      },
      status: 201,
      headers: {},
      text: '{"windowId":12}',
      json: { windowId: 12 },
      retries: [],
    };
    expect(kit.createdId(windows, answer)).toBe(12);
    const alone = { ...answer, text: '{"silenceID":"s-1"}', json: { silenceID: 's-1' } };
    expect(kit.createdId(windows, alone)).toBe('s-1');
  });
});
