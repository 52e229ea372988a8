// The items of a streamed answer, read as the bytes arrive: by the mock's proxy and by the
// contract suite, which imports this module (contract-tests/tsconfig.build.json says how).

/** How a stream separates its items (`multipart/mixed` is not read item by item). */
export type EventFraming = 'sse' | 'jsonl' | 'json-seq';

/** One item of a stream, as its framing gives it, numbered from 1 in the order it came. */
export interface StreamEvent {
  readonly kind: 'event';
  readonly index: number;
  /** An SSE event's `data` (its lines joined by `\n`), a JSON Lines line, a JSON text sequence's record. */
  readonly text: string;
  /** The JSON value the text holds; undefined when it is not JSON (an SSE `data` may be any text). */
  readonly value: unknown;
  readonly json: boolean;
  /** SSE only: the `event` field (undefined: the default, `message`), `id` and `retry`. */
  readonly event?: string;
  readonly id?: string;
  readonly retry?: number;
}

/** An item the framing cannot read (a line that is not JSON, a record cut short). */
interface MalformedEvent {
  readonly kind: 'malformed';
  readonly index: number;
  readonly message: string;
}

export type StreamItem = StreamEvent | MalformedEvent;

/** Reads a stream incrementally: each chunk gives the items it completes, `end` the rest. */
export interface StreamReader {
  push(chunk: Uint8Array | string): StreamItem[];
  end(): StreamItem[];
  /** How many items (events and malformed ones) it has given. */
  readonly count: number;
}

/** The largest item kept while it arrives: a longer one is reported, not held (1 MiB). */
const ITEM_LIMIT = 1024 * 1024;

/**
 * A reader of one stream: Server-Sent Events as the WHATWG HTML standard parses them (§9.2.6:
 * lines end in CRLF, LF or CR, a leading BOM is dropped, `:` starts a comment, an event is
 * dispatched at an empty line and only if it has data, what is pending at the end is dropped),
 * JSON Lines / NDJSON (one JSON value a line, blank lines skipped, the last line's newline
 * optional), JSON text sequences (RFC 7464: each record RS, JSON text, LF; one without its LF
 * is cut short). It holds only the item under way, never the stream.
 * @example const reader = streamReader('jsonl'); reader.push('{"a":1}\n{"a"') // [{ kind: 'event', index: 1, value: { a: 1 }, ... }]
 */
export function streamReader(framing: EventFraming, limit = ITEM_LIMIT): StreamReader {
  const decoder = new TextDecoder('utf-8');
  let count = 0;
  let pending = '';
  /** Past the limit: the rest of the item under way is skipped up to its end. */
  let skipping = false;
  let started = false;
  const read = framing === 'sse' ? sseFields() : undefined;

  const malformed = (message: string): MalformedEvent => ({
    kind: 'malformed',
    index: ++count,
    message,
  });
  const parsed = (text: string, extra: Partial<StreamEvent> = {}): StreamEvent => {
    const value = parseJson(text);
    return {
      kind: 'event',
      index: ++count,
      text,
      value: value.ok ? value.value : undefined,
      json: value.ok,
      ...extra,
    };
  };

  /** A JSON Lines line or a JSON text sequence's record: its JSON value, or why it has none. */
  const jsonItem = (text: string, what: string): StreamItem =>
    parseJson(text).ok ? parsed(text) : malformed(`${what} that is not JSON: ${shorten(text)}`);

  /** The complete lines of `pending` (for SSE and JSON Lines), leaving the unfinished one. */
  function lines(final: boolean): string[] {
    const found: string[] = [];
    let start = 0;
    for (let at = 0; at < pending.length; at++) {
      const char = pending[at];
      if (char !== '\n' && char !== '\r') continue;
      // A CR last in the chunk may be the first half of a CRLF: wait for the next chunk.
      if (char === '\r' && at === pending.length - 1 && !final) break;
      found.push(pending.slice(start, at));
      if (char === '\r' && pending[at + 1] === '\n') at++;
      start = at + 1;
    }
    pending = pending.slice(start);
    if (final && pending !== '') {
      found.push(pending);
      pending = '';
    }
    return found;
  }

  function sse(final: boolean): StreamItem[] {
    const items: StreamItem[] = [];
    for (const line of lines(false)) {
      if (skipping) {
        // An event too large to hold ends, as any event does, at an empty line.
        if (line === '') skipping = false;
        continue;
      }
      const dispatched = read?.line(line);
      if (dispatched) items.push(parsed(dispatched.data, dispatched.fields));
    }
    if (!skipping && (read?.size ?? 0) + pending.length > limit) {
      items.push(malformed(`an event longer than ${limit} bytes, not read`));
      read?.reset();
      pending = '';
      skipping = true;
    }
    if (final && !skipping && (pending !== '' || read?.holding()))
      items.push(malformed('the stream ended inside an event (no empty line after it)'));
    return items;
  }

  function jsonl(final: boolean): StreamItem[] {
    const items: StreamItem[] = [];
    for (const line of lines(final)) {
      if (skipping) {
        skipping = false;
        continue;
      }
      if (line.trim() === '') continue;
      items.push(jsonItem(line, 'a line'));
    }
    if (!skipping && pending.length > limit) {
      items.push(malformed(`a line longer than ${limit} bytes, not read`));
      pending = '';
      skipping = true;
    }
    return items;
  }

  function jsonSeq(final: boolean): StreamItem[] {
    const items: StreamItem[] = [];
    // Records start at RS; a record whose LF has come and whose text parses is complete now.
    for (;;) {
      const next = pending.indexOf('\u001e', 1);
      if (!pending.startsWith('\u001e')) {
        if (pending === '') break;
        const cut = next === -1 ? pending.length : next;
        const stray = pending.slice(0, cut);
        if (stray.trim() !== '')
          items.push(malformed(`text outside a record (no RS before it): ${shorten(stray)}`));
        pending = pending.slice(cut);
        continue;
      }
      const record = next === -1 ? pending.slice(1) : pending.slice(1, next);
      if (next === -1 && !final) {
        const value = record.endsWith('\n') ? parseJson(record) : { ok: false as const };
        if (!value.ok) {
          if (record.length > limit && !skipping) {
            items.push(malformed(`a record longer than ${limit} bytes, not read`));
            skipping = true;
          }
          if (skipping) pending = '\u001e';
          break;
        }
      }
      pending = next === -1 ? '' : pending.slice(next);
      if (skipping) {
        skipping = false;
        continue;
      }
      // RFC 7464 §2.4: a record without its LF may have been cut short.
      if (!record.endsWith('\n')) {
        items.push(malformed(`a record without its final LF (cut short?): ${shorten(record)}`));
        continue;
      }
      items.push(jsonItem(record.trim(), 'a record'));
    }
    return items;
  }

  function take(text: string, final: boolean): StreamItem[] {
    pending += text;
    if (!started && pending !== '') {
      started = true;
      if (pending.startsWith('\ufeff')) pending = pending.slice(1);
    }
    if (framing === 'sse') return sse(final);
    if (framing === 'jsonl') return jsonl(final);
    return jsonSeq(final);
  }

  return {
    push: (chunk) =>
      take(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }), false),
    end: () => take(decoder.decode(), true),
    get count() {
      return count;
    },
  };
}

