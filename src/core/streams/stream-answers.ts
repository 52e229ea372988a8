// Streamed answers: an operation that documents a sequential media type (Server-Sent Events,
// JSON Lines, JSON text sequences) answers a stream of events when the request asks for one.
import Negotiator from 'negotiator';
import type { SchemaObject } from '../../openapi/load.js';
import { isJsonMediaType } from '../../openapi/media-types.js';
import { responseFor, type Operation } from '../../openapi/operations.js';
import type { DataGenerator } from '../../openapi/sample.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import { kindPropertyOf, streamMediaOf, type StreamMedia } from '../../openapi/streams.js';
import {
  CheckedStream,
  plainAnswer,
  type Answer,
  type StreamCut,
} from '../../vocabulary/answer.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { MockRequest } from '../../vocabulary/request.js';
import { headerValue } from '../headers.js';
import type { Preferences } from '../scenarios/prefer.js';
import { framed } from './framing.js';
import { isJsonObject } from '../../vocabulary/record.js';

/** Events a stream sends unless `Prefer: events=` says otherwise. */
const DEFAULT_EVENTS = 5;
/** The pause between events unless `Prefer: interval=` says otherwise, in milliseconds. */
const DEFAULT_INTERVAL_MS = 50;

/** What one operation streams: its success status and the sequential media types it documents. */
interface StreamPlan {
  status: number;
  media: readonly StreamMedia[];
  /** The JSON media type it documents beside them, if any. */
  json: string | undefined;
  /** What `Accept` is negotiated against: the JSON type first, then the streams. */
  offered: string[];
}

/** The streams of the operations of one API (see createStreamAnswers). */
export interface StreamAnswers {
  /**
   * The stream a request asks for: `Accept` prefers a sequential media type the operation
   * documents (or accepts one, where it documents no JSON), or, where it documents both, its
   * body's boolean `stream` is `true`. Undefined when it asks for none.
   */
  asked(request: MockRequest, operation: Operation, body: unknown): StreamMedia | undefined;
  /**
   * The handler's answer as a stream of `media`'s events: each made from the item schema,
   * checked against it and framed as it goes out; where the answer is a record the items can
   * hold (a job the stream follows), the last event is that record's state. The first event is
   * made now, so that a schema no event can be made for is a 500 before anything is sent.
   * Undefined when the answer is not the status the stream is documented for. `head` is the
   * answer without its body, whose headers are checked as any answer's.
   * @throws {ApiError} 500 `invalid_response` for a first event that breaks its schema.
   */
  answer(
    operation: Operation,
    media: StreamMedia,
    answer: Answer,
    preferences: Preferences,
    cut: StreamCut | undefined,
  ): { head: Answer; stream: CheckedStream } | undefined;
}

/**
 * The stream answers of an API's operations; undefined when none of them documents a stream,
 * so that an API without streams has nothing to ask on any request.
 * @example createStreamAnswers(operations, { compiler, generator })?.asked(request, chat, body)
 */
export function createStreamAnswers(
  operations: readonly Operation[],
  tools: { compiler: SchemaCompiler; generator: DataGenerator },
): StreamAnswers | undefined {
  const plans = new Map<Operation, StreamPlan>();
  for (const operation of operations) {
    const status = operation.successStatus;
    const response = responseFor(operation, status)?.response;
    const media = streamMediaOf(response);
    if (media.length === 0) continue;
    const json = Object.keys(response?.content ?? {}).find(isJsonMediaType);
    const offered = [...(json === undefined ? [] : [json]), ...media.map((one) => one.type)];
    plans.set(operation, { status, media, json, offered });
  }
  if (plans.size === 0) return undefined;
  const { compiler, generator } = tools;
  /** Streams made so far: each one's events come from seeds of their own. */
  let made = 0;

  function asked(
    request: MockRequest,
    operation: Operation,
    body: unknown,
  ): StreamMedia | undefined {
    const plan = plans.get(operation);
    if (!plan) return undefined;
    if (plan.json !== undefined && streamFlag(body)) {
      return plan.media.find((one) => one.framing === 'sse') ?? plan.media[0];
    }
    const accept = headerValue(request, 'accept');
    if (accept === undefined) return plan.json === undefined ? plan.media[0] : undefined;
    const chosen = new Negotiator({ headers: { accept } }).mediaType(plan.offered);
    return plan.media.find((one) => one.type === chosen);
  }

  function answer(
    operation: Operation,
    media: StreamMedia,
    given: Answer,
    preferences: Preferences,
    cut: StreamCut | undefined,
  ): { head: Answer; stream: CheckedStream } | undefined {
    const plan = plans.get(operation);
    if (!plan || given.status !== plan.status) return undefined;
    const count = preferences.events ?? DEFAULT_EVENTS;
    const intervalMs = preferences.interval ?? DEFAULT_INTERVAL_MS;
    const record = given.body === undefined ? undefined : plainAnswer(given).body;
    const item = itemMaker(media, record, generator.withSeed(generator.seed + 7919 * ++made));
    const check = compiler.response(media.itemSchema);
    const contentSchema = contentSchemaOf(media);
    const dataCheck = contentSchema && compiler.response(contentSchema);
    const kindProperty = media.wholeEvent ? undefined : kindPropertyOf(media.itemSchema);
    const event = (index: number): Buffer => {
      const value = item(index, count);
      const where = `/stream/${index}`;
      const problems = check(value, where);
      if (dataCheck) problems.push(...dataCheck(parsedData(value), `${where}/data`));
      if (problems.length > 0) throw errors.invalidResponse(problems);
      return Buffer.from(framed(media, value, index, kindProperty));
    };
    const first = count > 0 ? event(0) : undefined;
    const stream = new CheckedStream(
      count,
      intervalMs,
      (index) => (index === 0 && first ? first : event(index)),
      cut,
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(given.headers ?? {}))
      if (!BODY_HEADERS.has(name.toLowerCase())) headers[name] = value;
    headers['Content-Type'] = media.type;
    // A cache or a proxy that keeps a stream whole would hold every event back.
    headers['Cache-Control'] = 'no-cache';
    return { head: { status: given.status, headers }, stream };
  }

  return { asked, answer };
}

