// Every credential its own value: `--credential <scheme>[scopes]=<value>` read in one module,
// a token without an operation's scope refused, each alternative requirement working alone.
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../contract-tests/suite.js';
import {
  CredentialFlagError,
  parseCredentialFlag,
  parseCredentialsJson,
} from '../src/cli/credential-flag.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { loadSpec } from '../src/openapi/load.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { runContractCli } from './contract-helpers.js';

const SPEC = new URL('./fixtures/specs/scoped-notes.yaml', import.meta.url).pathname;
const mocks: RunningMock[] = [];
afterAll(async () => {
  await Promise.all(mocks.map((mock) => mock.close()));
});

describe('parseCredentialFlag', () => {
  it.each([
    ['oauth[read,write]=t0k', { scheme: 'oauth', scopes: ['read', 'write'], value: 't0k' }],
    ['oauth[]=t0k', { scheme: 'oauth', scopes: [], value: 't0k' }],
    ['basicAuth=ada:s3:cret', { scheme: 'basicAuth', value: 'ada:s3:cret' }],
    ['apiKey=a=b', { scheme: 'apiKey', value: 'a=b' }],
  ])('reads %s', (text, expected) => {
    expect(parseCredentialFlag(text)).toEqual(expected);
  });

  it.each(['s3cret-without-scheme', '=s3cret', 'apiKey=', 'oauth[read=t'])(
    'refuses %s in one line that never shows the secret',
    (text) => {
      expect(() => parseCredentialFlag(text)).toThrow(CredentialFlagError);
      try {
        parseCredentialFlag(text);
      } catch (err) {
        expect((err as Error).message).not.toContain('s3cret');
      }
    },
  );

  it('reads CONTRACT_CREDENTIALS as a JSON object from scheme to value', () => {
    expect(parseCredentialsJson('{"oauth[read]": "t", "cookieKey": "k"}')).toEqual([
      { scheme: 'oauth', scopes: ['read'], value: 't' },
      { scheme: 'cookieKey', value: 'k' },
    ]);
    expect(() => parseCredentialsJson('["t"]')).toThrow(CredentialFlagError);
    expect(() => parseCredentialsJson('{"oauth": 7}')).toThrow(/each value must be a string/);
  });
});

/** The mock serving the scoped notes, accepting these keys (`scheme=key[scopes]`). */
async function mock(apiKeys: string[]): Promise<string> {
  const running = await startMock({ spec: SPEC, apiKeys, port: 0, logRequests: false });
  mocks.push(running);
  return running.url;
}

/** A run against it with these credentials, each rule's state by its name. */
async function run(baseUrl: string): Promise<Map<string, string>> {
  const plan = buildContractPlan((await loadSpec(SPEC)).resolved);
  const { rules } = await runSuite({
    plan,
    settings: {
      baseUrl,
      credentials: [
        { scheme: 'oauth', value: 'writer' },
        { scheme: 'oauth', scopes: ['read'], value: 'reader' },
        { scheme: 'cookieKey', value: 'cookie-secret' },
      ],
      seed: 1,
      budget: 0,
      timeoutMs: 5000,
      replay: '',
    },
  });
  return new Map(
    rules.map((rule) => [
      rule.name,
      `${rule.state} ${rule.error?.message ?? rule.note ?? ''}`.trim(),
    ]),
  );
}

const SCOPE_RULE =
  'createNote: a token of oauth without the scope write (holding read) gets 401 or 403 with an Error body';
const COOKIE_ALONE =
  'listNotes: the alternative cookieKey alone, no other credential sent, gets 200';
const OAUTH_ALONE = 'listNotes: the alternative oauth alone, no other credential sent, gets 200';

describe('a credential per scheme, with the scopes it holds', { timeout: 60_000 }, () => {
  it('passes a deployment that refuses a token without the scope and takes each alternative alone', async () => {
    const states = await run(
      await mock(['oauth=writer', 'oauth=reader[read]', 'cookieKey=cookie-secret']),
    );
    expect(states.get(SCOPE_RULE)).toBe('passed');
    expect(states.get(COOKIE_ALONE)).toBe('passed');
    expect(states.get(OAUTH_ALONE)).toBe('passed');
    expect([...states].filter(([, state]) => state.startsWith('failed'))).toEqual([]);
  });

  it('fails one that lets a token without the scope write', async () => {
    // The deployment holds the reader's token for every scope; the run was told it holds `read`.
    const states = await run(
      await mock(['oauth=writer', 'oauth=reader', 'cookieKey=cookie-secret']),
    );
    expect(states.get(SCOPE_RULE)).toMatch(/^failed /);
    expect(states.get(COOKIE_ALONE)).toBe('passed');
  });

  it('fails one that takes the cookie only beside the token', async () => {
    const states = await run(await mock(['oauth=writer', 'oauth=reader[read]']));
    expect(states.get(COOKIE_ALONE)).toMatch(/^failed 401 answers where the spec wants 200/);
    expect(states.get(OAUTH_ALONE)).toBe('passed');
  });
});

describe('petstore-kit contract --credential', { timeout: 60_000 }, () => {
  it.each([
    [
      ['--credential', 'oauht=t'],
      {},
      'petstore-kit contract: --credential names the scheme oauht, which the description does not define (its schemes: oauth, cookieKey)',
    ],
    [
      ['--credential', 'cookieKey[read]=k'],
      {},
      'petstore-kit contract: --credential gives scopes to cookieKey, which is no OAuth 2 or OpenID Connect scheme: give it as cookieKey=<value>',
    ],
    [
      [],
      { CONTRACT_CREDENTIALS: '{"oauth": "a", "oauth[]": "b", "cookieKey": 7}' },
      'petstore-kit contract: --credential: CONTRACT_CREDENTIALS gives cookieKey a number: each value must be a string',
    ],
    [
      ['--credential', 'oauth=a', '--credential', 'oauth=b'],
      {},
      'petstore-kit contract: --credential gives oauth twice: one value per scheme (tokens of other scopes may be added as oauth[scope,...]=<token>)',
    ],
  ])('stops with one line and exit 2 for %j', async (args, env, line) => {
    const run = await runContractCli(
      ['--spec', SPEC, '--base-url', 'http://127.0.0.1:9/api', ...args],
      env,
    );
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(line);
  });
});
