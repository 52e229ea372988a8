// The contract suite's stream rules (contract-tests/rules/streams.ts) against small servers:
// one that streams as the spec says, one whose third event breaks its item schema, one that
// cuts a JSON Lines item short, and one whose stream never ends (read to a bound, and said so).
import type { RequestListener } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RuleContext } from '../contract-tests/rule.js';
import { contractRules } from '../contract-tests/rules.js';
import { targetFromSettings } from '../contract-tests/target.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { loadSpec } from '../src/openapi/load.js';
import type { ContractPlan } from '../contract-tests/plan.js';
import { ruleOutcomes, serveOnFreePort, type Served } from './contract-helpers.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/stream-items-32.yaml', import.meta.url));
const CHAT = fileURLToPath(new URL('./fixtures/specs/streams-31.yaml', import.meta.url));

let plans: { items: ContractPlan; chat: ContractPlan };
const served: Served[] = [];
beforeAll(async () => {
  const planOf = async (file: string) =>
    buildContractPlan((await loadSpec(file, { checkCache: false })).resolved);
  const [items, chat] = await Promise.all([planOf(SPEC), planOf(CHAT)]);
  plans = { items, chat };
});
afterEach(async () => {
  await Promise.all(served.splice(0).map((server) => server.close()));
});

/** What the rules found and advised, and the Accept and body of each request they sent. */
interface StreamRun {
  found: Record<string, string>;
  advice: string[];
  requests: { accept: string; body: string }[];
}

/**
 * The rules of `plan` that `only` names against a server answering with `handler`, each
 * request given `timeoutMs` (a stream is read for a second less).
 */
async function runRules(
  plan: ContractPlan,
  only: RegExp,
  handler: RequestListener,
  timeoutMs = 3000,
): Promise<StreamRun> {
  const requests: StreamRun['requests'] = [];
  const server = await serveOnFreePort((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests.push({ accept: req.headers.accept ?? '', body });
      handler(req, res);
    });
  });
  served.push(server);
  const target = targetFromSettings({
    baseUrl: server.url,
    seed: 1,
    budget: 0,
    timeoutMs,
    replay: '',
  });
  const advice: string[] = [];
  const ctx: RuleContext = {
    target,
    advise: (text) => advice.push(text),
    circuit: {},
    memo: new Map(),
  };
  const found = await ruleOutcomes(contractRules(plan, target), ctx, only);
  return { found, advice, requests };
}

/** The stream rules of the 3.2 fixture (an SSE and a JSON Lines operation). */
const run = (handler: RequestListener, timeoutMs?: number) =>
  runRules(plans.items, /^(followJob|followTicks): streams /, handler, timeoutMs);

const TICKS = 'followTicks: streams text/event-stream';
const JOB = 'followJob: streams application/jsonl';
const outcomeOf = (found: Record<string, string>, start: string) =>
  Object.entries(found).find(([name]) => name.startsWith(start))?.[1];

describe('the contract suite and streamed answers', () => {
  it('passes a server that streams as the spec says, asking with the documented Accept', async () => {
    const { found, requests } = await run((req, res) => {
      if (req.url?.startsWith('/v1/ticks')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('event: tick\ndata: {"n":1}\n\n: keep-alive\n\nevent: done\ndata: {"n":2}\n\n');
      } else {
        res.writeHead(200, { 'content-type': 'application/jsonl' });
        res.end('{"percent":0}\n{"percent":100}\n');
      }
    });
    expect(Object.keys(found).sort()).toEqual([
      expect.stringMatching(new RegExp(`^${JOB}`)),
      expect.stringMatching(new RegExp(`^${TICKS}`)),
    ]);
    expect(Object.values(found)).toEqual(['passed', 'passed']);
    expect(requests.map(({ accept }) => accept).sort()).toEqual([
      'application/jsonl',
      'text/event-stream',
    ]);
  });

  it('fails a stream whose third event breaks its item schema, naming the event', async () => {
    const { found } = await run((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"n":1}\n\ndata: {"n":2}\n\nevent: tick\ndata: {"n":-3}\n\n');
    });
    expect(outcomeOf(found, TICKS)).toMatch(/^ContractViolation: 200 streams events that break/);
    expect(outcomeOf(found, TICKS)).toMatch(/event 3: .*n must be >= 0/);
  });

  it('fails a JSON Lines stream that ends inside an item, and one of the wrong media type', async () => {
    const { found } = await run((req, res) => {
      if (req.url?.startsWith('/v1/ticks')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"n":1}');
      } else {
        res.writeHead(200, { 'content-type': 'application/jsonl' });
        res.end('{"percent":10}\n{"percent":');
      }
    });
    expect(outcomeOf(found, JOB)).toMatch(/event 2: a line that is not JSON/);
    expect(outcomeOf(found, TICKS)).toMatch(/^ContractViolation: .*not text\/event-stream/);
  });

  it('reads a stream that never ends to a bound, and says its end was not checked', async () => {
    // Requests of 1.5 s: the stream is read for half a second.
    const { found, advice } = await run((req, res) => {
      if (!req.url?.startsWith('/v1/ticks')) {
        res.writeHead(200, { 'content-type': 'application/jsonl' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
      // Never ended: the server is closed after the test.
    }, 1500);
    expect(outcomeOf(found, TICKS)).toBe('passed');
    expect(advice).toContainEqual(
      expect.stringMatching(
        /followTicks: read 1 events of its stream, then stopped \(after \d+ ms\)/,
      ),
    );
  });
});

describe('the contract suite and a create that streams its answer (OpenAI style)', () => {
  const RULE = 'createChatCompletion: streams text/event-stream';
  const chatRules = (handler: RequestListener) =>
    runRules(plans.chat, /^createChatCompletion: streams /, handler);
  const chunk = (n: number) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: n, choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] })}\n\n`;

  it('asks with a valid body whose stream is true, and passes a server that streams valid chunks', async () => {
    const { found, requests } = await chatRules((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(`${chunk(1)}${chunk(2)}`);
    });
    expect(outcomeOf(found, RULE)).toBe('passed');
    expect(JSON.parse(requests[0]?.body ?? '{}')).toMatchObject({
      stream: true,
      messages: expect.any(Array),
    });
  });

  it('fails a server whose second chunk breaks the chunk schema, naming the event', async () => {
    const { found } = await chatRules((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.end(`${chunk(1)}data: {"id":"c1","object":"chat.completion","created":2}\n\n`);
    });
    expect(outcomeOf(found, RULE)).toMatch(/event 2: /);
  });
});
