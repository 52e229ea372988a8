// The validating proxy in front of a target that streams (Server-Sent Events, JSON Lines, JSON
// text sequences): each chunk is forwarded at once, never held back to be checked, and each
// item is checked against the spec's item schema as it passes; a bad one is a violation
// naming its index. The target sends an event, then waits until the client has it: a proxy
// that buffered the stream would leave the client waiting until the target gave up waiting.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, type LoadedSpec } from '../src/openapi/load.js';
import { streamReader, type StreamEvent } from '../src/openapi/stream-events.js';
import type { Violation } from '../src/core/proxy/violations.js';
import { startProxy, type RunningProxy } from '../src/wiring/start-proxy.js';
import { capturedLogger, QUICK_SHUTDOWN } from './helpers.js';

const SPEC = fileURLToPath(new URL('./fixtures/specs/stream-items-32.yaml', import.meta.url));
/** How long the target waits for the client to see an event before it sends the next anyway. */
const PATIENCE_MS = 10_000;

/** What the target does for each path: writes to `res`, awaiting `seen` where it must wait. */
type Script = (res: ServerResponse, seen: () => Promise<boolean>) => Promise<void>;
const scripts = new Map<string, Script>();
let release: (() => void) | undefined;
const order: string[] = [];

const target = createServer((req, res) => {
  const script = scripts.get((req.url?.split('?')[0] ?? '').replace(/^\/v1/, ''));
  if (!script) {
    res.writeHead(404).end();
    return;
  }
  // The client's word that it has the first event, or the target's patience running out.
  const seen = () =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), PATIENCE_MS);
      release = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  void script(res, seen);
});

let spec: LoadedSpec;
let proxy: RunningProxy;
/** The proxy's request lines: one is written once its exchange has been checked. */
const { logger, text: logged } = capturedLogger();
beforeAll(async () => {
  spec = await loadSpec(SPEC, { checkCache: false });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const { port } = target.address() as AddressInfo;
  proxy = await startProxy({
    ...QUICK_SHUTDOWN,
    spec,
    target: `http://127.0.0.1:${port}/v1`,
    apiKeys: ['k'],
    logger,
    logRequests: true,
  });
});
afterEach(() => {
  proxy.violations.clear();
  order.length = 0;
});
afterAll(async () => {
  await proxy.close();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

/** The violations once `count` are listed (an exchange's end is checked after it has gone by). */
async function violations(count: number): Promise<Violation[]> {
  for (let tries = 0; tries < 100 && proxy.violations.list().count < count; tries++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return proxy.violations.list().violations;
}

/** Reads a stream through the proxy event by event, calling `onEvent` as each arrives. */
async function follow(
  path: string,
  framing: 'sse' | 'jsonl' | 'json-seq',
  onEvent: (event: StreamEvent) => void = () => {},
  init: RequestInit = {},
): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${proxy.url}${path}`, init);
  const reader = streamReader(framing);
  const body = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await body.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    for (const item of reader.push(value)) if (item.kind === 'event') onEvent(item);
  }
  for (const item of reader.end()) if (item.kind === 'event') onEvent(item);
  return { status: res.status, type: res.headers.get('content-type'), text };
}

const SSE = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

describe('the proxy and streamed answers', () => {
  it('forwards the first event before the target sends the next, and flags the bad one by index', async () => {
    const sent =
      'event: tick\nid: 1\ndata: {"n":1}\n\n' +
      ': a comment\nevent: tick\nid: 2\ndata: {"n":"two"}\n\n' +
      'event: done\nid: 3\ndata: {"n":3}\n\n';
    const [first, second, third] = sent.split(/(?<=\n\n)(?=[:e])/);
    scripts.set('/ticks', async (res, seen) => {
      res.writeHead(200, SSE);
      res.write(first);
      const intime = await seen();
      order.push(intime ? 'target sent event 2 after the client had event 1' : 'target gave up');
      res.write(second);
      res.end(third);
    });
    const events: StreamEvent[] = [];
    const read = await follow('/ticks', 'sse', (event) => {
      events.push(event);
      if (event.index === 1) {
        order.push('client has event 1');
        release?.();
      }
    });
    expect(order).toEqual([
      'client has event 1',
      'target sent event 2 after the client had event 1',
    ]);
    // Forwarded unchanged, the bad event too.
    expect(read.status).toBe(200);
    expect(read.text).toBe(sent);
    expect(events.map((event) => event.id)).toEqual(['1', '2', '3']);
    const found = await violations(1);
    expect(found).toEqual([
      expect.objectContaining({
        side: 'response',
        rule: 'stream-event',
        operation: 'followTicks',
        message: expect.stringMatching(/^event 2: \/event\/data\/n must be an integer/),
      }),
    ]);
  });

  it('flags a JSON Lines line that is not JSON and an item that breaks its schema', async () => {
    scripts.set('/jobs/progress', async (res) => {
      res.writeHead(200, { 'content-type': 'application/jsonl' });
      res.write('{"percent":10}\n{"perc');
      res.write('ent":50}\nnot json\n');
      res.end('{"percent":150}\n{"percent":100}');
    });
    const seen: unknown[] = [];
    await follow('/jobs/progress', 'jsonl', (event) => seen.push(event.value));
    expect(seen).toEqual([{ percent: 10 }, { percent: 50 }, { percent: 150 }, { percent: 100 }]);
    const messages = (await violations(2)).map((violation) => violation.message).sort();
    expect(messages).toEqual([
      expect.stringMatching(/^event 3: a line that is not JSON/),
      expect.stringMatching(/^event 4: \/event\/percent must be <= 100/),
    ]);
  });

  it('flags a JSON text sequence record cut short (RFC 7464)', async () => {
    scripts.set('/jobs/progress', async (res) => {
      res.writeHead(200, { 'content-type': 'application/json-seq' });
      res.write('\u001e{"percent":10}\n\u001e{"percent":');
      res.end('20}\n\u001e{"percent":30}');
    });
    await follow('/jobs/progress', 'json-seq');
    const found = await violations(1);
    expect(found.map((violation) => violation.message)).toEqual([
      expect.stringMatching(/^event 3: a record without its final LF/),
    ]);
  });

  it("reads a 3.1 stream's schema as one event's data, and OpenAI's [DONE] as its end", async () => {
    scripts.set('/chat', async (res) => {
      res.writeHead(200, SSE);
      res.end('data: {"delta":"Hel"}\n\ndata: {"delta":"lo"}\n\ndata: [DONE]\n\n');
    });
    const read = await follow('/chat', 'sse', undefined, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: '{"stream":true}',
    });
    expect(read.status).toBe(200);
    // The end of the exchange is checked once it has gone by: its request line says it was.
    await expect.poll(logged, { timeout: 5000 }).toMatch(/POST \/v1\/chat/);
    expect(proxy.violations.list().violations).toEqual([]);
  });
});
