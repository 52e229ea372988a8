import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { readRawBody } from './raw-body.js';
import {
  loggedAnswer,
  LOGGED_BODY_LIMIT,
  type LoggedAnswer,
  type RequestLog,
} from '../core/admin/request-log.js';
import { hasBody } from '../core/headers.js';
import type { Exchange, MockCore } from '../core/mock-core.js';
import { logEntry } from '../core/stages/record.js';
import type { ObservedAnswer } from '../core/proxy/answer-rules.js';
import type { RecordedWrite } from '../core/proxy/recorder.js';
import type { SeenExchange } from '../core/traffic/har.js';
import { requestAdvisories, requestBreaches, type Breach } from '../core/proxy/request-rules.js';
import type { StreamCheck } from '../core/proxy/stream-rules.js';
import type { ViolationLog, ViolationSide } from '../core/proxy/violations.js';
import type { Operation } from '../openapi/operations.js';
import { isJsonMediaType } from '../openapi/operations.js';
import { CheckedJson, type CheckedAnswer } from '../vocabulary/answer.js';
import type { ApiError } from '../vocabulary/errors.js';
import type { MockRequest } from '../vocabulary/request.js';
import { decodeBody } from './decode.js';
import { returnedHeaders, targetError, type Forwarder } from './forward.js';
import type { MockListener } from './listener.js';
import { requestLines, type Logger } from './logger.js';

/** An answer larger than this (decoded) is passed on unchecked: the proxy keeps no more of one. */
const CHECKED_ANSWER_LIMIT = 8 * 1024 * 1024;

export interface ProxyListenerOptions {
  /**
   * The mock, which routes, inspects requests against the spec and shapes the proxy's own
   * errors, and its listener, which answers what is not forwarded (the admin API, the
   * inspector page, paths outside the base path).
   */
  app: { readonly mock: MockCore; routed: MockListener['routed'] };
  /** The mocked API's base path (`/v1`): every request under it is forwarded. */
  basePath: string;
  /** Checks the target's answers against the spec (see createAnswerRules). */
  answerRules: (operation: Operation, answer: ObservedAnswer) => Breach[];
  /** Checks a streamed answer item by item as it passes (see createStreamRules). */
  streamRules?: (
    operation: Operation,
    status: number,
    contentType: string | undefined,
  ) => StreamCheck | undefined;
  forwarder: Forwarder;
  /** The target's URL, for messages. */
  target: string;
  /** The target's timeout, for messages. */
  timeoutMs: number;
  violations: ViolationLog;
  /** Answer a request that breaks the spec with the mock's own error instead of forwarding it. */
  enforce: boolean;
  /** The largest request body forwarded (it is read whole, to be checked, before it is sent on). */
  bodyLimit: number;
  /** Called with each success answer of an operation that fit the spec, for `--record`. */
  onWrite?: (write: RecordedWrite) => Promise<unknown>;
  logger: Logger;
  /** One log line per request, as the mock writes them. */
  logRequests: boolean;
  /**
   * The request log the admin API and the inspector read (`GET /__mock/requests`): each
   * forwarded request goes in, with the target's answer, as the mock's own requests do.
   */
  requestLog?: RequestLog;
  /** Called with each exchange once it has ended, whole, for `--har`. */
  onExchange?: (exchange: SeenExchange) => void;
}

/** A Node request listener, and how the spec shapes what Node's HTTP layer refuses. */
export interface ProxyListener {
  (req: IncomingMessage, res: ServerResponse): void;
  /** The mock whose error shape Node's refusals take (see createMockServer). */
  readonly mock: MockCore;
  /**
   * Resolves once every exchange begun has ended, its answer checked and recorded: a client
   * has the answer before the proxy is done with it, so a shutdown waits for this before it
   * closes the recording.
   */
  idle(): Promise<void>;
}

/**
 * The proxy mode of the HTTP adapter: each request under the base path is checked against the
 * spec by the mock's core, forwarded to the target as it arrived (but for the hop-by-hop
 * fields), and the target's answer streamed back unchanged (status, fields, bytes, encoding)
 * while a copy is checked against the spec once it has gone by. What breaks the spec is logged
 * at warn and listed in `violations`; it never changes what is forwarded, unless `enforce`
 * asks. A target that fails gives 502 (unreachable, reset) or 504 (too slow) in the spec's
 * error shape, which is no violation.
 * @example createMockServer(createProxyListener({ app, basePath: '/v1', forwarder, ... }))
 */
