// The answer check stage: the answer given the headers its response requires, checked against
// the spec and made ready to send, or the stream the request asked for, its head checked now and
// its events as they go out.
import { randomUUID } from 'node:crypto';
import type { SchemaObject } from '../../openapi/load.js';
import { jsonSchemaOf, responseFor, type Operation } from '../../openapi/operations.js';
import type { DataGenerator } from '../../openapi/sample.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import {
  CheckedJson,
  CheckedList,
  RecordList,
  RecordTexts,
  mergedHeaders,
  type Answer,
  type CheckedAnswer,
  type Reply,
} from '../../vocabulary/answer.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { MockRequest } from '../../vocabulary/request.js';
import type { Exchange, MockCoreOptions, MountedApi } from '../mock-core.js';
import { entityTagOf } from '../resources/entity-tags.js';
import type { TurnBudget } from '../turn-budget.js';

/** A promise only when the check is (a large list checked in slices). */
export function checkedReply(
  check: MockCoreOptions['checkAnswer'],
  api: MountedApi,
  request: MockRequest,
  operation: Operation,
  answer: Answer,
  exchange: Exchange,
): Reply | Promise<Reply> {
  const { streamed } = exchange;
  const stream =
    streamed &&
    api.streams?.answer(operation, streamed, answer, exchange.preferences ?? {}, exchange.cut);
  if (stream) {
    const head = check(operation, stream.head, api.headersOf(operation));
    const streamed = (checked: CheckedAnswer): Reply => ({
      answer: { ...checked, stream: stream.stream },
    });
    return head instanceof Promise ? head.then(streamed) : streamed(head);
  }
  // The operation's own headers under the answer's, merged once, by the check.
  const checked = check(operation, answer, api.headersOf(operation));
  return checked instanceof Promise
    ? checked.then((done) => settled(api, request, operation, done))
    : settled(api, request, operation, checked);
}

/** The checked answer, in XML when the client prefers the XML its operation documents. */
function settled(
  api: MountedApi,
  request: MockRequest,
  operation: Operation,
  done: CheckedAnswer,
): Reply {
  return { answer: api.inXml ? api.inXml(request, operation, done) : done };
}

/** One header a response requires, and how the mock gives it when the handler did not. */
interface DeclaredHeader {
  readonly name: string;
  readonly lower: string;
  /** A value made for it: fresh each time (a request id), or made once; none for what only the handler knows. */
  readonly make: ((body: unknown) => string) | undefined;
}

/** Headers only the handler can give a meaning to: an answer that requires one and lacks it breaks the spec. */
const BOUND = new Set(['location', 'link', 'content-location']);
/** Headers the HTTP layer writes, which OpenAPI says to ignore when a response declares them. */
const IGNORED = new Set(['content-type', 'content-length', 'transfer-encoding']);

/**
 * Fills in the headers a response documents that an answer lacks, and refuses one without a
 * header it requires, as the answer check refuses a body without a required property: an
 * `ETag` is the strong tag of the body, a `Location` or `Link` must come from the handler (it
 * alone knows the record and the page), any other header (rate limits, request ids) is a value
 * valid against its schema, a UUID made fresh for each answer. Planned once per operation and
 * status; an operation whose answers document no header costs one map look-up.
 * @throws {ApiError} 500 `invalid_response` for a required header the answer lacks and the mock cannot make.
 * @example withHeaders(getItem, { status: 200, body: item }).headers // { ETag: '"…"' }
 */
export function createAnswerHeaders(
  generator: DataGenerator,
): (operation: Operation, answer: Answer) => Answer {
  const plans = new WeakMap<Operation, Map<number, readonly DeclaredHeader[]>>();

  function planOf(operation: Operation, status: number): readonly DeclaredHeader[] {
    let byStatus = plans.get(operation);
    if (!byStatus) plans.set(operation, (byStatus = new Map()));
    let plan = byStatus.get(status);
    if (!plan) byStatus.set(status, (plan = declaredHeaders(operation, status, generator)));
    return plan;
  }

  return function withHeaders(operation, answer) {
    const plan = planOf(operation, answer.status);
    if (plan.length === 0) return answer;
    const given = new Set(Object.keys(answer.headers ?? {}).map((name) => name.toLowerCase()));
    let added: Record<string, string> | undefined;
    const missing: string[] = [];
    for (const header of plan) {
      if (given.has(header.lower)) continue;
      if (header.make) (added ??= {})[header.name] = header.make(answer.body);
      else missing.push(`/headers must have required header '${header.name}'`);
    }
    if (missing.length > 0) throw errors.invalidResponse(missing);
    return added ? { ...answer, headers: { ...answer.headers, ...added } } : answer;
  };
}

