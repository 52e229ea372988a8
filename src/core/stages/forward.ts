// The forward stage: the proxy's produce, with the answer check and record that fit it. A request
// the pipeline's request stages have checked goes on to the target, and the target's answer comes
// back as it arrives, checked as it passes (a stream item by item, any other body once it has
// gone by), then recorded.
import type { Readable } from 'node:stream';
import { CheckedJson, type CheckedAnswer, type Reply } from '../../vocabulary/answer.js';
import type { ApiError } from '../../vocabulary/errors.js';
import type { MockRequest } from '../../vocabulary/request.js';
import { isJsonMediaType } from '../../openapi/media-types.js';
import { type Operation } from '../../openapi/operations.js';
import {
  loggedAnswer,
  LOGGED_BODY_LIMIT,
  type LoggedAnswer,
  type RequestLog,
} from '../admin/request-log.js';
import type { Exchange, MockCore, OperationRoute, Route } from '../mock-core.js';
import type { ObservedAnswer } from '../proxy/answer-rules.js';
import type { RecordedWrite } from '../proxy/recorder.js';
import { requestAdvisories, requestBreaches, type Breach } from '../proxy/request-rules.js';
import type { StreamCheck } from '../proxy/stream-rules.js';
import type { ViolationLog, ViolationSide } from '../proxy/violations.js';
import type { SeenExchange } from '../traffic/har.js';
import { logEntry } from './record.js';

/** An answer larger than this (decoded) is passed on unchecked: the proxy keeps no more of one. */
const CHECKED_ANSWER_LIMIT = 8 * 1024 * 1024;

/** The fields of the target's answer, by lower-case name. */
type TargetHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** The target's answer as it arrives. */
interface TargetAnswer {
  status: number;
  headers: TargetHeaders;
  /** Its bytes as they come, content-coded as the target sent them: the adapter pipes them on. */
  body: Readable;
}

/** What the proxy logs: the violations (warn), what a request holds undescribed (info), a failing target (error). */
interface ProxyLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** A request as the proxy sends it on: its path below the base path, its bytes as they arrived. */
interface OutgoingRequest {
  method: string;
  /** The rest of the path after the base path, with the query: `/categories?limit=2`. */
  path: string;
  /** Header names and values in pairs, as they arrived. */
  rawHeaders: readonly string[];
  /** The body's bytes as they arrived (compressed, if they were); none without a body. */
  body: Buffer | undefined;
  /** The HTTP version the request came in (`1.1`), for the Via field the proxy adds. */
  httpVersion: string;
  signal: AbortSignal;
}

/** The real API behind the proxy (see http/forward.ts). */
export interface Target {
  send(request: OutgoingRequest): Promise<TargetAnswer>;
  /** What a failed send, or an answer broken off, is to the client: 502 or 504. */
  failure(err: unknown): ApiError;
}

/** The client left before its answer: nobody to answer. */
interface Gone {
  gone: true;
}

/** The target's answer on its way to the client, and what is seen of it once it has passed. */
interface Passing {
  target: TargetAnswer;
  passed: Promise<Seen | 'gone'>;
}

/** What the record stage keeps of a target's answer that has passed. */
interface Seen {
  response: LoggedAnswer;
  /** Its head and decoded body, for the HAR; none when it was cut or had no operation. */
  seen?: { headers: TargetHeaders; body: Buffer | undefined };
}

/** The proxy's settings of the forward stage, fixed at start-up. */
export interface ForwardOptions {
  /** The mock, whose request stages check each request and whose error stage shapes the proxy's own answers. */
  mock: MockCore;
  /** The mocked API's base path (`/v1`): what follows it goes to the target. */
  basePath: string;
  target: Target;
  /** Checks the target's answers against the spec (see createAnswerRules). */
  answerRules: (operation: Operation, answer: ObservedAnswer) => Breach[];
  /** Checks a streamed answer item by item as it passes (see createStreamRules). */
  streamRules?: (
    operation: Operation,
    status: number,
    contentType: string | undefined,
  ) => StreamCheck | undefined;
  /** A body's bytes decoded from its Content-Encoding, at most `limit` (see http/decode.ts). */
  decode(bytes: Buffer, encoding: string | undefined, limit: number): Buffer;
  violations: ViolationLog;
  /** Answer a request that breaks the spec with the mock's own error instead of forwarding it. */
  enforce: boolean;
  /** The largest request body, decoded. */
  bodyLimit: number;
  logger: ProxyLogger;
  /** The request log the admin API and the inspector read: each exchange goes in, as the mock's own do. */
  requestLog?: RequestLog;
  /** Called with each success answer of an operation that fit the spec, for `--record`. */
  onWrite?: (write: RecordedWrite) => Promise<unknown>;
  /** Called with each exchange once it has ended, whole, for `--har`. */
  onExchange?: (exchange: SeenExchange) => void;
}

