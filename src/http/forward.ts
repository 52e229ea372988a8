import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';
import { errors } from '../vocabulary/error-catalogue.js';
import type { ApiError } from '../vocabulary/errors.js';
import type { Target } from '../core/stages/forward.js';

/**
 * The hop-by-hop fields of RFC 9110 §7.6.1, which a proxy never passes on (with those the
 * Connection field names), and those the forwarding sets itself: the target's Host, the
 * framing of the body as it is sent on, and `Expect`, which the proxy has met already.
 */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

/**
 * The name the proxy gives itself in the Via field (RFC 9110 §7.6.3): a pseudonym, since its
 * host and port say nothing a client needs.
 */
const VIA_PSEUDONYM = 'petstore-kit';

/** Of an answer, only the hop-by-hop fields stay behind: its length and encoding pass as they are. */
const NOT_RETURNED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'transfer-encoding',
  'upgrade',
]);

export interface ForwarderOptions {
  /** Where requests go: the base URL of the real API, e.g. `https://staging.example.com/v1`. */
  target: URL;
  /** How long the target may take to connect, to send its answer's head, and between body bytes. */
  timeoutMs: number;
}

/**
 * Sends requests on to the target over a pool of its own, as they arrived but for the
 * hop-by-hop fields and with the proxy added to Via, and hands back its answer unread (undici decompresses nothing: the body
 * goes back as the target encoded it).
 * @example const forwarder = createForwarder({ target: new URL('https://staging.example.com/v1'), timeoutMs: 30000 });
 */
export interface Forwarder extends Target {
  /** Closes the pool, once what is in flight is done. */
  close(): Promise<void>;
}

export function createForwarder(options: ForwarderOptions): Forwarder {
  const { target, timeoutMs } = options;
  const agent = new Agent({
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const prefix = target.pathname.replace(/\/$/, '');
  return {
    send: async ({ method, path, rawHeaders, body, httpVersion, signal }) => {
      // undici checks its head timeout on a clock that ticks every half second, so a bound under
      // a second came late (0.2 s answered after about 1 s): the head has a timer of its own.
      const head = new AbortController();
      const timer = setTimeout(() => head.abort(new undiciErrors.HeadersTimeoutError()), timeoutMs);
      try {
        const answered = await request(`${target.origin}${prefix}${path}`, {
          dispatcher: agent,
          method: method as Dispatcher.HttpMethod,
          headers: withVia(endToEnd(rawHeaders, NOT_FORWARDED), `${httpVersion} ${VIA_PSEUDONYM}`),
          ...(body ? { body } : {}),
          signal: AbortSignal.any([signal, head.signal]),
        });
        return { status: answered.statusCode, headers: answered.headers, body: answered.body };
      } finally {
        clearTimeout(timer);
      }
    },
    failure: (err) => targetError(err, target.href, timeoutMs),
    close: () => agent.close(),
  };
}

/**
 * The fields of a message a proxy passes on: all but those in `dropped` and those its
 * Connection field names (RFC 9110 §7.6.1), in pairs.
 */
function endToEnd(rawHeaders: readonly string[], dropped: ReadonlySet<string>): string[] {
  const named = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]?.toLowerCase() === 'connection')
      for (const name of (rawHeaders[i + 1] ?? '').split(',')) named.add(name.trim().toLowerCase());
  const kept: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? '';
    const lower = name.toLowerCase();
    if (!dropped.has(lower) && !named.has(lower)) kept.push(name, rawHeaders[i + 1] ?? '');
  }
  return kept;
}

/**
 * The fields in pairs with the proxy's entry added last to Via (RFC 9110 §7.6.3: each
 * intermediary appends its own, so the field reads in the order the message went), the
 * fields already there joined into one.
 * @example withVia(['Via', '1.1 cdn'], '1.1 petstore-kit') // ['Via', '1.1 cdn, 1.1 petstore-kit']
 */
function withVia(pairs: readonly string[], entry: string): string[] {
  const out: string[] = [];
  const before: string[] = [];
  for (let i = 0; i < pairs.length; i += 2) {
    const name = pairs[i] ?? '';
    const value = pairs[i + 1] ?? '';
    if (name.toLowerCase() === 'via') {
      if (value.trim() !== '') before.push(value.trim());
    } else out.push(name, value);
  }
  out.push('Via', [...before, entry].join(', '));
  return out;
}

/**
 * The target's answer fields a client gets, hop-by-hop ones aside and the proxy added to Via
 * (the target answers over HTTP/1.1), as Node's `writeHead` takes them (a repeated field,
 * `Set-Cookie`, stays a list).
 */
export function returnedHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string | string[]> {
  const flat: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) flat.push(name, one);
  }
  const kept = withVia(endToEnd(flat, NOT_RETURNED), `1.1 ${VIA_PSEUDONYM}`);
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i < kept.length; i += 2) {
    const name = kept[i] ?? '';
    const value = kept[i + 1] ?? '';
    const before = out[name];
    out[name] =
      before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return out;
}

/** undici's codes for a target that took too long: to connect, to send its head, between body bytes. */
const TIMEOUTS = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * What a failed forward is to the client: 504 for a target slower than the timeout, 502 for
 * one that cannot be reached or broke the connection.
 * @example targetError(err, 'http://127.0.0.1:9', 30000).status // 502
 */
function targetError(err: unknown, target: string, timeoutMs: number): ApiError {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && TIMEOUTS.has(code))
    return errors.targetTimeout(target, timeoutMs / 1000);
  const cause = (err as { cause?: { code?: unknown } }).cause;
  const reason =
    typeof code === 'string' && code.startsWith('E')
      ? code
      : typeof cause?.code === 'string'
        ? cause.code
        : err instanceof Error
          ? err.message
          : String(err);
  return errors.targetUnreachable(target, reason);
}
