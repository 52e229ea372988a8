// The contract suite's receiver (`--receiver host:port`): it catches the callbacks and webhooks
// a target sends, and fails a target that never sends a webhook its spec documents.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contractRules } from '../contract-tests/rules.js';
import { parseReceiver, targetFromSettings } from '../contract-tests/target.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';
import { ruleOutcomes, runContractCli, type Served } from './contract-helpers.js';
import { KEY } from './helpers.js';
import { freePort } from './free-port.js';

const PETS = 'test/fixtures/specs/pets-webhooks.yaml';
const SUBSCRIPTIONS = 'test/fixtures/specs/subscriptions-callbacks.yaml';

afterEach(() => {
  vi.useRealTimers();
});

/** A test's `onTestFinished`: what a test starts is stopped when it ends, tests running at once. */
type AtEnd = (stop: () => Promise<void>) => void;

/**
 * The mock of a spec on a free port, its webhooks sent to `webhookUrls`; `seen` is told of each
 * request. Closed at the test's end, once it has sent what it had to.
 */
async function serveMock(
  atEnd: AtEnd,
  spec: string,
  webhookUrls: string[],
  seen: (req: IncomingMessage) => void = () => {},
): Promise<Served> {
  const app = createApp({ spec: await loadSpec(spec), apiKeys: [KEY], seedCount: 2, webhookUrls });
  const server = createServer((req, res) => {
    seen(req);
    app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const served: Served = {
    server,
    url: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      await app.mock.outgoing.idle();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  atEnd(() => served.close());
  return served;
}

async function outgoingRulesOf(spec: string, baseUrl: string, receiver?: string) {
  const target = targetFromSettings({
    baseUrl,
    token: KEY,
    seed: 1,
    budget: 0,
    timeoutMs: 1500,
    replay: '',
    ...(receiver ? { receiver } : {}),
  });
  const rules = contractRules(buildContractPlan((await loadSpec(spec)).resolved), target);
  return { rules, ctx: { target, advise: () => {}, circuit: {}, memo: new Map() } };
}

// Each test has its own target and receiver ports: they wait on those at once.
describe.concurrent('the suite’s receiver', () => {
  it('passes a target that sends its documented webhooks after the writes they tell of', async ({
    expect,
    onTestFinished,
  }) => {
    const port = await freePort();
    const mock = await serveMock(onTestFinished, PETS, [`http://127.0.0.1:${port}/`]);
    const { rules, ctx } = await outgoingRulesOf(PETS, mock.url, `127.0.0.1:${port}`);
    expect(await ruleOutcomes(rules, ctx, /webhook/)).toEqual({
      'createPet: webhook newPet is sent after it, fits its schema, and its documented answer is accepted':
        'passed',
      'updatePet: webhook petUpdated is sent after it, fits its schema, and its documented answer is accepted':
        'passed',
      'deletePet: webhook petDeleted is sent after it, fits its schema, and its documented answer is accepted':
        'passed',
      'webhook petReturned is sent':
        'RuleSkipped: no write of the spec tells of this webhook: it can only be sent on demand',
    });
  });

  it('fails a target that never sends its documented webhook', async ({
    expect,
    onTestFinished,
  }) => {
    const port = await freePort();
    // Subscribed nowhere: it sends nothing.
    const mock = await serveMock(onTestFinished, PETS, []);
    const { rules, ctx } = await outgoingRulesOf(PETS, mock.url, `127.0.0.1:${port}`);
    const found = await ruleOutcomes(rules, ctx, /^createPet: webhook newPet/);
    expect(Object.values(found)[0]).toMatch(
      /^ContractViolation: never sends its documented webhook\n.*no POST of webhook newPet reached the receiver/s,
    );
  });

  /** A message a relay delivers: its body, and its `webhook-id` where it names one. */
  type Relayed = { body: string; id?: string };

  /**
   * A relay between the mock and the receiver, playing a sender: for each webhook the mock
   * sends, it delivers `messages(body)` one after the other, then answers the mock.
   */
  async function relay(
    atEnd: AtEnd,
    to: number,
    messages: (body: string) => Relayed[],
  ): Promise<number> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void (async () => {
          const url = `http://127.0.0.1:${to}${req.url ?? '/'}`;
          for (const { body, id } of messages(Buffer.concat(chunks).toString('utf8'))) {
            await fetch(url, {
              method: req.method ?? 'POST',
              headers: { 'content-type': 'application/json', ...(id ? { 'webhook-id': id } : {}) },
              body,
            }).catch(() => undefined);
          }
          res.writeHead(200).end();
        })();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    atEnd(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return (server.address() as AddressInfo).port;
  }

  /** Each webhook twice: the same message again (a resend), or a second one with its own id. */
  const twice =
    (second: 'same' | 'own') =>
    (body: string): Relayed[] => [
      { body, id: 'msg_1' },
      { body, id: second === 'same' ? 'msg_1' : 'msg_2' },
    ];

  /**
   * Before each webhook, two messages of the same bytes about another record: two writes of
   * another record told of alike, retried since nothing listened then.
   */
  const othersFirst = (body: string): Relayed[] => {
    const other = JSON.stringify({ ...(JSON.parse(body) as object), id: 987_654 });
    return [{ body: other }, { body: other }, { body }];
  };

  /** The outcomes of createPet's newPet rules against the mock, its webhooks through the relay. */
  async function newPetOutcomes(
    atEnd: AtEnd,
    messages: (body: string) => Relayed[],
  ): Promise<string[]> {
    const port = await freePort();
    const mock = await serveMock(atEnd, PETS, [
      `http://127.0.0.1:${await relay(atEnd, port, messages)}/`,
    ]);
    const { rules, ctx } = await outgoingRulesOf(PETS, mock.url, `127.0.0.1:${port}`);
    return Object.values(await ruleOutcomes(rules, ctx, /^createPet: webhook newPet/));
  }

  it('fails a target that sends the same webhook message again after its documented answer', async ({
    expect,
    onTestFinished,
  }) => {
    expect((await newPetOutcomes(onTestFinished, twice('same')))[0]).toMatch(
      /^ContractViolation: sends a webhook again after its documented answer\n.*newPet came 2 times/s,
    );
  });

  it('passes a target whose webhooks of another record, alike, come just before this write’s', async ({
    expect,
    onTestFinished,
  }) => {
    expect(await newPetOutcomes(onTestFinished, othersFirst)).toEqual(['passed']);
  });

  it('passes a target whose second message of the same bytes has an id of its own', async ({
    expect,
    onTestFinished,
  }) => {
    expect(await newPetOutcomes(onTestFinished, twice('own'))).toEqual(['passed']);
  });

  it('passes a target that calls back the URL the request names', async ({
    expect,
    onTestFinished,
  }) => {
    const port = await freePort();
    const mock = await serveMock(onTestFinished, SUBSCRIPTIONS, []);
    const { rules, ctx } = await outgoingRulesOf(SUBSCRIPTIONS, mock.url, `127.0.0.1:${port}`);
    expect(await ruleOutcomes(rules, ctx, /: callback on/)).toEqual({
      'createSubscription: callback onEvent is sent to the URL the request names, fits its schema, and its documented answer is accepted':
        'passed',
      'createSubscription: callback onConfirm is sent to the URL the request names, fits its schema, and its documented answer is accepted':
        'passed',
    });
  });

  it('skips, naming the flag, without a receiver', async ({ expect }) => {
    const { rules, ctx } = await outgoingRulesOf(PETS, 'http://127.0.0.1:9/v1');
    const found = await ruleOutcomes(rules, ctx, /^createPet: webhook newPet/);
    expect(Object.values(found)[0]).toMatch(/^RuleSkipped: give --receiver <host:port>/);
  });

  it('is given by `petstore-kit contract --receiver host:port`', async ({
    expect,
    onTestFinished,
  }) => {
    const port = await freePort();
    const mock = await serveMock(onTestFinished, PETS, [`http://127.0.0.1:${port}/`]);
    const run = await runContractCli(
      [
        '--spec',
        PETS,
        '-u',
        mock.url,
        '--receiver',
        `127.0.0.1:${port}`,
        '--budget',
        '0',
        '--seed',
        '1',
      ],
      { API_KEY: KEY },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/conforms: \d+ rules passed, 0 failed/);
    expect(run.stdout).toContain('no write of the spec tells of this webhook');
  }, 60_000);

  it('takes host:port, an IPv6 address in brackets', ({ expect }) => {
    expect(parseReceiver('127.0.0.1:9400')).toEqual({ host: '127.0.0.1', port: 9400 });
    expect(parseReceiver('[::1]:9400')).toEqual({ host: '::1', port: 9400 });
    expect(() => parseReceiver('9400')).toThrow(/--receiver must be host:port/);
    expect(() => parseReceiver('localhost:99999')).toThrow(/--receiver must be host:port/);
  });
});

// Alone: its fake clock is the whole process's while it lasts.
describe('the suite’s receiver, its wait for a preparing create', () => {
  it('sets off the write once the webhook of the create it made first has come, not after a fixed wait', async ({
    onTestFinished,
  }) => {
    const port = await freePort();
    // Clocks stand still until the write reaches the target: a fixed wait before it never ends.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const mock = await serveMock(onTestFinished, PETS, [`http://127.0.0.1:${port}/`], (req) => {
        if (req.method !== 'POST' && req.method !== 'GET') vi.useRealTimers();
      });
      const { rules, ctx } = await outgoingRulesOf(PETS, mock.url, `127.0.0.1:${port}`);
      expect(await ruleOutcomes(rules, ctx, /^updatePet: webhook petUpdated/)).toEqual({
        'updatePet: webhook petUpdated is sent after it, fits its schema, and its documented answer is accepted':
          'passed',
      });
    } finally {
      vi.useRealTimers();
    }
  }, 10_000);
});