export function createProxyListener(options: ProxyListenerOptions): ProxyListener {
  const { app, basePath, logger, violations } = options;
  const line = options.logRequests ? requestLines(logger) : undefined;

  function note(
    side: ViolationSide,
    breaches: readonly Breach[],
    req: IncomingMessage,
    status: number,
    operation: Operation | undefined,
  ): void {
    // The same problem found twice (a field two `allOf` branches both check) is one violation.
    const seen = new Set<string>();
    for (const { rule, message } of breaches) {
      const key = `${rule}\n${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const violation = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        status,
        side,
        rule,
        message,
        ...(operation ? { operation: operation.operationId } : {}),
      };
      violations.add(violation);
      const what = operation?.operationId ?? `${violation.method} ${violation.path}`;
      logger.warn({ violation }, `${side} of ${what} breaks the spec (${rule}): ${message}`);
    }
  }

  /** Sends an answer of the proxy's own (an error), closing the connection if the body was not read. */
  function own(res: ServerResponse, { status, headers, body }: CheckedAnswer): void {
    const bytes = body instanceof CheckedJson ? body.bytes : Buffer.alloc(0);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(status, { ...headers, 'Content-Length': bytes.length });
    res.end(bytes);
  }

  async function exchange(req: IncomingMessage, res: ServerResponse, started: number) {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const route = app.mock.route(method, target);
    if (route.api?.basePath !== basePath) return app.routed(req, res, route);
    const operation = route.kind === 'operation' ? route.operation : undefined;
    let body: Buffer | undefined;
    const request: MockRequest = {
      method,
      target,
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body: async () =>
        decodeBody(body ?? Buffer.alloc(0), req.headers['content-encoding'], options.bodyLimit),
    };
    // The request as the mock's own stages read it (its body decoded once), for the request log.
    const reading: Pick<Exchange, 'body' | 'started'> = { started };
    const finish = (status: number, response?: LoggedAnswer, answered?: AnswerSeen) => {
      const ms = performance.now() - started;
      line?.({ method, path: app.mock.shownTarget(target), status, ms: Math.round(ms * 10) / 10 });
      options.onExchange?.({
        method,
        url: `http://${req.headers.host ?? 'localhost'}${target}`,
        httpVersion: req.httpVersion,
        requestHeaders: req.headers,
        requestBody: body,
        status,
        responseHeaders: answered?.headers ?? response?.headers ?? {},
        responseBody: answered?.body,
        startedAt: Date.now() - ms,
        ms,
      });
      return options.requestLog?.add(
        logEntry(request, route.api, undefined, { status, response }, reading),
      );
    };

    if (hasBody({ headers: req.headers })) {
      if (req.headers.expect !== undefined) res.writeContinue();
      try {
        body = await readRawBody(req, {
          length: req.headers['content-length'],
          limit: options.bodyLimit,
        });
      } catch (err) {
        res.setHeader('Connection', 'close');
        const answer = app.mock.errorAnswer(err, route);
        own(res, answer);
        return finish(answer.status, loggedAnswer(answer, method), seenOwn(answer));
      }
    }
    const inspection = await app.mock.inspect(request, route);
    const { found } = inspection;
    if (inspection.body) reading.body = inspection.body;
    const asked = requestBreaches(found);
    for (const { message } of requestAdvisories(found))
      logger.info(
        { advisory: message },
        `request of ${operation?.operationId ?? `${method} ${target}`} holds what the spec does not describe: ${message}`,
      );
    const [refusal] = found;
    // A request whose only findings are advisories (an undeclared query parameter) is forwarded.
    if (options.enforce && refusal && asked.length > 0) {
      const answer = app.mock.errorAnswer(refusal, route);
      note('request', asked, req, answer.status, operation);
      own(res, answer);
      return finish(answer.status, loggedAnswer(answer, method), seenOwn(answer));
    }

    const abort = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    let answered;
    try {
      answered = await options.forwarder.send({
        method,
        path: target.startsWith(basePath) ? target.slice(basePath.length) : target,
        rawHeaders: req.rawHeaders,
        body,
        httpVersion: req.httpVersion,
        signal: abort.signal,
      });
    } catch (err) {
      if (abort.signal.aborted) return; // the client left: nobody to answer
      const error = targetError(err, options.target, options.timeoutMs);
      logger.error({ method, path: target, status: error.status }, error.message);
      const answer = app.mock.errorAnswer(error, route);
      note('request', asked, req, answer.status, operation);
      own(res, answer);
      return finish(answer.status, loggedAnswer(answer, method), seenOwn(answer));
    }

    const { statusCode: status, headers } = answered;
    res.writeHead(status, returnedHeaders(headers));
    // A stream is checked item by item as it passes, and none of it is kept.
    const stream = streamOf(route.kind === 'operation' ? route.operation : undefined, answered);
    const kept: Buffer[] = [];
    let size = 0;
    let whole = stream === undefined;
    answered.body.on('data', (chunk: Buffer) => {
      if (stream) {
        note('response', stream.push(chunk), req, status, operation);
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
    try {
      await pipeline(answered.body, res);
    } catch (err) {
      res.destroy();
      if (abort.signal.aborted) return; // the client left
      // The target broke off its answer: the client sees the connection cut, as it was.
      const error = targetError(err, options.target, options.timeoutMs);
      logger.error({ method, path: target, status }, `${error.message} (while sending its answer)`);
      note('request', asked, req, status, operation);
      return finish(status, { headers: loggedHeaders(headers) });
    }
    note('request', asked, req, status, operation);
    if (stream) note('response', stream.end(), req, status, operation);
    if (route.kind !== 'operation') return finish(status, { headers: loggedHeaders(headers) });
    const decoded = await observe(req, route.operation, route.params, {
      status,
      headers,
      kept: whole ? kept : undefined,
    });
    await finish(status, loggedTargetAnswer(headers, decoded), { headers, body: decoded });
  }

  /**
   * The item checks of a streamed answer (an SSE, JSON Lines or JSON text sequence media
   * type), when it is one the proxy can read as it passes: not content-coded.
   */
  function streamOf(
    operation: Operation | undefined,
    answered: { statusCode: number; headers: TargetHeaders },
  ): StreamCheck | undefined {
    if (!operation || !options.streamRules) return undefined;
    const coding = headerText(answered.headers['content-encoding'])?.trim().toLowerCase();
    if (coding !== undefined && coding !== '' && coding !== 'identity') return undefined;
    return options.streamRules(
      operation,
      answered.statusCode,
      headerText(answered.headers['content-type']),
    );
  }

  /**
   * Checks an answer that has gone by against the spec, and records a write that fit it.
   * `kept` is its bytes as sent, undefined when it was too large to keep.
   * @returns the answer's body decoded, when it was kept and could be.
   */
  async function observe(
    req: IncomingMessage,
    operation: Operation,
    params: Readonly<Record<string, string>>,
    answer: { status: number; headers: TargetHeaders; kept: Buffer[] | undefined },
  ): Promise<Buffer | undefined> {
    const { status, headers, kept } = answer;
    const method = req.method ?? 'GET';
    let decoded: Buffer | undefined;
    const breaches: Breach[] = [];
    if (kept) {
      try {
        const encoding = headerText(headers['content-encoding']);
        decoded = decodeBody(Buffer.concat(kept), encoding, CHECKED_ANSWER_LIMIT);
      } catch (err) {
        // Too large decoded, or a coding the proxy cannot read (zstd): passed on unchecked.
        if ((err as ApiError).status === 400)
          breaches.push({ rule: 'content-encoding', message: (err as ApiError).message });
      }
    }
    if (breaches.length === 0)
      breaches.push(...options.answerRules(operation, { method, status, headers, body: decoded }));
    note('response', breaches, req, status, operation);
    const succeeded = status >= 200 && status < 300 && breaches.length === 0;
    if (!options.onWrite || !succeeded || (!decoded && method !== 'DELETE')) return decoded;
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
        { err, method, path: req.url },
        `not recorded: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return decoded;
  }

  /** The exchanges not yet ended, checks and recording included. */
  const inFlight = new Set<Promise<void>>();
  return Object.assign(
    (req: IncomingMessage, res: ServerResponse) => {
      const started = performance.now();
      const done = exchange(req, res, started)
        .then(() => undefined)
        .catch((err: unknown) => {
          logger.error(
            { err },
            `proxy failed: ${err instanceof Error ? err.message : String(err)}`,
          );
          res.destroy();
        })
        .finally(() => inFlight.delete(done));
      inFlight.add(done);
    },
    {
      mock: app.mock,
      async idle() {
        while (inFlight.size > 0) await Promise.all(inFlight);
      },
    },
  );
}

/** An answer as the client got it, its body decoded, for `onExchange`. */
interface AnswerSeen {
  headers: SeenExchange['responseHeaders'];
  body: Buffer | undefined;
}

function seenOwn({ headers, body }: CheckedAnswer): AnswerSeen {
  return { headers, body: body instanceof CheckedJson ? body.bytes : undefined };
}

/** The fields of the target's answer, as undici gives them. */
type TargetHeaders = Readonly<Record<string, string | string[] | undefined>>;

function headerText(value: string | string[] | undefined): string | undefined {
  return value === undefined || typeof value === 'string' ? value : value.join(', ');
}

/** A JSON answer's value; undefined for any other, or none. */
function jsonOf(body: Buffer | undefined, headers: TargetHeaders): unknown {
  const type = headerText(headers['content-type'])?.split(';')[0]?.trim().toLowerCase();
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
