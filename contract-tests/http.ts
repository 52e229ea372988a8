import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import type { HttpMethod } from './plan.js';
import { retryStep } from './retry.js';
import type { ContractTarget } from './target.js';
import { isSafe } from './ledger.js';
import { RuleSkipped, TargetUnavailable } from './verdicts.js';

/** A request the suite sends. */
export interface SentRequest {
  method: HttpMethod;
  /** Relative to the base URL, parameters filled in, without the query. */
  path: string;
  /** Query parameters, in order, not yet encoded. */
  query?: [string, string][];
  headers: Record<string, string>;
  /** Sent as is: a JSON text, or anything else. `undefined` sends no body. */
  body?: string | undefined;
  /** Names (lower case) of headers, query parameters and cookies that carry a secret: masked in reports. */
  secrets?: string[];
}

/** A request and the answer it got: what a failure message shows. */
export interface Exchange {
  request: SentRequest & { url: string };
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed JSON body; `undefined` when the body is not JSON. */
  json: unknown;
  /** Earlier answers to the same request that were waited out, e.g. `429, waited 1 s`. */
  retries: string[];
  /**
   * A streamed answer read as it came (see StreamRead): whether it `end`ed, or the reader had
   * read `enough`, or its `time` ran out. `text` then holds its start only.
   */
  ended?: 'end' | 'enough' | 'time';
}

/** How a streamed answer is read: chunk by chunk, for at most `ms`. */
export interface StreamRead {
  /** Given each chunk of the body as it comes; true when it has read enough (the rest is left). */
  onChunk(chunk: Uint8Array): boolean;
  /** How long it is read, from the answer's start: below the request's own timeout. */
  ms: number;
}

/** What of a streamed answer an exchange keeps, for a failure message. */
const STREAM_TEXT_KEPT = 16 * 1024;

/** What sending needs: where, how long to wait, and where advice goes. */
export interface HttpContext {
  target: Pick<ContractTarget, 'baseUrl' | 'timeoutMs' | 'dispatcher'> & { readOnly?: boolean };
  /** Something HTTP recommends and the deployment does not do: a warning, never a failure. */
  advise(advice: string): void;
  /**
   * Shared by every rule of a run: once one request finds the target unavailable, the
   * others are not sent, and their rules are not judged at once instead of one by one.
   */
  circuit?: Circuit;
}

/** Whether the target was found unavailable in this run, and why. */
interface Circuit {
  down?: string;
}

/** Errors of a connection that a second try may not meet: a reset, a refused or dropped socket. */
const TRANSIENT = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

let shared: Dispatcher | undefined;

/**
 * The connection pool of every request: through HTTP_PROXY / HTTPS_PROXY unless NO_PROXY
 * says otherwise. TLS trusts Node's CAs, plus NODE_EXTRA_CA_CERTS when it is set.
 */
function pool(): Dispatcher {
  shared ??= new EnvHttpProxyAgent();
  return shared;
}

/**
 * Sends one request and records the exchange. Never throws on a status. Waits out 429 and
 * 503 answers as RETRY_LIMITS allow, and tries once more after a transient connection error.
 * @throws {TargetUnavailable} when no answer came in time, or the target stayed unavailable.
 */
export async function send(
  ctx: HttpContext,
  req: SentRequest,
  stream?: StreamRead,
): Promise<Exchange> {
  const url = urlOf(ctx.target.baseUrl, req);
  // The last gate of --read-only: whatever a rule meant to send, nothing unsafe leaves.
  if (ctx.target.readOnly && !isSafe(req.method)) throw new RuleSkipped(READ_ONLY_NOTE);
  if (ctx.circuit?.down)
    throw new TargetUnavailable(
      `not sent: the target was found unavailable earlier in this run (${ctx.circuit.down})`,
    );
  try {
    return await sendWithRetries(ctx, req, url, stream);
  } catch (err) {
    if (err instanceof TargetUnavailable && ctx.circuit)
      ctx.circuit.down ??= err.message.split('\n')[0];
    throw err;
  }
}

