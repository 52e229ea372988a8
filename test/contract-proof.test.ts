// Proof that the contract suite is worth running: it passes our mock and every correct
// server we can think of, and it catches every faulty one, for the right reason.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractRules } from '../contract-tests/rules.js';
import { loadContractSpec, type ContractSpec } from '../contract-tests/spec.js';
import type { ContractTarget } from '../contract-tests/target.js';
import { createApp } from '../src/wiring/create-app.js';
import { loadSpec } from '../src/openapi/load.js';
import { animalKinds, seededFaker } from '../src/openapi/realistic.js';
import { categoriesServer, type ServerBehaviour } from './fixtures/categories-server.js';
import { CATEGORIES, categoryStore } from './helpers.js';

const KEY = 'proof-key';
/** Generated bodies: few, from a fixed seed, so that the proof is fast and repeatable. */
const GENERATED = { seed: 20261122, budget: 30 };

/** Each with one realistic defect, and the rule that must catch it. */
const FAULTY: { fault: string; behaviour: Partial<ServerBehaviour>; caughtBy: RegExp }[] = [
  {
    fault: 'create answers 200 instead of 201',
    behaviour: { createStatus: 200 },
    caughtBy: /rule 4: a valid body gets 201/,
  },
  {
    fault: 'no required-field check',
    behaviour: { checkName: false },
    caughtBy: /rule 1: a body without `name`/,
  },
  {
    fault: 'wrong types accepted',
    behaviour: { checkTypes: false },
    caughtBy: /`name` given a number/,
  },
  {
    fault: 'null accepted for name and description',
    behaviour: { allowNull: true },
    caughtBy: /`name` given null/,
  },
  {
    fault: 'description not type-checked',
    behaviour: { checkDescription: false },
    caughtBy: /`description` given a number/,
  },
  {
    fault: 'token checked for presence only',
    behaviour: { auth: 'presence' },
    caughtBy: /an invalid API key gets 401/,
  },
  {
    fault: 'non-bearer scheme accepted',
    behaviour: { auth: 'any-scheme' },
    caughtBy: /the valid key under the Basic scheme/,
  },
  {
    fault: '400 answered before 401',
    behaviour: { validateBeforeAuth: true },
    caughtBy: /gets 401 even with/,
  },
  {
    fault: 'error without status',
    behaviour: { errorBody: (_status, code, message) => ({ code, message }) },
    caughtBy: /gets 400 with an Error body/,
  },
  {
    fault: 'error status differs from the HTTP status',
    behaviour: {
      errorBody: (status, code, message) => ({
        code,
        message,
        status: status === 401 ? 403 : status,
      }),
    },
    caughtBy: /gets 401 with an Error body/,
  },
  {
    fault: 'error without code',
    behaviour: { errorBody: (status, _code, message) => ({ message, status }) },
    caughtBy: /gets 400/,
  },
  {
    fault: 'error as plain text, not JSON',
    behaviour: { errorAsText: true },
    caughtBy: /gets 401 with an Error body/,
  },
  {
    fault: 'id is a string',
    behaviour: { idAsString: true },
    caughtBy: /rule 4: a valid body gets 201/,
  },
  {
    fault: 'created category without id',
    behaviour: { omitId: true },
    caughtBy: /rule 4: a valid body gets 201/,
  },
  {
    fault: 'description dropped',
    behaviour: { dropDescription: true },
    caughtBy: /echoing every submitted field/,
  },
  {
    fault: 'name not echoed as sent',
    behaviour: { transformName: (name) => name.toUpperCase() },
    caughtBy: /echoing/,
  },
  { fault: 'ids reused', behaviour: { reuseIds: true }, caughtBy: /two creates, two ids/ },
  {
    fault: 'stateless list',
    behaviour: { statelessList: true, preload: 3 },
    caughtBy: /the list holds all categories/,
  },
  {
    fault: 'list truncated to its first 20',
    behaviour: { preload: 30, listLimit: 20 },
    caughtBy: /the list holds all categories/,
  },
  {
    fault: 'list wrapped in an object',
    behaviour: { wrapList: true },
    caughtBy: /listCategories: answers 200 with a JSON array/,
  },
  {
    fault: 'list served as text/html',
    behaviour: { listContentType: 'text/html' },
    caughtBy: /listCategories: answers 200/,
  },
  {
    fault: 'list holds a category that breaks the schema',
    behaviour: { preloadInvalid: true },
    caughtBy: /listCategories: answers 200/,
  },
  {
    fault: 'list open without credential',
    behaviour: { auth: 'list-open' },
    caughtBy: /listCategories rule 3: a missing credential/,
  },
  {
    fault: 'create open without credential',
    behaviour: { auth: 'create-open' },
    caughtBy: /createCategory rule 3: a missing credential gets 401 with/,
  },
  {
    fault: '403 instead of 401 for an unknown key',
    behaviour: { invalidKeyStatus: 403 },
    caughtBy: /an invalid API key gets 401/,
  },
  {
    fault: 'crash (500) on a body that is not an object',
    behaviour: { crashOnNonObject: true },
    caughtBy: /a body that is an array/,
  },
  {
    fault: 'malformed JSON answered with an HTML 500',
    behaviour: { malformedJsonHtml: true },
    caughtBy: /malformed JSON gets 400/,
  },
  {
    fault: 'create answers 201 with an empty body',
    behaviour: { emptyCreateBody: true },
    caughtBy: /rule 4: a valid body gets 201/,
  },
  // Credentials: near-misses of the valid key.
  {
    fault: 'an empty bearer token accepted',
    behaviour: { auth: 'empty-token' },
    caughtBy: /rule 3: an empty bearer token gets 401/,
  },
  {
    fault: 'a token that contains the key accepted',
    behaviour: { auth: 'contains' },
    caughtBy: /rule 3: the key with characters added before/,
  },
  {
    fault: 'a token that extends the key accepted',
    behaviour: { auth: 'extends' },
    caughtBy: /rule 3: the key with characters added after/,
  },
  {
    fault: 'a token compared only as far as it goes (a proper part accepted)',
    behaviour: { auth: 'prefix' },
    caughtBy: /rule 3: a proper part of the key/,
  },
  {
    fault: 'the key compared without letter case',
    behaviour: { auth: 'case-insensitive' },
    caughtBy: /rule 3: the key in other letter case/,
  },
  {
    fault: 'whitespace removed from the token',
    behaviour: { auth: 'whitespace-stripped' },
    caughtBy: /rule 3: the key with whitespace inside it/,
  },
  {
    fault: 'the token trimmed with trim(), a no-break space included',
    behaviour: { auth: 'trimmed' },
    caughtBy: /rule 3: the key with whitespace inside it/,
  },
  // Values a real client sends.
  {
    fault: 'names trimmed',
    behaviour: { transformName: (name) => name.trim() },
    caughtBy: /a `name` with surrounding whitespace/,
  },
  {
    fault: 'names stored trimmed, echoed as sent',
    behaviour: { storeName: (name) => name.trim() },
    caughtBy: /a `name` with surrounding whitespace/,
  },
  {
    fault: 'non-ASCII characters stripped',
    behaviour: { transformText: (text) => text.replace(/[^\x20-\x7e]/g, '') },
    caughtBy: /a `name` in several scripts, with accents/,
  },
  {
    fault: 'long names truncated to 255 characters',
    behaviour: { transformName: (name) => name.slice(0, 255) },
    caughtBy: /a `name` of hundreds to thousands of characters/,
  },
  {
    fault: 'an empty description dropped',
    behaviour: { dropEmptyDescription: true },
    caughtBy: /a `description` that is empty/,
  },
  {
    fault: '500 on long names',
    behaviour: { crashWhen: (body) => body.name.length > 255 },
    caughtBy: /a `name` of hundreds to thousands of characters/,
  },
  {
    fault: '500 on characters outside the BMP',
    behaviour: {
      crashWhen: (body) => /[\u{10000}-\u{10FFFF}]/u.test(`${body.name}${body.description ?? ''}`),
    },
    caughtBy: /a `name` with characters outside the Basic Multilingual Plane/,
  },
  {
    fault: '500 on an unknown extra field',
    behaviour: {
      crashWhen: (body) => Object.keys(body).some((key) => !['name', 'description'].includes(key)),
    },
    caughtBy: /a body with unknown extra fields/,
  },
  // Only generated bodies find these.
  {
    fault: 'markup stripped from text (an HTML sanitizer)',
    behaviour: { transformText: (text) => text.replace(/[<>]/g, '') },
    caughtBy: /generated valid bodies/,
  },
  {
    fault: 'a whole number accepted as a name',
    behaviour: { coerceWholeNumbers: true },
    caughtBy: /generated invalid bodies/,
  },
  // Ids and consistency.
  {
    fault: 'a client-sent id used as the new id',
    behaviour: { useClientId: true },
    caughtBy: /a client-sent `id`/,
  },
  {
    fault: 'ids collide under concurrent creates',
    behaviour: { racyIds: true },
    caughtBy: /concurrent creates get/,
  },
  {
    fault: 'a list read in the last 30 s served again after a create',
    behaviour: { cacheList: true, preload: 2 },
    caughtBy: /on the very next list, whatever was read before/,
  },
];