function declaredHeaders(
  operation: Operation,
  status: number,
  generator: DataGenerator,
): readonly DeclaredHeader[] {
  const headers = responseFor(operation, status)?.response.headers ?? {};
  const plan: DeclaredHeader[] = [];
  for (const [name, declared] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    // An optional header is the handler's to give (an ETag, a Link): none is made up.
    if (IGNORED.has(lower) || !('required' in declared) || declared.required !== true) continue;
    const schema = ('schema' in declared ? declared.schema : undefined) as SchemaObject | undefined;
    plan.push({ name, lower, make: BOUND.has(lower) ? undefined : maker(lower, schema) });
  }
  return plan;

  function maker(lower: string, schema: SchemaObject | undefined): (body: unknown) => string {
    if (lower === 'etag')
      return (body) => entityTagOf(body instanceof CheckedJson ? body.bytes.toString() : body);
    if (schema?.format === 'uuid') return () => randomUUID();
    let made: string | undefined;
    return () => (made ??= asHeader(schema ? generator.value(schema, `/headers/${lower}`) : ''));
  }
}

/** A generated value as a header field writes it. */
function asHeader(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(String).join(', ');
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The headers of an operation that has none of its own. */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** A list this short is checked in one go, its records' JSON being cached after their first check. */
const SHORT_LIST = 64;

/**
 * Checks a handler's answer against the response schema the spec gives its operation for that
 * status, and makes it ready to send: a mock answer that breaks the spec becomes a 500
 * `invalid_response` naming the problem, never a wrong answer. A list is checked in slices
 * that share the turn budget with every other list, so that a list of any size never holds
 * the process for long; its records' JSON is cached by their serializer.
 * @throws {ApiError} 500 `invalid_response`
 * @example await checkAnswer(operation, { status: 200, body: [{ id: 1, name: 'Dog' }] })
 */
export function createAnswerChecker(
  compiler: SchemaCompiler,
  budget: TurnBudget,
): (
  operation: Operation,
  answer: Answer,
  base?: Readonly<Record<string, string>>,
) => CheckedAnswer | Promise<CheckedAnswer> {
  /** The headers of a frozen set (an operation's own) with the JSON Content-Type, made once each. */
  const typed = new WeakMap<Readonly<Record<string, string>>, Readonly<Record<string, string>>>();
  /**
   * The last short list checked with each serializer, and its records: the next list of the
   * same records, in the same order (records are frozen, so the same object is the same JSON),
   * is that list again, its bytes joined once.
   */
  const lastLists = new WeakMap<
    RecordList['serialize'],
    { records: RecordList['records']; list: CheckedList }
  >();

  /** The last list of stored texts checked with each serializer, and the array it was made of. */
  const lastTexts = new WeakMap<
    RecordTexts['shownBy'],
    { texts: RecordTexts['texts']; list: CheckedList }
  >();

  /** Whether a set of headers names a Content-Type, in any case. */
  const namesType = (headers: Readonly<Record<string, string>>) =>
    Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');

  /**
   * The headers of an answer with a body: the operation's (`base`, frozen), the answer's own
   * over them, and a Content-Type at least, JSON's unless one is given. Shared headers alone
   * (the operation's, or frozen ones of the answer's own) get theirs made once.
   */
  function withContentType(
    base: Readonly<Record<string, string>>,
    own: Readonly<Record<string, string>> | undefined,
  ): Readonly<Record<string, string>> {
    if (own === undefined) return typedOnce(base);
    if (base === NO_HEADERS && Object.isFrozen(own)) return typedOnce(own);
    const headers = mergedHeaders(base, own);
    if (!namesType(base) && !namesType(own)) headers['Content-Type'] = JSON_TYPE;
    return headers;
  }

  /** Shared (frozen) headers with a Content-Type, JSON's unless they name one: made once each. */
  function typedOnce(shared: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    let headers = typed.get(shared);
    if (!headers) {
      headers = mergedHeaders(shared, namesType(shared) ? {} : { 'Content-Type': JSON_TYPE });
      typed.set(shared, Object.freeze(headers));
    }
    return headers;
  }

  /** A promise only for a long list, checked in slices. */
  return function checkAnswer(operation, answer, base = NO_HEADERS) {
    const { status, body } = answer;
    if (body === undefined)
      return { status, headers: mergedHeaders(base, answer.headers), body: undefined };
    const headers = withContentType(base, answer.headers);
    if (body instanceof CheckedJson || body instanceof CheckedList)
      return { status, headers, body };
    if (body instanceof RecordList)
      // A short list is checked at once: the slices of a long one cost more than it takes.
      return body.records.length <= SHORT_LIST
        ? { status, headers, body: checkShortList(body) }
        : checkList(body).then((list) => ({ status, headers, body: list }));
    if (body instanceof RecordTexts) {
      // The store's array of texts is the same until its next write: so is the checked list.
      const last = lastTexts.get(body.shownBy);
      if (last?.texts === body.texts) return { status, headers, body: last.list };
      const keep = (list: CheckedList) => {
        lastTexts.set(body.shownBy, { texts: body.texts, list });
        return { status, headers, body: list };
      };
      return body.texts.length <= SHORT_LIST
        ? keep(checkTexts(body, undefined))
        : checkTexts(body, budget).then(keep);
    }
    const schema = jsonSchemaOf(responseFor(operation, status)?.response);
    if (schema) {
      const problems = compiler.response(schema)(body, '/response');
      if (problems.length > 0) throw errors.invalidResponse(problems);
    }
    return { status, headers, body: new CheckedJson(Buffer.from(JSON.stringify(body))) };
  };

  function checkShortList({ records, serialize }: RecordList): CheckedList {
    const last = lastLists.get(serialize);
    if (last && sameRecords(last.records, records)) return last.list;
    const list = new CheckedList(records.map((record, i) => serialize(record, i)));
    lastLists.set(serialize, { records, list });
    return list;
  }

  /**
   * Every record is checked before the first byte is sent (a record that breaks the spec must
   * still turn the answer into a 500, which is impossible once the first bytes are out), so
   * that the answer has a Content-Length.
   */
  async function checkList(list: RecordList): Promise<CheckedList> {
    const { records } = list;
    const parts = new Array<Buffer>(records.length);
    for (let i = 0; i < records.length;) {
      const done = await budget.slice();
      const started = performance.now();
      try {
        do {
          const bytes = list.serialize(records[i] as never, i);
          parts[i] = bytes;
          i++;
        } while (i < records.length && ((i & 255) !== 0 || !budget.spent(started)));
      } finally {
        done();
      }
    }
    return new CheckedList(parts);
  }
}

/**
 * A list of stored texts, each checked (or remembered as checked) before the first byte is
 * sent, as `checkList`'s records, in slices of the turn budget when one is given. When every
 * record is shown as it is stored, the answer's parts are the store's own array of texts: a
 * list being sent holds no copy of it, however many clients are sent it (and however slowly
 * they read).
 */
function checkTexts(list: RecordTexts, budget: TurnBudget): Promise<CheckedList>;
function checkTexts(list: RecordTexts, budget: undefined): CheckedList;
function checkTexts(
  { texts, serialize }: RecordTexts,
  budget: TurnBudget | undefined,
): CheckedList | Promise<CheckedList> {
  let shown: string[] | undefined;
  let i = 0;
  const step = (): void => {
    const text = serialize(i);
    if (text !== undefined && !shown) {
      shown = [];
      for (let j = 0; j < i; j++) shown.push(texts.at(j));
    }
    shown?.push(text ?? texts.at(i));
    i++;
  };
  const result = () => (shown ? new CheckedList(shown) : new CheckedList(texts));
  if (!budget) {
    while (i < texts.length) step();
    return result();
  }
  return (async () => {
    while (i < texts.length) {
      const done = await budget.slice();
      const started = performance.now();
      try {
        do step();
        while (i < texts.length && ((i & 255) !== 0 || !budget.spent(started)));
      } finally {
        done();
      }
    }
    return result();
  })();
}

/** Whether two lists hold the same record objects in the same order. */
function sameRecords(a: RecordList['records'], b: RecordList['records']): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