/** Why a rule that writes, or sends an unsafe method, is not judged in a read-only run. */
export const READ_ONLY_NOTE =
  'not judged: --read-only (it sends a method other than GET, HEAD or OPTIONS)';

/** The URL of a request: the base URL, the path, and the query, encoded. */
function urlOf(baseUrl: string, req: Pick<SentRequest, 'path' | 'query'>): string {
  const query = (req.query ?? [])
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  return `${baseUrl}${req.path}${query ? `?${query}` : ''}`;
}

async function sendWithRetries(
  ctx: HttpContext,
  req: SentRequest,
  url: string,
  stream: StreamRead | undefined,
): Promise<Exchange> {
  const retries: string[] = [];
  let waitedMs = 0;
  let reconnected = false;
  for (let tries = 1; ; tries++) {
    let answer: Answer;
    try {
      answer = await sendOnce(url, req, ctx.target, stream);
    } catch (err) {
      const why = connectionFailure(err, ctx.target.timeoutMs);
      if (why.transient && !reconnected) {
        reconnected = true;
        retries.push(`no answer (${why.text}), tried again`);
        continue;
      }
      throw new TargetUnavailable(
        `${req.method.toUpperCase()} ${url}: ${why.text}${reconnected ? ', twice' : ''}`,
      );
    }
    const step = retryStep(answer.status, answer.headers['retry-after'], { tries, waitedMs });
    const exchange = { request: { ...req, url }, ...answer, json: parseJson(answer.text), retries };
    if (step.kind === 'judge') return exchange;
    if (step.kind === 'give-up') {
      throw new TargetUnavailable(
        `${req.method.toUpperCase()} ${url}: ${step.why}\n\n${formatExchange(exchange)}`,
      );
    }
    if (step.advice) ctx.advise(step.advice);
    retries.push(`${answer.status}, waited ${step.ms} ms`);
    await sleep(step.ms);
    waitedMs += step.ms;
  }
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  ended?: Exchange['ended'];
}

async function sendOnce(
  url: string,
  req: SentRequest,
  { timeoutMs, dispatcher }: HttpContext['target'],
  stream: StreamRead | undefined,
): Promise<Answer> {
  // The whole exchange, body included: a deployment that stalls mid-body is not an answer. The
  // timer stops with the answer: AbortSignal.timeout's went off after every answer, seconds
  // later (2.4 % of test/contract-proof.test.ts's profile, making the signal and its abort).
  const bound = new AbortController();
  const timer = setTimeout(
    () => bound.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    timeoutMs,
  );
  try {
    return await exchange(url, req, dispatcher ?? pool(), bound.signal, stream);
  } finally {
    clearTimeout(timer);
  }
}

async function exchange(
  url: string,
  req: SentRequest,
  dispatcher: Dispatcher,
  signal: AbortSignal,
  stream: StreamRead | undefined,
): Promise<Answer> {
  const res = await request(url, {
    method: req.method.toUpperCase() as Dispatcher.HttpMethod,
    headers: {
      ...(Object.keys(req.headers).some((name) => name.toLowerCase() === 'accept')
        ? {}
        : { accept: 'application/json' }),
      'accept-encoding': 'gzip, deflate, br',
      ...req.headers,
    },
    body: req.body,
    dispatcher,
    signal,
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  if (stream) return { status: res.statusCode, headers, ...(await readStream(res.body, stream)) };
  const raw = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers, text: decode(raw, headers['content-encoding']) };
}

/**
 * Reads a streamed body chunk by chunk, each given to `stream` as it comes, until it ends, the
 * reader has enough, or `stream.ms` has passed; then the rest is left (the connection closed).
 */
async function readStream(
  body: Dispatcher.ResponseData['body'],
  stream: StreamRead,
): Promise<{ text: string; ended: Exchange['ended'] }> {
  let text = '';
  const decoder = new TextDecoder();
  const read: { ended: Exchange['ended'] } = { ended: 'end' };
  const timer = setTimeout(() => {
    read.ended = 'time';
    body.destroy();
  }, stream.ms);
  try {
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      if (text.length < STREAM_TEXT_KEPT) text += decoder.decode(chunk, { stream: true });
      if (stream.onChunk(chunk)) {
        read.ended = 'enough';
        body.destroy();
        break;
      }
    }
  } catch (err) {
    // The reader's own time running out ends the read; anything else is the target's doing.
    if (read.ended !== 'time') throw err;
  } finally {
    clearTimeout(timer);
  }
  return { text, ended: read.ended };
}

