import type { OpenAPIV3_1 } from 'openapi-types';
import type { SchemaObject } from './load.js';
import { essenceOf } from './media-types.js';

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
 * have none, the media type's `schema` read as one item (as descriptions before 3.2 write their
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

/** A sequential media type a response documents, with the schema of one of its items. */
export interface StreamMedia {
  /** As the document writes it: `text/event-stream`. */
  type: string;
  framing: Exclude<StreamFraming, 'multipart'>;
  /** One item's schema (`{}` when the document says nothing of it). */
  itemSchema: SchemaObject;
  /**
   * For Server-Sent Events, whether an item is a whole event (3.2's way: an object of `data`,
   * and `event`, `id`, `retry`), rather than the event's `data` (3.0 and 3.1's way).
   */
  wholeEvent: boolean;
}

/** The fields of a Server-Sent Event (WHATWG HTML §9.2.6). */
const EVENT_FIELDS = new Set(['data', 'event', 'id', 'retry']);

/**
 * The sequential media types of a response that items can be made for, in the document's
 * order: every one but `multipart/mixed`, whose parts are of any media type.
 * @example streamMediaOf(chat.responses['200'])[0]?.framing // 'sse'
 */
export function streamMediaOf(response: OpenAPIV3_1.ResponseObject | undefined): StreamMedia[] {
  const found: StreamMedia[] = [];
  for (const [type, media] of Object.entries(response?.content ?? {})) {
    const framing = framingOf(type);
    if (!framing || framing === 'multipart') continue;
    const itemSchema = itemSchemaOf(type, media as StreamMediaObject) ?? {};
    const wholeEvent =
      framing === 'sse' &&
      (media as StreamMediaObject).itemSchema !== undefined &&
      isWholeEvent(itemSchema);
    found.push({ type, framing, itemSchema, wholeEvent });
  }
  return found;
}

/** An object schema whose properties are an event's fields, `data` among them. */
function isWholeEvent(schema: SchemaObject): boolean {
  const names = Object.keys(schema.properties ?? {});
  return names.includes('data') && names.every((name) => EVENT_FIELDS.has(name));
}

/**
 * The property an item names its kind in, where its schema says which kinds there are: `type`
 * or `event`, with a `const` or an `enum`, in the schema or in one of its `anyOf`, `oneOf` or
 * `allOf` arms (events typed by a name: `type: response.created`). An SSE event is named
 * after it.
 * @example kindPropertyOf({ properties: { type: { const: 'delta' } } }) // 'type'
 */
export function kindPropertyOf(schema: SchemaObject): 'type' | 'event' | undefined {
  const arms = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  for (const name of ['type', 'event'] as const) {
    for (const arm of arms as SchemaObject[]) {
      const property = arm.properties?.[name] as SchemaObject | undefined;
      if (property && (property.const !== undefined || property.enum !== undefined)) return name;
    }
  }
  return undefined;
}