/** Headers of the JSON answer that say nothing true of a stream. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'etag', 'content-encoding']);

/** Whether a request body asks for a stream: a boolean `stream` set to true. */
function streamFlag(body: unknown): boolean {
  return (
    typeof body === 'object' && body !== null && (body as Record<string, unknown>).stream === true
  );
}

/**
 * Makes item `index` of `count`: generated from the item schema, with the identifying fields
 * of the record the stream is about (its `id`, a `…Id`), and the record itself last, where an
 * item can hold it (a job's progress ends with the job's state).
 */
function itemMaker(
  media: StreamMedia,
  record: unknown,
  generator: DataGenerator,
): (index: number, count: number) => unknown {
  const { itemSchema } = media;
  const dataSchema = media.wholeEvent
    ? ((itemSchema.properties?.data ?? {}) as SchemaObject)
    : undefined;
  const contentSchema = contentSchemaOf(media);
  const check = generator.compiler.response(itemSchema);
  const fits = (value: unknown) => check(value).length === 0;
  const contentCheck = contentSchema && generator.compiler.response(contentSchema);
  const fitsContent = (value: unknown) =>
    !contentCheck || contentCheck(parsedData(value)).length === 0;
  /** An item with `data` in place of its own (a whole event's `data`, or the item itself). */
  const holding = (item: unknown, data: unknown): unknown => {
    if (!dataSchema) return data;
    if (contentSchema) return { ...(item as object), data: JSON.stringify(data) };
    // Text of no documented shape holds no record.
    return dataSchema.type === 'string' ? item : { ...(item as object), data };
  };
  const dataOf = (item: unknown): unknown => {
    if (!dataSchema) return item;
    return contentSchema ? parsedData(item) : (item as { data?: unknown }).data;
  };
  const recordObject = isJsonObject(record) ? record : undefined;
  const steadyFields = steadyProperties(contentSchema ?? dataSchema ?? itemSchema);

  return (index, count) => {
    const where = `/stream/${index}`;
    let item = generator.withSeed(generator.seed + index).value(itemSchema, where);
    if (contentSchema)
      item = holding(item, generator.withSeed(generator.seed + index).value(contentSchema, where));
    if (dataSchema && isJsonObject(item) && 'id' in item) {
      // Ids in order, where the schema allows: a reconnecting client's Last-Event-ID says where it was.
      const ordered = { ...item, id: String(index + 1) };
      if (fits(ordered)) item = ordered;
    }
    if (!recordObject) return item;
    if (index === count - 1) {
      const last = holding(item, recordObject);
      if (last !== item && fits(last) && fitsContent(last)) return last;
    }
    const data = dataOf(item);
    if (!isJsonObject(data)) return item;
    // The record as it goes: its fields, but those that move (a state, a count) as made.
    for (const kept of [steadyFields, IDENTIFYING]) {
      const same = { ...data };
      for (const name of Object.keys(recordObject))
        if (name in same && kept.test(name)) same[name] = recordObject[name];
      const marked = holding(item, same);
      if (fits(marked) && fitsContent(marked)) return marked;
    }
    return item;
  };
}

/**
 * The properties of an item's schema that stay as the record has them while it moves on: its
 * identifiers, and every other but those of a state (an `enum`, a `const`) or a count (a number,
 * a boolean).
 */
function steadyProperties(schema: SchemaObject): { test(name: string): boolean } {
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  const moving = (property: SchemaObject | undefined): boolean => {
    if (!property) return true;
    if (property.enum !== undefined || property.const !== undefined) return true;
    const types = ([] as unknown[]).concat(property.type ?? []);
    return types.some((type) => type === 'number' || type === 'integer' || type === 'boolean');
  };
  return { test: (name) => IDENTIFYING.test(name) || !moving(properties[name]) };
}

/** The names of fields that identify a record: `id`, `jobId`, `job_id`. */
const IDENTIFYING = /^id$|Id$|_id$/;

/** The schema of a whole event's `data` written as JSON text (`contentSchema`), if it has one. */
function contentSchemaOf(media: StreamMedia): SchemaObject | undefined {
  if (!media.wholeEvent) return undefined;
  const data = media.itemSchema.properties?.data as
    (SchemaObject & { contentSchema?: SchemaObject }) | undefined;
  return data?.contentSchema;
}

/** A whole event's `data` read as JSON (undefined where it is not). */
function parsedData(item: unknown): unknown {
  const data = (item as { data?: unknown }).data;
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}