/** Each conforms while differing from our mock in what the interface leaves open. */
const CORRECT: { difference: string; behaviour: Partial<ServerBehaviour> }[] = [
  { difference: 'a plain reference implementation (ignores a client-sent id)', behaviour: {} },
  { difference: 'preloaded with 500 categories', behaviour: { preload: 500 } },
  { difference: 'large ids', behaviour: { firstId: 4_503_599_627_370_496, preload: 3 } },
  { difference: 'random, non-sequential ids', behaviour: { randomIds: true, preload: 20 } },
  {
    difference: 'extra fields on categories and errors',
    behaviour: { extraFields: true, preload: 2 },
  },
  { difference: 'other error codes', behaviour: { errorCode: (status) => `E${status}-PETSTORE` } },
  { difference: 'newest first', behaviour: { newestFirst: true, preload: 5 } },
  { difference: 'content type without a charset', behaviour: { jsonType: 'application/json' } },
  {
    difference: 'content type with an upper-case charset',
    behaviour: { jsonType: 'application/json;charset=UTF-8' },
  },
  { difference: 'long error messages, no WWW-Authenticate', behaviour: { longMessages: true } },
  {
    difference: 'behind a rate limiter (429 with Retry-After and an Error body)',
    behaviour: { limiter: { status: 429, requests: 120, retryAfter: 1 } },
  },
  {
    difference: 'briefly down for maintenance (503 with Retry-After)',
    behaviour: { limiter: { status: 503, requests: 30, retryAfter: 1, times: 1 } },
  },
  { difference: 'gzip-encoded answers', behaviour: { gzip: true } },
  {
    difference: 'refuses non-ASCII names with a 400 Error',
    behaviour: { refuseWhen: (body) => /[^\x20-\x7e]/.test(body.name) },
  },
  {
    difference: 'refuses descriptions over 200 characters with a 400 Error',
    behaviour: { refuseWhen: (body) => (body.description ?? '').length > 200 },
  },
  {
    difference: 'refuses empty names and descriptions with a 400 Error',
    behaviour: { refuseWhen: (body) => body.name === '' || body.description === '' },
  },
  { difference: 'a list sorted by name', behaviour: { sortByName: true, preload: 5 } },
  { difference: 'connections closed after each answer', behaviour: { closeConnections: true } },
  {
    difference: 'one connection in 25 dropped without an answer',
    behaviour: { dropEvery: 25 },
  },
];

