// Proof that the contract suite is worth running: it passes our mock and every correct
// server we can think of, and it catches every faulty one, for the right reason.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractRules, type Rule } from '../contract-tests/rules.js';
import { loadContractSpec, type ContractSpec } from '../contract-tests/spec.js';
import type { ContractTarget } from '../contract-tests/target.js';
import { createApp } from '../src/app.js';
import { generateCategories } from '../src/state/seed-data.js';
import { loadSpec } from '../src/spec/load.js';
import { createMemoryStore } from '../src/state/category-store.js';
import { categoriesServer, type ServerBehaviour } from './fixtures/categories-server.js';

const KEY = 'proof-key';

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
];

/** Each conforms while differing from our mock in what the interface leaves open. */
const CORRECT: { difference: string; behaviour: Partial<ServerBehaviour> }[] = [
  { difference: 'a plain reference implementation', behaviour: {} },
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

/** Runs every rule of the suite against an app; returns the rules it violates. */
async function violatedRules(app: Express): Promise<{ rule: string; message: string }[]> {
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const target: ContractTarget = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    apiKey: KEY,
    readOnly: false,
    namePrefix: 'contract-proof',
  };
  const violations: { rule: string; message: string }[] = [];
  try {
    const rules: Rule[] = contractRules(spec, target);
    for (const rule of rules) {
      try {
        await rule.check(target);
      } catch (err) {
        violations.push({
          rule: rule.name,
          message: err instanceof Error ? err.message : String(err),
        });
      }
    }
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return violations;
}

describe('the contract suite passes our own mock', () => {
  it('violates no rule against the mock, seeded as `npm start` seeds it', async () => {
    const store = createMemoryStore();
    for (const category of generateCategories({ count: 10, seed: 1 })) store.create(category);
    const violations = await violatedRules(
      createApp({ spec: await loadSpec(), apiKeys: [KEY], store, logRequests: false }),
    );
    if (violations.length > 0) score.falseAlarms += 1;
    expect(violations).toEqual([]);
  });
});

describe('the contract suite catches every faulty server', () => {
  it.each(FAULTY)('$fault', async ({ behaviour, caughtBy }) => {
    const violations = await violatedRules(categoriesServer({ apiKey: KEY, ...behaviour }));
    if (violations.length > 0) score.caught += 1;
    expect(violations.map((v) => v.rule)).toContainEqual(expect.stringMatching(caughtBy));
  });

  it('shows the rule, the request and the response in its failure message', async () => {
    const [first] = await violatedRules(categoriesServer({ apiKey: KEY, createStatus: 200 }));
    expect(first?.message).toMatch(/expected status 201, got 200/);
    expect(first?.message).toMatch(/Request: {2}POST http:\/\/127\.0\.0\.1:\d+\/v1\/categories/);
    expect(first?.message).toContain('Authorization: Bearer ***');
    expect(first?.message).not.toContain(KEY);
    expect(first?.message).toMatch(/Response: 200\n {2}content-type: application\/json/);
  });
});

describe('the contract suite raises no false alarm on correct servers that differ', () => {
  it.each(CORRECT)('$difference', async ({ behaviour }) => {
    const violations = await violatedRules(categoriesServer({ apiKey: KEY, ...behaviour }));
    if (violations.length > 0) score.falseAlarms += 1;
    expect(violations).toEqual([]);
  });
});
