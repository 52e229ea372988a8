import type { OpenAPIV3_1 } from 'openapi-types';
import type { SchemaObject } from './load.js';
import { essenceOf } from './operations.js';

/** How a sequential media type separates its items. */
export type StreamFraming = 'sse' | 'jsonl' | 'json-seq' | 'multipart';

/**
 * The sequential media types OpenAPI 3.2 names (§4.14.4): each answer is a stream of items,
 * framed as its own specification says. `application/x-ndjson` frames as JSON Lines.
 */
const FRAMING_OF: Readonly<Record<string, StreamFraming>> = {
  'text/event-stream': 'sse',
  'application/jsonl': 'jsonl',
  'application/x-ndjson': 'jsonl',
  'application/x-jsonlines': 'jsonl',
  'application/json-seq': 'json-seq',
  'multipart/mixed': 'multipart',
};

/**
 * How a media type streams its items; undefined when it is not a sequential one.
 * @example framingOf('text/event-stream; charset=utf-8') // 'sse'
 */
export function framingOf(mediaType: string): StreamFraming | undefined {
  return FRAMING_OF[essenceOf(mediaType)];
}

/** A media type object as 3.2 writes it: `itemSchema` beside `schema`. */
export type StreamMediaObject = OpenAPIV3_1.MediaTypeObject & { itemSchema?: SchemaObject };

/**
 * The schema of one item of a sequential media type: 3.2's `itemSchema`; in 3.0 and 3.1, which
 * have none, the media type's `schema` read as one item (as OpenAI's description writes its
 * `text/event-stream` answers). For SSE the item is the event's `data`, parsed as JSON where it
 * is JSON. Undefined for a media type that is not sequential, or says nothing of its items.
 * @example itemSchemaOf('application/jsonl', { itemSchema: { type: 'object' } }) // { type: 'object' }
 */
export function itemSchemaOf(
  mediaType: string,
  media: StreamMediaObject,
): SchemaObject | undefined {
  if (!framingOf(mediaType)) return undefined;
  if (media.itemSchema) return media.itemSchema;
  return media.schema as SchemaObject | undefined;
}