/**
 * The mutation check: with a family of rules disabled, the faults they catch slip through.
 * A family no fault depends on would be dead weight; a fault caught anyway would prove nothing.
 */
const MUTATIONS: { check: string; disabled: RegExp; faults: string[] }[] = [
  {
    check: 'rule 3 (missing and invalid credentials)',
    disabled: /rule 3/,
    faults: [
      'token checked for presence only',
      'non-bearer scheme accepted',
      '400 answered before 401',
      'list open without credential',
      'create open without credential',
      '403 instead of 401 for an unknown key',
    ],
  },
  {
    check: 'the near-miss credentials',
    disabled:
      /an empty bearer token|characters added|a proper part|other letter case|whitespace inside/,
    faults: [
      'an empty bearer token accepted',
      'a token that contains the key accepted',
      'a token that extends the key accepted',
      'a token compared only as far as it goes (a proper part accepted)',
      'the key compared without letter case',
      'whitespace removed from the token',
    ],
  },
  {
    check: 'the realistic values and the generated valid bodies',
    disabled: /rule 4: a `(name|description)`|generated valid bodies/,
    faults: [
      'names trimmed',
      'names stored trimmed, echoed as sent',
      'non-ASCII characters stripped',
      'long names truncated to 255 characters',
      'an empty description dropped',
      '500 on long names',
      '500 on characters outside the BMP',
    ],
  },
  {
    check: 'the generated bodies',
    disabled: /generated (valid|invalid) bodies/,
    faults: ['markup stripped from text (an HTML sanitizer)', 'a whole number accepted as a name'],
  },
  {
    check: 'the id rules',
    disabled: /client-sent `id`|concurrent creates/,
    faults: ['a client-sent id used as the new id', 'ids collide under concurrent creates'],
  },
  {
    check: 'the next list after a create (in every rule that looks)',
    disabled: /next list|holds all categories|client-sent `id`|rule 4: a `|unknown extra fields/,
    faults: ['a list read in the last 30 s served again after a create'],
  },
];

let spec: ContractSpec;
const score = { caught: 0, falseAlarms: 0 };

beforeAll(async () => {
  spec = await loadContractSpec();
});

afterAll(() => {
  console.log(
    `contract suite: caught ${score.caught}/${FAULTY.length} faulty servers, ${score.falseAlarms}/${CORRECT.length + 1} false alarms`,
  );
});

interface SuiteRun {
  violations: { rule: string; kind: string; message: string }[];
  advisories: Set<string>;
}

/** Runs every rule of the suite (but the `without` ones) against an app, as the CLI would. */
async function runSuite(app: Express, options: { without?: RegExp } = {}): Promise<SuiteRun> {
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const target: ContractTarget = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    apiKey: KEY,
    readOnly: false,
    namePrefix: 'contract-proof',
    timeoutMs: 5_000,
    ...GENERATED,
  };
  const run: SuiteRun = { violations: [], advisories: new Set() };
  const ctx = { target, advise: (text: string) => run.advisories.add(text) };
  try {
    for (const rule of contractRules(spec, target)) {
      if (options.without?.test(rule.name)) continue;
      try {
        await rule.check(ctx);
      } catch (err) {
        run.violations.push({
          rule: rule.name,
          kind: err instanceof Error ? err.name : typeof err,
          message: err instanceof Error ? err.message : String(err),
        });
      }
    }
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return run;
}

/** The behaviour of a named faulty server. */
function faultyServer(fault: string): Partial<ServerBehaviour> {
  const found = FAULTY.find((entry) => entry.fault === fault);
  if (!found) throw new Error(`no faulty server "${fault}"`);
  return found.behaviour;
}

const runs = new Map<Partial<ServerBehaviour>, Promise<SuiteRun>>();
/** The full suite against a fixture server, run once however many tests read it. */
function runOnce(behaviour: Partial<ServerBehaviour>): Promise<SuiteRun> {
  let run = runs.get(behaviour);
  if (!run) {
    run = runSuite(categoriesServer({ apiKey: KEY, ...behaviour }));
    runs.set(behaviour, run);
  }
  return run;
}

describe('the contract suite passes our own mock', () => {
  it('violates no rule against the mock, seeded as `npm start` seeds it', async () => {
    const store = categoryStore();
    for (const category of animalKinds(10, seededFaker(1)))
      await store.collection(CATEGORIES).create(category);
    const run = await runSuite(
      express().use(createApp({ spec: await loadSpec(), apiKeys: [KEY], store })),
    );
    if (run.violations.length > 0) score.falseAlarms += 1;
    expect(run.violations).toEqual([]);
    expect(run.advisories).toEqual(new Set());
  });
});

// Servers are proven a few at a time: some make the suite wait seconds (Retry-After), and
// every run waits on its server.
describe('the contract suite catches every faulty server', () => {
  it.concurrent.each(FAULTY)('$fault', async ({ behaviour, caughtBy }) => {
    const { violations } = await runOnce(behaviour);
    if (violations.length > 0) score.caught += 1;
    expect(violations.map((v) => v.rule)).toContainEqual(expect.stringMatching(caughtBy));
    expect(violations.map((v) => v.kind)).not.toContain('TargetUnavailable');
  });

  it('shows the rule, the request and the response in its failure message', async () => {
    const {
      violations: [first],
    } = await runOnce(faultyServer('create answers 200 instead of 201'));
    expect(first?.message).toMatch(/expected status 201, got 200/);
    expect(first?.message).toMatch(/Request: {2}POST http:\/\/127\.0\.0\.1:\d+\/v1\/categories/);
    expect(first?.message).toContain('Authorization: Bearer ***');
    expect(first?.message).not.toContain(KEY);
    expect(first?.message).toMatch(/Response: 200\n {2}content-type: application\/json/);
  });

  it('names the near-miss it sent, the key still masked', async () => {
    const { violations } = await runOnce(faultyServer('a token that extends the key accepted'));
    const message = violations.find((v) => /characters added after/.test(v.rule))?.message;
    expect(message).toMatch(/^sent key \+ "0": expected status 401, got 20[01]/);
    expect(message).not.toContain(KEY);
  });

  it('shrinks a generated counterexample to a minimal body, with the seed to replay it', async () => {
    const { violations } = await runOnce(
      faultyServer('markup stripped from text (an HTML sanitizer)'),
    );
    const message = violations.find((v) => /generated valid bodies/.test(v.rule))?.message;
    expect(message).toMatch(
      new RegExp(`^generated body \\d+ of \\d+ broke the rule \\(seed ${GENERATED.seed}\\)`),
    );
    expect(message).toMatch(/shrunk in \d+ steps to:\n {2}\{"name":"[<>]"\}\n/);
    expect(message).toContain(`Replay: --seed ${GENERATED.seed} --budget ${GENERATED.budget}`);
    expect(message).toMatch(/`name` was sent as "[<>]", answered as ""/);
  });
});

describe('the contract suite raises no false alarm on correct servers that differ', () => {
  it.concurrent.each(CORRECT)('$difference', async ({ behaviour }) => {
    const { violations } = await runOnce(behaviour);
    if (violations.length > 0) score.falseAlarms += 1;
    expect(violations).toEqual([]);
  });

  it('reports what HTTP recommends as an advisory, never as a failure', async () => {
    const noChallenge = CORRECT.find((entry) => /no WWW-Authenticate/.test(entry.difference));
    const run = await runOnce(noChallenge!.behaviour);
    expect(run.violations).toEqual([]);
    expect([...run.advisories]).toEqual([expect.stringMatching(/no WWW-Authenticate header/)]);
  });
});

describe('the mutation check: disable a check and its faults slip through', () => {
  it.concurrent.each(MUTATIONS)('without $check', async ({ disabled, faults }) => {
    for (const fault of faults) {
      // Every rule that caught it belongs to the family: without the family, nothing does.
      const { violations } = await runOnce(faultyServer(fault));
      expect(
        violations.map((v) => v.rule).filter((rule) => !disabled.test(rule)),
        fault,
      ).toEqual([]);
    }
    // And so it goes, run for real without the family, for the first of them.
    const { violations } = await runSuite(
      categoriesServer({ apiKey: KEY, ...faultyServer(faults[0]!) }),
      { without: disabled },
    );
    expect(violations).toEqual([]);
  });
});