/** The field parser of Server-Sent Events: lines in, an event out at each empty line. */
function sseFields() {
  let data: string[] = [];
  let size = 0;
  let event: string | undefined;
  let id: string | undefined;
  let retry: number | undefined;
  return {
    get size() {
      return size;
    },
    holding: () => data.length > 0,
    reset() {
      data = [];
      size = 0;
      event = undefined;
    },
    line(line: string): { data: string; fields: Partial<StreamEvent> } | undefined {
      if (line === '') {
        const held = data;
        const fields = {
          ...(event === undefined ? {} : { event }),
          ...(id === undefined ? {} : { id }),
          ...(retry === undefined ? {} : { retry }),
        };
        data = [];
        size = 0;
        event = undefined;
        retry = undefined;
        // The last event id persists from event to event, as a browser keeps it.
        return held.length === 0 ? undefined : { data: held.join('\n'), fields };
      }
      if (line.startsWith(':')) return undefined;
      const colon = line.indexOf(':');
      const name = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (name === 'data') {
        data.push(value);
        size += value.length + 1;
      } else if (name === 'event') event = value;
      else if (name === 'id' && !value.includes('\u0000')) id = value;
      else if (name === 'retry' && /^\d+$/.test(value)) retry = Number(value);
      return undefined;
    },
  };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function shorten(text: string): string {
  const trimmed = text.trim();
  return JSON.stringify(trimmed.length > 60 ? `${trimmed.slice(0, 60)}...` : trimmed);
}

/**
 * The values an item is checked as against the schema of one item, any of which may pass. An
 * SSE event under 3.2's `itemSchema` is the event itself (`{ data, event, id, retry }`, as the
 * spec's examples write it), its `data` as sent or as the JSON it holds (a schema may describe
 * either); under a 3.0 or 3.1 `schema` read as one item (as streams were written before 3.2), only its
 * data, parsed where it is JSON, and the `[DONE]` such streams end with is no item. A JSON Lines
 * line or a record is its value.
 * @example checkedValues({ kind: 'event', text: '{"a":1}', value: { a: 1 }, json: true, index: 1 }, 'sse', true) // [{ data: '{"a":1}' }, { data: { a: 1 } }]
 */
export function checkedValues(
  item: StreamEvent,
  framing: EventFraming,
  itemSchema: boolean,
): unknown[] {
  if (framing !== 'sse') return [item.value];
  if (!itemSchema) return item.text === '[DONE]' ? [] : [item.json ? item.value : item.text];
  const fields = {
    ...(item.event === undefined ? {} : { event: item.event }),
    ...(item.id === undefined ? {} : { id: item.id }),
    ...(item.retry === undefined ? {} : { retry: item.retry }),
  };
  const raw = { ...fields, data: item.text };
  return item.json ? [raw, { ...fields, data: item.value }] : [raw];
}
