import { essenceOf } from '../../openapi/media-types.js';
import { responseFor, type Operation } from '../../openapi/operations.js';
import type { SchemaCheck, SchemaCompiler } from '../../openapi/schemas.js';
import {
  checkedValues,
  streamReader,
  type EventFraming,
  type StreamItem,
} from '../../openapi/stream-events.js';
import { framingOf, itemSchemaOf, type StreamMediaObject } from '../../openapi/streams.js';
import type { Breach } from './request-rules.js';

/** The checks of one streamed answer, fed its bytes as they pass. */
export interface StreamCheck {
  /** What the items this chunk completes break (rule `stream-event`, `event <n>: ...`). */
  push(chunk: Uint8Array): Breach[];
  /** What the end of the stream breaks: an item left unfinished. */
  end(): Breach[];
}

/**
 * Checks streamed answers item by item as they pass (the proxy forwards each chunk at once and
 * keeps nothing of a stream): the framing of its media type (SSE, JSON Lines / NDJSON, JSON
 * text sequences), and each item against the item schema the operation documents for the
 * answer's status and media type (3.2 `itemSchema`, else its `schema` read as one item).
 * @example createStreamRules(compiler)(chat, 200, 'text/event-stream')?.push(chunk) // [{ rule: 'stream-event', message: 'event 3: ...' }]
 */
export function createStreamRules(
  compiler: SchemaCompiler,
): (
  operation: Operation,
  status: number,
  contentType: string | undefined,
) => StreamCheck | undefined {
  return (operation, status, contentType) => {
    if (contentType === undefined) return undefined;
    const framing = framingOf(contentType);
    if (framing === undefined || framing === 'multipart') return undefined;
    const content = (responseFor(operation, status)?.response.content ?? {}) as Record<
      string,
      StreamMediaObject
    >;
    const essence = essenceOf(contentType);
    const type = Object.keys(content).find((key) => essenceOf(key) === essence);
    const media = type === undefined ? undefined : content[type];
    const schema = media && type !== undefined ? itemSchemaOf(type, media) : undefined;
    const check = schema === undefined ? undefined : compiler.response(schema);
    return itemChecks(framing, check, media?.itemSchema !== undefined);
  };
}

function itemChecks(
  framing: EventFraming,
  check: SchemaCheck | undefined,
  itemSchema: boolean,
): StreamCheck {
  const reader = streamReader(framing);
  const judge = (items: StreamItem[]): Breach[] => {
    const found: Breach[] = [];
    for (const item of items) {
      if (item.kind === 'malformed') {
        found.push({ rule: 'stream-event', message: `event ${item.index}: ${item.message}` });
        continue;
      }
      if (!check) continue;
      const values = checkedValues(item, framing, itemSchema);
      let problems: string[] = [];
      for (const value of values) {
        problems = check(value, '/event');
        if (problems.length === 0) break;
      }
      for (const problem of problems)
        found.push({ rule: 'stream-event', message: `event ${item.index}: ${problem}` });
    }
    return found;
  };
  return { push: (chunk) => judge(reader.push(chunk)), end: () => judge(reader.end()) };
}
