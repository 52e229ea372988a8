// The one reading of streamed answers (src/openapi/stream-events.ts, which the proxy and the
// contract suite import): Server-Sent Events as the WHATWG standard
// parses them, JSON Lines / NDJSON, JSON text sequences (RFC 7464), fed in any chunks.
import { describe, expect, it } from 'vitest';
import {
  checkedValues,
  streamReader,
  type EventFraming,
  type StreamItem,
} from '../src/openapi/stream-events.js';

/** Every item of `text` read in chunks of `size` characters (or bytes, when `bytes`). */
function readAll(framing: EventFraming, text: string, size: number, bytes = false): StreamItem[] {
  const reader = streamReader(framing);
  const items: StreamItem[] = [];
  const whole = bytes ? new TextEncoder().encode(text) : text;
  for (let at = 0; at < whole.length; at += size)
    items.push(...reader.push(whole.slice(at, at + size)));
  items.push(...reader.end());
  return items;
}

const brief = (items: StreamItem[]) =>
  items.map((item) =>
    item.kind === 'event'
      ? { index: item.index, text: item.text, event: item.event, id: item.id }
      : { index: item.index, malformed: item.message },
  );

describe('Server-Sent Events', () => {
  const stream =
    '\ufeff: comment\r\nevent: tick\r\nid: 7\r\ndata: {"n":1}\r\n\r\n' +
    'data:first line\rdata: second line\r\rretry: 3000\nevent: done\ndata\n\n' +
    'id: 8\n\n' +
    'data: é\n\n';

  it.each([1, 2, 3, 7, 1000])('reads the same events in chunks of %i characters', (size) => {
    expect(brief(readAll('sse', stream, size))).toEqual([
      { index: 1, text: '{"n":1}', event: 'tick', id: '7' },
      { index: 2, text: 'first line\nsecond line', event: undefined, id: '7' },
      { index: 3, text: '', event: 'done', id: '7' },
      { index: 4, text: 'é', event: undefined, id: '8' },
    ]);
  });

  it('reads a character split across chunks of bytes', () => {
    expect(brief(readAll('sse', stream, 1, true))).toHaveLength(4);
    expect(readAll('sse', 'data: é€\n\n', 1, true)).toMatchObject([{ text: 'é€' }]);
  });

  it('gives the JSON of an event, its retry, and says when the stream ends inside an event', () => {
    const items = readAll('sse', 'retry: 10\ndata: {"a":1}\n\ndata: [DONE]\n\ndata: cut', 5);
    expect(items).toMatchObject([
      { kind: 'event', value: { a: 1 }, json: true, retry: 10 },
      { kind: 'event', text: '[DONE]', json: false },
      { kind: 'malformed', index: 3, message: expect.stringMatching(/ended inside an event/) },
    ]);
  });

  it('reports an event longer than its limit once, and reads the next', () => {
    const reader = streamReader('sse', 100);
    const items = [
      ...reader.push(`data: ${'x'.repeat(80)}\n`),
      ...reader.push(`data: ${'x'.repeat(80)}\n`),
      ...reader.push('\ndata: ok\n\n'),
      ...reader.end(),
    ];
    expect(brief(items)).toEqual([
      { index: 1, malformed: 'an event longer than 100 bytes, not read' },
      { index: 2, text: 'ok', event: undefined, id: undefined },
    ]);
  });
});

describe('JSON Lines and NDJSON', () => {
  it.each([1, 4, 100])('reads a line at a time in chunks of %i, blank lines skipped', (size) => {
    const items = readAll('jsonl', '{"a":1}\r\n\n[2]\nnope\n"last"', size);
    expect(brief(items)).toEqual([
      { index: 1, text: '{"a":1}', event: undefined, id: undefined },
      { index: 2, text: '[2]', event: undefined, id: undefined },
      { index: 3, malformed: 'a line that is not JSON: "nope"' },
      { index: 4, text: '"last"', event: undefined, id: undefined },
    ]);
  });
});

describe('JSON text sequences (RFC 7464)', () => {
  it.each([1, 3, 100])('reads each record in chunks of %i, a record cut short said so', (size) => {
    const items = readAll('json-seq', '\u001e{"a":1}\n\u001e{\n "b": 2\n}\n\u001e{"c"', size);
    expect(brief(items)).toEqual([
      { index: 1, text: '{"a":1}', event: undefined, id: undefined },
      { index: 2, text: '{\n "b": 2\n}', event: undefined, id: undefined },
      { index: 3, malformed: 'a record without its final LF (cut short?): "{\\"c\\""' },
    ]);
  });

  it('gives a record as soon as its LF has come, before the next RS', () => {
    const reader = streamReader('json-seq');
    expect(reader.push('\u001e{"a":1}\n')).toMatchObject([{ value: { a: 1 } }]);
    expect(reader.push('\u001e7')).toEqual([]);
    expect(reader.end()).toMatchObject([{ kind: 'malformed', index: 2 }]);
  });
});

describe('what an item is checked as', () => {
  const event = { kind: 'event', index: 1, text: '{"n":1}', value: { n: 1 }, json: true } as const;
  it('is an SSE event object under 3.2 itemSchema, its data as sent or parsed', () => {
    expect(checkedValues({ ...event, event: 'tick' }, 'sse', true)).toEqual([
      { event: 'tick', data: '{"n":1}' },
      { event: 'tick', data: { n: 1 } },
    ]);
  });
  it("is an SSE event's data under a 3.0 or 3.1 schema, and [DONE] is none", () => {
    expect(checkedValues(event, 'sse', false)).toEqual([{ n: 1 }]);
    expect(checkedValues({ ...event, text: '[DONE]', json: false }, 'sse', false)).toEqual([]);
  });
  it('is the value of a line or a record', () => {
    expect(checkedValues(event, 'jsonl', true)).toEqual([{ n: 1 }]);
  });
});
