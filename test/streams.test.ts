// Streamed answers: an operation that documents a sequential media type answers a stream of
// events when the request asks for one (Accept, or `"stream": true` as OpenAI's clients send),
// each event made from the item schema and checked, framed as its media type says, paced and
// cut as `Prefer` asks.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EventSource } from 'undici';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, type LoadedSpec, type SchemaObject } from '../src/openapi/load.js';
import { listOperations, type Operation } from '../src/openapi/operations.js';
import type { DataGenerator } from '../src/openapi/sample.js';
import { createSchemaCompiler } from '../src/openapi/schemas.js';
import { createStreamAnswers } from '../src/core/streams/stream-answers.js';
import { framed } from '../src/core/streams/framing.js';
import { createApp } from '../src/wiring/create-app.js';
import type { Mock } from '../src/core/create-mock.js';
import { closeAll, serve } from './server-helpers.js';

const CHAT = fileURLToPath(new URL('./fixtures/specs/streams-31.yaml', import.meta.url));
const JOBS = fileURLToPath(new URL('./fixtures/specs/streams-32.yaml', import.meta.url));
const OPENAI =
  process.env.OPENAI_SPEC ??
  fileURLToPath(
    new URL('../../shared/corpus/realspecs/openai--openai-openapi--openapi.yaml', import.meta.url),
  );

/** One Server-Sent Event as a client reads it (WHATWG HTML §9.2.6). */
interface ReadEvent {
  event: string;
  id: string | undefined;
  data: string;
}

/** The events of an SSE text: blocks split by a blank line, `data:` lines joined. */
function parseEvents(text: string): ReadEvent[] {
  const events: ReadEvent[] = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    const event: ReadEvent = { event: 'message', id: undefined, data: '' };
    const data: string[] = [];
    for (const line of block.split('\n')) {
      const colon = line.indexOf(':');
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'event') event.event = value;
      else if (field === 'id') event.id = value;
    }
    event.data = data.join('\n');
    events.push(event);
  }
  return events;
}

/** Reads a body chunk by chunk, as it arrives: each read's text, in order. */
async function chunksOf(body: ReadableStream<Uint8Array> | null): Promise<string[]> {
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(decoder.decode(value, { stream: true }));
  }
}

/** Checks values against one of a document's schemas, as a client's own validator would. */
function validatorOf(spec: LoadedSpec, name: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const schemas = (spec.resolved.components?.schemas ?? {}) as Record<string, SchemaObject>;
  const validate = ajv.compile(schemas[name] as object);
  return (value: unknown) => {
    const ok = validate(value);
    return ok
      ? []
      : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  };
}

const chatBody = (extra: object = {}) =>
  JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'Hi' }], ...extra });