/** The body as text, undoing the content codings a real client asks for. */
function decode(raw: Buffer, encoding: string | undefined): string {
  const codings = (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  let body = raw;
  // Codings are listed in the order they were applied: undo them from the last.
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') body = gunzipSync(body);
    else if (coding === 'deflate') body = inflateSync(body);
    else if (coding === 'br') body = brotliDecompressSync(body);
    else break;
  }
  return body.toString('utf8');
}

function connectionFailure(err: unknown, timeoutMs: number): { transient: boolean; text: string } {
  if (err instanceof Error && err.name === 'TimeoutError') {
    return { transient: false, text: `no answer within ${timeoutMs} ms (raise --timeout)` };
  }
  const cause = (err as { cause?: unknown }).cause;
  const code = [err, cause]
    .map((e) => (e as { code?: unknown } | undefined)?.code)
    .find((c): c is string => typeof c === 'string');
  const message = err instanceof Error ? err.message : String(err);
  if (code && CERTIFICATE.test(code)) {
    return {
      transient: false,
      text: `TLS: ${code} (a private CA? set NODE_EXTRA_CA_CERTS to its PEM file)`,
    };
  }
  return { transient: code !== undefined && TRANSIENT.has(code), text: code ?? message };
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

const SHOWN_HEADERS = ['content-type', 'content-encoding', 'www-authenticate', 'retry-after'];
const MAX_BODY = 600;

/** The exchange as a person reads it in a failure message; every credential is masked. */
export function formatExchange(exchange: Exchange): string {
  const { request: req } = exchange;
  const secrets = new Set(req.secrets ?? ['authorization']);
  secrets.add('authorization');
  const requestHeaders = Object.entries(req.headers).map(
    ([name, value]) => `  ${name}: ${maskCredential(name, value, secrets)}`,
  );
  const responseHeaders = SHOWN_HEADERS.filter((name) => exchange.headers[name] !== undefined).map(
    (name) => `  ${name}: ${exchange.headers[name]}`,
  );
  return [
    `Request:  ${req.method.toUpperCase()} ${maskedUrl(req, secrets)}`,
    ...requestHeaders,
    ...(req.body === undefined ? [] : [`  ${cut(req.body)}`]),
    ...exchange.retries.map((retry) => `Retried:  ${retry}`),
    `Response: ${exchange.status}`,
    ...responseHeaders,
    `  ${exchange.text === '' ? '(empty body)' : cut(exchange.text)}`,
  ].join('\n');
}

function maskCredential(name: string, value: string, secrets: ReadonlySet<string>): string {
  const lower = name.toLowerCase();
  if (lower === 'cookie')
    return value
      .split('; ')
      .map((pair) => {
        const at = pair.indexOf('=');
        return secrets.has(pair.slice(0, at).toLowerCase()) ? `${pair.slice(0, at)}=***` : pair;
      })
      .join('; ');
  if (!secrets.has(lower)) return value;
  if (lower !== 'authorization') return '***';
  const [scheme, token] = value.split(/\s+/, 2);
  return token === undefined ? '***' : `${scheme} ***`;
}

function maskedUrl(req: SentRequest & { url: string }, secrets: ReadonlySet<string>): string {
  if (!req.query?.length) return req.url;
  const query = req.query
    .map(
      ([name, value]) =>
        `${encodeURIComponent(name)}=${secrets.has(name.toLowerCase()) ? '***' : encodeURIComponent(value)}`,
    )
    .join('&');
  return `${req.url.split('?')[0]}?${query}`;
}

function cut(text: string): string {
  return text.length > MAX_BODY
    ? `${text.slice(0, MAX_BODY)}... (${text.length} characters)`
    : text;
}
