// Streams as a frontend reads them, in headless Chromium, from a page of another origin: the
// browser's own EventSource on a 3.2 `itemSchema` stream and on an OpenAI-style one (the 3.1
// schema of one event), and fetch() reading a `"stream": true` answer's body as it arrives.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { sharedChromium } from './shared-chromium.js';
import { withChromium } from './with-chromium.js';

const CHAT = fileURLToPath(new URL('../fixtures/specs/streams-31.yaml', import.meta.url));
const JOBS = fileURLToPath(new URL('../fixtures/specs/streams-32.yaml', import.meta.url));
const chromiumLookup = withChromium();

let browser: Browser;
let page: Page;
let site: Server;
let chat: RunningMock;
let jobs: RunningMock;

/** One event as the page's EventSource dispatched it. */
interface Received {
  type: string;
  data: string;
  lastEventId: string;
}

/** Runs in the page: the first `count` events of the named kinds an EventSource receives. */
function listen(arg: { url: string; kinds: string[]; count: number }): Promise<Received[]> {
  return new Promise((resolve, reject) => {
    const source = new EventSource(arg.url);
    const seen: Received[] = [];
    const take = (event: Event) => {
      const { type, data, lastEventId } = event as unknown as Received;
      seen.push({ type, data, lastEventId });
      if (seen.length === arg.count) {
        source.close();
        resolve(seen);
      }
    };
    for (const kind of arg.kinds) source.addEventListener(kind, take);
    source.onerror = () => {
      if (seen.length < arg.count) {
        source.close();
        reject(new Error(`EventSource failed after ${seen.length} events`));
      }
    };
  });
}

/**
 * Runs in the page: a POST whose body is read chunk by chunk, each read's text; with `firstOnly`,
 * its first read alone, the rest cancelled.
 */
async function readChunks(arg: {
  url: string;
  body: string;
  prefer: string;
  firstOnly?: boolean;
}): Promise<string[]> {
  const res = await fetch(arg.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Prefer: arg.prefer },
    body: arg.body,
  });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(decoder.decode(value, { stream: true }));
    if (arg.firstOnly) {
      await reader.cancel();
      return chunks;
    }
  }
}

beforeAll(async () => {
  if (!chromiumLookup.found) return;
  site = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><meta charset="utf-8"><title>A frontend</title>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  [browser, chat, jobs] = await Promise.all([
    sharedChromium(chromiumLookup.path),
    startMock({ spec: CHAT, apiKeys: [] }),
    startMock({ spec: JOBS, apiKeys: [] }),
  ]);
  page = await (await browser.newContext()).newPage();
  await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
}, 60_000);

afterAll(async () => {
  await page?.context().close();
  await Promise.all([chat?.close(), jobs?.close()]);
  await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
});

describe('the browser’s EventSource', () => {
  it('follows a job (3.2 itemSchema): `progress` events with ids in order, the last the job as stored', async () => {
    const created = await fetch(`${jobs.url}/jobs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'nightly build', state: 'running', progress: 10 }),
    });
    const job = (await created.json()) as { id: number };
    const events = await page.evaluate(listen, {
      url: `${jobs.url}/jobs/${job.id}`,
      kinds: ['progress'],
      count: 5,
    });
    expect(events.map((event) => event.lastEventId)).toEqual(['1', '2', '3', '4', '5']);
    for (const event of events) expect(JSON.parse(event.data)).toMatchObject({ id: job.id });
    expect(JSON.parse(events[4]?.data ?? '')).toEqual(job);
  });

  it('reads an OpenAI-style stream, each event named after its `type`', async () => {
    const events = await page.evaluate(listen, {
      url: `${chat.url}/responses/resp_1/events`,
      kinds: ['response.created', 'response.completed', 'response.output_text.delta'],
      count: 5,
    });
    expect(events).toHaveLength(5);
    for (const event of events)
      expect(event.type).toBe((JSON.parse(event.data) as { type: string }).type);
  });
});

describe('fetch() in the page', () => {
  it('reads a `"stream": true` chat completion event by event', async () => {
    const url = `${chat.url}/chat/completions`;
    const body = JSON.stringify({
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    // The second event is five seconds behind the first: the first read holds the first alone.
    const [first] = await page.evaluate(readChunks, {
      url,
      body,
      prefer: 'events=2, interval=5000',
      firstOnly: true,
    });
    expect(first?.split('\n\n').filter(Boolean)).toHaveLength(1);
    const chunks = await page.evaluate(readChunks, { url, body, prefer: 'events=3, interval=0' });
    const events = chunks.join('').split('\n\n').filter(Boolean);
    expect(events).toHaveLength(3);
    for (const event of events)
      expect(JSON.parse(event.split('data: ')[1] ?? '')).toMatchObject({
        object: 'chat.completion.chunk',
      });
  });
});