describe('an OpenAI-style stream: the 3.1 schema of one event beside the JSON answer', () => {
  let chat: LoadedSpec;
  let mock: Mock;
  beforeAll(async () => {
    chat = await loadSpec(CHAT);
    mock = createApp({ spec: chat }).mock;
  });
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    mock.fetch(
      new Request(`http://mock.test/v1${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      }),
    );

  it('answers JSON without `stream`, and Server-Sent Events with `"stream": true`, whatever Accept says', async () => {
    const whole = await post('/chat/completions', chatBody());
    expect(whole.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await whole.json()).toMatchObject({ object: 'chat.completion' });

    // OpenAI's own client sends Accept: application/json with `stream: true`.
    const streamed = await post('/chat/completions', chatBody({ stream: true }), {
      accept: 'application/json',
      prefer: 'events=4, interval=0',
    });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    expect(streamed.headers.get('cache-control')).toBe('no-cache');
    const events = parseEvents(await streamed.text());
    expect(events.map((event) => event.id)).toEqual(['1', '2', '3', '4']);
    const valid = validatorOf(chat, 'ChatCompletionChunk');
    const chunks = events.map((event) => JSON.parse(event.data) as { id: string });
    for (const chunk of chunks) expect(valid(chunk)).toEqual([]);
    // Every chunk of one completion has the completion's id, as OpenAI's do.
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
  });

  it('names each event after the kind its schema gives it (`type`, an enum or a const)', async () => {
    const streamed = await post('/responses', JSON.stringify({ input: 'Hi' }), {
      accept: 'text/event-stream',
      prefer: 'events=12, interval=0',
    });
    const events = parseEvents(await streamed.text());
    expect(events).toHaveLength(12);
    for (const event of events)
      expect(event.event).toBe((JSON.parse(event.data) as { type: string }).type);
    expect(new Set(events.map((event) => event.event)).size).toBeGreaterThan(1);
  });

  it('refuses a Prefer it cannot play, in the spec’s error shape', async () => {
    for (const prefer of ['events=5000', 'interval=soon', 'after=2']) {
      const res = await post('/chat/completions', chatBody({ stream: true }), { prefer });
      expect(res.status, prefer).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid_preference' });
    }
  });

  // OpenAI's own description (3 MB, not kept in this repository): where it lies beside the
  // checkout, or where OPENAI_SPEC says.
  it.runIf(existsSync(OPENAI))(
    'reads the real OpenAI description and streams its chat completion chunks',
    async () => {
      const openai = await loadSpec(OPENAI);
      const real = createApp({ spec: openai, apiKeys: ['sk-test'] }).mock;
      const res = await real.fetch(
        new Request('http://mock.test/v1/chat/completions', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: 'Bearer sk-test',
            prefer: 'events=3, interval=0',
          },
          body: chatBody({ stream: true }),
        }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const events = parseEvents(await res.text());
      expect(events).toHaveLength(3);
      const valid = validatorOf(openai, 'CreateChatCompletionStreamResponse');
      for (const event of events) expect(valid(JSON.parse(event.data))).toEqual([]);
    },
    60_000,
  );
});

describe('a 3.2 `itemSchema` stream about a record: a job followed to its state', () => {
  let jobs: LoadedSpec;
  let mock: Mock;
  let job: { id: number; name: string; state: string; progress: number };
  beforeAll(async () => {
    jobs = await loadSpec(JOBS);
    mock = createApp({ spec: jobs }).mock;
    const created = await mock.fetch(
      new Request('http://mock.test/v1/jobs', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'nightly build', state: 'running', progress: 40 }),
      }),
    );
    job = (await created.json()) as typeof job;
  });
  const get = (path: string, headers: Record<string, string>) =>
    mock.fetch(new Request(`http://mock.test/v1${path}`, { headers }));

  it('answers JSON Lines read line by line, each a Job, the last the job as stored', async () => {
    const res = await get(`/jobs/${job.id}`, {
      accept: 'application/jsonl',
      prefer: 'events=4, interval=0',
    });
    expect(res.headers.get('content-type')).toBe('application/jsonl');
    const text = (await chunksOf(res.body)).join('');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line) as typeof job);
    expect(lines).toHaveLength(4);
    const valid = validatorOf(jobs, 'Job');
    for (const line of lines) {
      expect(valid(line)).toEqual([]);
      // Every line is about this job.
      expect(line).toMatchObject({ id: job.id, name: job.name });
    }
    expect(lines.at(-1)).toEqual(job);
  });

  it('answers whole events as 3.2 describes them: `event:` and `id:` from the item, its `data` a Job', async () => {
    const res = await get(`/jobs/${job.id}`, {
      accept: 'text/event-stream',
      prefer: 'events=3, interval=0',
    });
    const events = parseEvents(await res.text());
    expect(events.map(({ event, id }) => ({ event, id }))).toEqual([
      { event: 'progress', id: '1' },
      { event: 'progress', id: '2' },
      { event: 'progress', id: '3' },
    ]);
    expect(JSON.parse(events[2]?.data ?? '')).toEqual(job);
  });

  it('still answers the job as JSON to a client that asks for JSON', async () => {
    const res = await get(`/jobs/${job.id}`, { accept: 'application/json' });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(job);
  });

  it('frames JSON text sequences as RFC 7464 does (RS before each, LF after) and NDJSON as lines', async () => {
    const seq = await (
      await get('/ticks', { accept: 'application/json-seq', prefer: 'events=3, interval=0' })
    ).text();
    const records = seq.split('\u001e');
    expect(records[0]).toBe('');
    expect(records.slice(1)).toHaveLength(3);
    for (const record of records.slice(1)) {
      expect(record.endsWith('\n')).toBe(true);
      expect(JSON.parse(record)).toMatchObject({ value: expect.any(Number) });
    }
    const ndjson = await get('/ticks', {
      accept: 'application/x-ndjson',
      prefer: 'events=2, interval=0',
    });
    expect(ndjson.headers.get('content-type')).toBe('application/x-ndjson');
    expect((await ndjson.text()).trim().split('\n')).toHaveLength(2);
  });

  it('streams an operation that documents only a stream to a client that asks for nothing in particular', async () => {
    const res = await get('/logs', { prefer: 'events=1' });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const [event] = parseEvents(await res.text());
    // 3.2's `contentSchema`: the data is JSON text of that schema.
    expect((JSON.parse(event?.data ?? '') as { line: string }).line.length).toBeGreaterThanOrEqual(
      16_000,
    );
  });

  it('answers a missing job 404 in its error shape, no stream', async () => {
    const res = await get('/jobs/999999', { accept: 'text/event-stream' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('is cut by `Prefer: fault=reset; after=2` after two whole events, as a network error', async () => {
    const res = await get(`/jobs/${job.id}`, {
      accept: 'application/jsonl',
      prefer: 'events=5, interval=0, fault=reset; after=2',
    });
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const failure = await (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return undefined;
          text += decoder.decode(value);
        }
      } catch (err) {
        return err;
      }
    })();
    expect(failure).toBeInstanceOf(TypeError);
    expect(text.trim().split('\n')).toHaveLength(2);
  });

  it('sends half an event and ends for `Prefer: fault=malformed; after=1`', async () => {
    const res = await get(`/jobs/${job.id}`, {
      accept: 'application/jsonl',
      prefer: 'events=3, interval=0, fault=malformed; after=1',
    });
    const [whole, half] = (await res.text()).split('\n');
    expect(() => JSON.parse(whole ?? '')).not.toThrow();
    expect(() => JSON.parse(half ?? '')).toThrow();
  });

  it('plays the fault before the answer without `after=`, as for any answer', async () => {
    await expect(
      (async () => {
        const res = await get(`/jobs/${job.id}`, {
          accept: 'application/jsonl',
          prefer: 'fault=reset',
        });
        return res.status;
      })(),
    ).resolves.toBe(0);
  });
});

describe('every event is checked against the item schema before it is sent', () => {
  it('turns an event that breaks its schema into a 500 invalid_response, not a wrong event', async () => {
    const jobs = await loadSpec(JOBS);
    const operations = listOperations(jobs.resolved);
    const compiler = createSchemaCompiler(jobs.resolved);
    // A generator that makes a Job without its required fields.
    const broken: DataGenerator = {
      compiler,
      seed: 1,
      value: () => ({ id: 1 }),
      withSeed: () => broken,
    };
    const streams = createStreamAnswers(operations, { compiler, generator: broken });
    const getJob = operations.find((operation) => operation.operationId === 'getJob') as Operation;
    const request = {
      method: 'GET',
      target: '/v1/jobs/1',
      headers: { accept: 'application/jsonl' },
    };
    const media = streams?.asked(request, getJob, undefined);
    expect(media?.type).toBe('application/jsonl');
    expect(() =>
      streams?.answer(getJob, media!, { status: 200 }, { events: 2 }, undefined),
    ).toThrow(expect.objectContaining({ status: 500, code: 'invalid_response' }));
  });
});

describe('streams over a socket', () => {
  afterEach(closeAll);

  it('reach a fetch reader event by event, not at the end', async () => {
    const served = await serve({ spec: await loadSpec(CHAT), apiKeys: [] });
    const asked = (prefer: string) =>
      fetch(`${served.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer },
        body: chatBody({ stream: true }),
      });
    // The second event is five seconds behind the first: the first read holds the first alone.
    const slow = await asked('events=2, interval=5000');
    const reader = (slow.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(parseEvents(new TextDecoder().decode(first.value))).toHaveLength(1);
    await reader.cancel();
    expect(
      parseEvents((await chunksOf((await asked('events=3, interval=0')).body)).join('')),
    ).toHaveLength(3);
  });

  it('are read by an EventSource (undici’s, as browsers’), events named by kind', async () => {
    const served = await serve({ spec: await loadSpec(CHAT), apiKeys: [] });
    const source = new EventSource(`${served.origin}/v1/responses/resp_1/events`);
    const seen: { type: string; data: unknown; id: string }[] = [];
    await new Promise<void>((resolve, reject) => {
      const take = (event: MessageEvent) => {
        seen.push({
          type: event.type,
          data: JSON.parse(event.data as string),
          id: event.lastEventId,
        });
        if (seen.length === 5) resolve();
      };
      for (const type of ['response.created', 'response.completed', 'response.output_text.delta'])
        source.addEventListener(type, take as (event: Event) => void);
      source.onerror = () => (seen.length < 5 ? reject(new Error('stream failed')) : undefined);
    }).finally(() => source.close());
    expect(seen.map((event) => event.id)).toEqual(['1', '2', '3', '4', '5']);
    for (const event of seen) expect(event.type).toBe((event.data as { type: string }).type);
  });
});

describe('framing', () => {
  it('writes each line of a whole event’s data as a `data:` line, and keeps fields on one line', () => {
    const text = framed(
      { framing: 'sse', wholeEvent: true },
      { event: 'log\nline', data: 'first\nsecond', retry: 1000 },
      6,
      undefined,
    );
    expect(text).toBe('event: log line\nid: 7\nretry: 1000\ndata: first\ndata: second\n\n');
    expect(parseEvents(text)[0]?.data).toBe('first\nsecond');
  });

  it('writes RS before a JSON text sequence’s record and LF after, and a JSON Line with LF', () => {
    expect(framed({ framing: 'json-seq', wholeEvent: false }, { n: 1 }, 0, undefined)).toBe(
      '\u001e{"n":1}\n',
    );
    expect(framed({ framing: 'jsonl', wholeEvent: false }, [1, 2], 0, undefined)).toBe('[1,2]\n');
  });
});