/** A request under the proxy's base path, as the HTTP adapter hands it on: what only it knows. */
export interface ForwardedRequest {
  method: string;
  target: string;
  headers: MockRequest['headers'];
  rawHeaders: readonly string[];
  /** `1.1`: for the HAR. */
  httpVersion: string;
  route: Route;
  /** When it arrived (`performance.now()`). */
  started: number;
  /**
   * Reads its body as it arrived (content-coded), once; none without one.
   * @throws for a body it cannot read: too large, cut off.
   */
  read(): Promise<Buffer | undefined>;
  /** Aborted when the client leaves. */
  signal: AbortSignal;
}

/**
 * What the adapter sends: the proxy's own answer (an error), or the target's, whose body it
 * pipes to the client as it comes; none when the client left. `done` settles once the exchange
 * is checked and recorded, with the status the client got (none when the client left), for the
 * request line.
 */
export type Forwarded =
  | { answer: CheckedAnswer; done: Promise<number | undefined> }
  | { target: TargetAnswer; done: Promise<number | undefined> }
  | Gone;

/**
 * The proxy: the mock's pipeline (`MockCore.pipeline`) with `forward` as its produce stage.
 *
 *   route → credential → body (read as it arrived, then decoded) → validation, collecting
 *   refusals → [enforce: error answer] → forward → answer check as it passes → record
 *
 * What breaks the spec is logged at warn and listed in `violations`; it never changes what is
 * forwarded, unless `enforce` asks. A target that fails gives 502 or 504 in the spec's error
 * shape, which is no violation.
 * @example const forwarded = await forward(request); // { target: { status: 200, headers, body }, done }
 */
export function createForward(
  options: ForwardOptions,
): (request: ForwardedRequest) => Promise<Forwarded> {
  const { mock, logger, violations } = options;

  /** Lists the breaches as violations and logs them at warn, each once. */
  function note(
    fx: ForwardedRequest,
    side: ViolationSide,
    breaches: readonly Breach[],
    status: number,
  ): void {
    const operation = fx.route.kind === 'operation' ? fx.route.operation : undefined;
    // The same problem found twice (a field two `allOf` branches both check) is one violation.
    const seen = new Set<string>();
    for (const { rule, message } of breaches) {
      const key = `${rule}\n${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const violation = {
        method: fx.method,
        path: fx.target,
        status,
        side,
        rule,
        message,
        ...(operation ? { operation: operation.operationId } : {}),
      };
      violations.add(violation);
      logger.warn({ violation }, `${side} of ${nameOf(fx)} breaks the spec (${rule}): ${message}`);
    }
  }

  /** The record stage of an exchange: the request log's entry and the HAR's. */
  function record(
    fx: ForwardedRequest,
    request: MockRequest,
    x: Exchange,
    raw: Buffer | undefined,
    status: number,
    response: LoggedAnswer,
    seen?: { headers: SeenExchange['responseHeaders']; body: Buffer | undefined },
  ): Promise<number> {
    const ms = performance.now() - fx.started;
    options.onExchange?.({
      method: fx.method,
      url: `http://${headerText(fx.headers.host) ?? 'localhost'}${fx.target}`,
      httpVersion: fx.httpVersion,
      requestHeaders: fx.headers,
      requestBody: raw,
      status,
      responseHeaders: seen?.headers ?? response.headers ?? {},
      responseBody: seen?.body,
      startedAt: Date.now() - ms,
      ms,
    });
    const added = options.requestLog?.add(
      logEntry(request, fx.route.api, undefined, { status, response }, x),
    );
    return Promise.resolve(added).then(() => status);
  }

  return async function forward(fx: ForwardedRequest): Promise<Forwarded> {
    // Its bytes as they arrived, read once: by the body stage, else before they are sent on.
    let raw: Buffer | undefined;
    let reading: Promise<Buffer | undefined> | undefined;
    const readRaw = () => (reading ??= fx.read().then((bytes) => (raw = bytes)));
    const encoding = headerText(fx.headers['content-encoding']);
    const request: MockRequest = {
      method: fx.method,
      target: fx.target,
      headers: fx.headers,
      rawHeaders: fx.rawHeaders,
      body: async () =>
        options.decode((await readRaw()) ?? Buffer.alloc(0), encoding, options.bodyLimit),
    };
    // What the request breaks of the spec, as its stages found it.
    let asked: Breach[] = [];
    let done: Promise<number | undefined> = Promise.resolve(undefined);
    const reply = await mock.pipeline<
      TargetAnswer | Gone,
      Passing | Gone,
      OperationRoute | undefined
    >(
      request,
      fx.route,
      {
        // Every refusal collected: what breaks the spec is forwarded anyway, unless `enforce`.
        collect(refused) {
          asked = requestBreaches(refused);
          for (const { message } of requestAdvisories(refused))
            logger.info(
              { advisory: message },
              `request of ${nameOf(fx)} holds what the spec does not describe: ${message}`,
            );
          // A request whose only findings are advisories (an undeclared query parameter) is forwarded.
          return options.enforce && asked.length > 0 ? refused[0] : undefined;
        },
        // A body that cannot be read (too large, cut off) is not sent on: its error answers.
        produce: async () => send(fx, await readRaw()),
        check: (_request, answered, at) =>
          'gone' in answered
            ? answered
            : { target: answered, passed: passing(fx, answered, at, asked) },
        record(_request, passed, _to, x) {
          if ('gone' in passed) return;
          if ('target' in passed) {
            const { status } = passed.target;
            done = passed.passed.then((seen) =>
              seen === 'gone'
                ? undefined
                : record(fx, request, x, raw, status, seen.response, seen.seen),
            );
            return;
          }
          const answer = ownAnswer(passed);
          note(fx, 'request', asked, answer.status);
          const body = answer.body instanceof CheckedJson ? answer.body.bytes : undefined;
          const response = loggedAnswer(answer, fx.method);
          done = record(fx, request, x, raw, answer.status, response, {
            headers: answer.headers,
            body,
          });
        },
      },
      fx.started,
    );
    if ('gone' in reply) return reply;
    if ('target' in reply) return { target: reply.target, done };
    return { answer: ownAnswer(reply), done };
  };

  /**
   * The forward stage: the request sent on to the target as it arrived, but for the base path.
   * @throws {ApiError} 502 or 504 for a target that fails (logged here).
   */
  async function send(fx: ForwardedRequest, raw: Buffer | undefined): Promise<TargetAnswer | Gone> {
    try {
      return await options.target.send({
        method: fx.method,
        path: fx.target.startsWith(options.basePath)
          ? fx.target.slice(options.basePath.length)
          : fx.target,
        rawHeaders: fx.rawHeaders,
        body: raw,
        httpVersion: fx.httpVersion,
        signal: fx.signal,
      });
    } catch (err) {
      if (fx.signal.aborted) return { gone: true }; // the client left: nobody to answer
      const error = options.target.failure(err);
      logger.error({ method: fx.method, path: fx.target, status: error.status }, error.message);
      throw error;
    }
  }

  /**
   * The answer check of the target's answer as it passes to the client: a stream item by item,
   * any other body once whole. Settles with what the record stage logs of it, or with the
   * client gone.
   */
  async function passing(
    fx: ForwardedRequest,
    answered: TargetAnswer,
    at: OperationRoute | undefined,
    asked: readonly Breach[],
  ): Promise<Seen | 'gone'> {
    const { status, headers } = answered;
    const stream = streamOf(at?.operation, answered);
    const kept = await watched(fx, answered, stream);
    if (kept === 'gone') return 'gone';
    note(fx, 'request', asked, status);
    if (kept === 'cut' || !at) return { response: { headers: loggedHeaders(headers) } };
    if (stream) note(fx, 'response', stream.end(), status);
    const decoded = await check(fx, at, answered, kept);
    return { response: loggedTargetAnswer(headers, decoded), seen: { headers, body: decoded } };
  }

  /**
   * Watches the target's body pass to the client: a stream checked item by item (none of it
   * kept), any other body kept up to the limit. Settles with how it ended: whole (with what
   * was kept, undefined past the limit or for a stream), cut by the target, or with the
   * client gone.
   */
  function watched(
    fx: ForwardedRequest,
    { status, body }: TargetAnswer,
    stream: StreamCheck | undefined,
  ): Promise<Buffer[] | undefined | 'cut' | 'gone'> {
    const kept: Buffer[] = [];
    let size = 0;
    let whole = stream === undefined;
    body.on('data', (chunk: Buffer) => {
      if (stream) {
        note(fx, 'response', stream.push(chunk), status);
        return;
      }
      if (!whole) return;
      size += chunk.length;
      kept.push(chunk);
      if (size > CHECKED_ANSWER_LIMIT) {
        whole = false;
        kept.length = 0;
      }
    });
    return new Promise((resolve) => {
      body.once('end', () => resolve(whole ? kept : undefined));
      body.once('error', (err) => {
        if (fx.signal.aborted) return resolve('gone');
        // The target broke off its answer: the client sees the connection cut, as it was.
        const error = options.target.failure(err);
        logger.error(
          { method: fx.method, path: fx.target, status },
          `${error.message} (while sending its answer)`,
        );
        resolve('cut');
      });
      // Destroyed before its end: the client left.
      body.once('close', () => resolve('gone'));
    });
  }

  /**
   * The item checks of a streamed answer (an SSE, JSON Lines or JSON text sequence media
   * type), when it is one the proxy can read as it passes: not content-coded.
   */
  function streamOf(
    operation: Operation | undefined,
    answered: TargetAnswer,
  ): StreamCheck | undefined {
    if (!operation || !options.streamRules) return undefined;
    const coding = headerText(answered.headers['content-encoding'])?.trim().toLowerCase();
    if (coding !== undefined && coding !== '' && coding !== 'identity') return undefined;
    return options.streamRules(
      operation,
      answered.status,
      headerText(answered.headers['content-type']),
    );
  }

  /**
   * The answer check of an answer that has gone by, and the write it makes recorded when it
   * fit the spec. `kept` is its bytes as sent, undefined when it was too large to keep.
   * @returns the answer's body decoded, when it was kept and could be.
   */
  async function check(
    fx: ForwardedRequest,
    { operation, params }: Extract<Route, { kind: 'operation' }>,
    answered: TargetAnswer,
    kept: Buffer[] | undefined,
  ): Promise<Buffer | undefined> {
    const { status, headers } = answered;
    let decoded: Buffer | undefined;
    const breaches: Breach[] = [];
    if (kept) {
      try {
        const encoding = headerText(headers['content-encoding']);
        decoded = options.decode(Buffer.concat(kept), encoding, CHECKED_ANSWER_LIMIT);
      } catch (err) {
        // Too large decoded, or a coding the proxy cannot read (zstd): passed on unchecked.
        if ((err as ApiError).status === 400)
          breaches.push({ rule: 'content-encoding', message: (err as ApiError).message });
      }
    }
    if (breaches.length === 0)
      breaches.push(
        ...options.answerRules(operation, { method: fx.method, status, headers, body: decoded }),
      );
    note(fx, 'response', breaches, status);
    const succeeded = status >= 200 && status < 300 && breaches.length === 0;
    if (!options.onWrite || !succeeded || (!decoded && fx.method !== 'DELETE')) return decoded;
    try {
      await options.onWrite({
        operation,
        params,
        status,
        contentType: headerText(headers['content-type']),
        body: jsonOf(decoded, headers),
        hasBody: decoded !== undefined && decoded.length > 0,
      });
    } catch (err) {
      logger.error(
        { err, method: fx.method, path: fx.target },
        `not recorded: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return decoded;
  }
}

/** The proxy's own answer: an error (only the mock plays faults). */
function ownAnswer(reply: Reply): CheckedAnswer {
  if (!reply.answer) throw new Error('a fault in the proxy, which plays none');
  return reply.answer;
}

/** A request as a log line names it: its operation, else its method and target. */
function nameOf(fx: ForwardedRequest): string {
  return fx.route.kind === 'operation'
    ? fx.route.operation.operationId
    : `${fx.method} ${fx.target}`;
}

function headerText(value: string | readonly string[] | undefined): string | undefined {
  return value === undefined || typeof value === 'string' ? value : value.join(', ');
}

/** A JSON answer's value; undefined for any other, or none. */
function jsonOf(body: Buffer | undefined, headers: TargetHeaders): unknown {
  const type = headerText(headers['content-type']);
  if (!body || body.length === 0 || !type || !isJsonMediaType(type)) return undefined;
  return JSON.parse(body.toString('utf8')) as unknown;
}

/** The target's answer fields as the log shows them: one text each, no cookie it set. */
function loggedHeaders(headers: TargetHeaders): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    shown[name] = name.toLowerCase() === 'set-cookie' ? '[not kept]' : (headerText(value) ?? '');
  }
  return shown;
}

/**
 * What the log keeps of the target's answer: its JSON whole when it parses and is at most
 * 16 KiB (as the mock's own answers are kept), else the start of its text and its size.
 */
function loggedTargetAnswer(headers: TargetHeaders, decoded: Buffer | undefined): LoggedAnswer {
  const shown = loggedHeaders(headers);
  if (!decoded || decoded.length === 0) return { headers: shown };
  if (decoded.length <= LOGGED_BODY_LIMIT) {
    try {
      if (jsonOf(decoded, headers) !== undefined)
        return { headers: shown, body: new CheckedJson(Buffer.from(decoded)) };
    } catch {
      // Not JSON after all: kept as text below.
    }
  }
  const start = Buffer.from(decoded.subarray(0, LOGGED_BODY_LIMIT));
  return { headers: shown, start, bytes: decoded.length };
}
