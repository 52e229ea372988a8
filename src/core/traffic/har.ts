// HAR 1.2 (W3C Web Performance WG's draft, http://www.softwareishard.com/blog/har-12-spec/): what a
// browser's network panel, Playwright's `recordHar` and the proxy's `--har` save of the exchanges
// they saw. Read here into the exchanges the judge takes; written by har-writer.ts.
import type { ObservedAnswer } from '../proxy/answer-rules.js';
import type { SentRequest } from '../proxy/judge.js';

interface HarHeader {
  name: string;
  value: string;
}

/** A body as HAR keeps it: its text, base64 when `encoding` says so. */
interface HarContent {
  size?: number;
  mimeType?: string;
  text?: string;
  encoding?: string;
  /** Playwright's `recordHar` with `content: 'attach'`: the body in a file beside the HAR. */
  _file?: string;
}

interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  headers: HarHeader[];
  queryString: { name: string; value: string }[];
  cookies: unknown[];
  headersSize: number;
  bodySize: number;
  postData?: HarContent & { params?: unknown[] };
}

interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  headers: HarHeader[];
  cookies: unknown[];
  content: HarContent;
  redirectURL: string;
  headersSize: number;
  bodySize: number;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: object;
  timings: { send: number; wait: number; receive: number };
}

/** @internal for its tests: no part of the package's surface */
export interface Har {
  log: {
    version: string;
    creator: { name: string; version: string };
    entries: HarEntry[];
  };
}

/** A HAR that cannot be read, and why, in a sentence. */
export class HarError extends Error {
  override name = 'HarError';
}

/**
 * The entries of a HAR file, oldest first. A file the proxy was stopped before closing (its
 * entries written, the closing brackets not) is read as far as it goes.
 * @param attached reads a body Playwright kept in a file beside the HAR (`_file`), by its name.
 * @throws {HarError} when it is not a HAR.
 * @example readHar(text, { file: 'session.har' }).length // 12
 */
export function readHar(
  text: string,
  from: { file?: string; attached?: (name: string) => Buffer } = {},
): HarEntry[] {
  const { file } = from;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = unterminated(text);
    if (value === undefined)
      throw new HarError(`${file ?? 'the HAR'} is not JSON: a HAR 1.2 file is one JSON object`);
  }
  const entries = (value as Partial<Har> | null)?.log?.entries;
  if (!Array.isArray(entries))
    throw new HarError(`${file ?? 'the HAR'} has no log.entries: it is not a HAR 1.2 file`);
  return entries.map((entry: unknown, index) => checkedEntry(entry, index, from.attached));
}

/** One exchange of a HAR as the judge takes it, with the URL it went to. */
export interface HarExchange {
  url: URL;
  request: SentRequest;
  answer: ObservedAnswer;
  /** Its index in the HAR's entries. */
  index: number;
}

/**
 * An entry as the judge takes it. HAR keeps bodies decoded from their Content-Encoding, so that
 * field is dropped with the length it no longer matches; HTTP/2's pseudo-headers (`:path`) are
 * not fields. A response whose body the recorder did not keep has none to check.
 * @example exchangeOf(entry, 0).request.target // '/v1/categories?limit=2'
 */
export function exchangeOf(entry: HarEntry, index: number): HarExchange {
  const url = new URL(entry.request.url);
  const method = entry.request.method.toUpperCase();
  return {
    url,
    index,
    request: {
      method,
      target: `${url.pathname}${url.search}`,
      headers: fieldsOf(entry.request.headers),
      ...(entry.request.postData ? { body: bytesOf(entry.request.postData) } : {}),
    },
    answer: {
      method,
      status: entry.response.status,
      headers: fieldsOf(entry.response.headers),
      body: entry.response.content.text === undefined ? undefined : bytesOf(entry.response.content),
    },
  };
}

/**
 * The request target of an exchange as the description's routes read it (its base path first),
 * or undefined for one with another API or a page.
 * @param baseUrl the API's URL as recorded, base path included; else the exchange's path must
 * be under the description's `basePath`.
 * @example apiTargetOf(new URL('https://staging.test/api/v1/pets?x=1'), '/v1', new URL('https://staging.test/api/v1')) // '/v1/pets?x=1'
 */
export function apiTargetOf(url: URL, basePath: string, baseUrl?: URL): string | undefined {
  if (baseUrl) {
    const root = baseUrl.pathname.replace(/\/$/, '');
    if (url.origin !== baseUrl.origin) return undefined;
    if (url.pathname !== root && !url.pathname.startsWith(`${root}/`)) return undefined;
    return `${basePath}${url.pathname.slice(root.length)}${url.search}`;
  }
  if (basePath !== '' && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))
    return undefined;
  return `${url.pathname}${url.search}`;
}

/** A browser's CORS preflight: no call of the API's, whatever its path. */
export function isPreflight(exchange: HarExchange): boolean {
  return (
    exchange.request.method === 'OPTIONS' &&
    exchange.request.headers['access-control-request-method'] !== undefined
  );
}

function fieldsOf(headers: readonly HarHeader[]): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const { name, value } of headers) {
    const key = name.toLowerCase();
    if (key.startsWith(':') || key === 'content-encoding' || key === 'content-length') continue;
    const before = fields[key];
    fields[key] =
      before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  // Repeated fields but Set-Cookie join with commas (RFC 9110 §5.3).
  for (const [key, value] of Object.entries(fields))
    if (Array.isArray(value) && key !== 'set-cookie') fields[key] = value.join(', ');
  return fields;
}

function bytesOf(content: HarContent): Buffer {
  return Buffer.from(content.text ?? '', content.encoding === 'base64' ? 'base64' : 'utf8');
}

function checkedEntry(
  value: unknown,
  index: number,
  attached: ((name: string) => Buffer) | undefined,
): HarEntry {
  const entry = value as Partial<HarEntry> | null;
  const request = entry?.request;
  const response = entry?.response;
  if (
    typeof request?.method !== 'string' ||
    typeof request.url !== 'string' ||
    typeof response?.status !== 'number'
  )
    throw new HarError(
      `entry ${index} of the HAR has no request.method, request.url or response.status`,
    );
  if (!URL.canParse(request.url))
    throw new HarError(
      `entry ${index} of the HAR has a request.url that is not a URL: ${request.url}`,
    );
  const content = response.content ?? {};
  // Playwright keeps large bodies beside the HAR; read them in as if embedded.
  const text =
    content.text === undefined && content._file && attached
      ? attached(content._file).toString('base64')
      : undefined;
  return {
    ...(entry as HarEntry),
    request: { ...request, headers: request.headers ?? [] },
    response: {
      ...response,
      headers: response.headers ?? [],
      content: text === undefined ? content : { ...content, text, encoding: 'base64' },
    },
  };
}

/** The HAR of a writer stopped before its end: its entries, closed. */
function unterminated(text: string): unknown {
  const trimmed = text.trimEnd().replace(/,$/, '');
  for (const tail of [']}}', '}]}}']) {
    try {
      return JSON.parse(`${trimmed}${tail}`);
    } catch {
      // the next closing
    }
  }
  return undefined;
}

/** An exchange as the proxy saw it go by, for its HAR. */
export interface SeenExchange {
  method: string;
  /** The URL the client asked for: its origin as the Host header gave it, the target as sent. */
  url: string;
  httpVersion: string;
  requestHeaders: Readonly<Record<string, string | readonly string[] | undefined>>;
  requestBody?: Buffer | undefined;
  status: number;
  responseHeaders: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The answer's body, decoded; none when it was not kept (too large, cut). */
  responseBody?: Buffer | undefined;
  /** When the request arrived, in milliseconds since the epoch. */
  startedAt: number;
  /** How long the exchange took, in milliseconds. */
  ms: number;
}

/**
 * A HAR entry of an exchange, its credentials redacted as the request log redacts them. Text
 * bodies are kept as text, others as base64; a body too large for the log is kept whole here.
 * @example harEntryOf(seen, redact).request.headers // [{ name: 'authorization', value: 'Bearer ***' }]
 */
export function harEntryOf(
  seen: SeenExchange,
  redact: {
    headers: (headers: SeenExchange['requestHeaders']) => Record<string, string>;
    url: (url: string) => string;
  },
): HarEntry {
  const url = redact.url(seen.url);
  const requestHeaders = listed(redact.headers(seen.requestHeaders));
  const responseHeaders = listed(textFields(seen.responseHeaders));
  const requestType = headerOf(seen.requestHeaders, 'content-type');
  const responseType = headerOf(seen.responseHeaders, 'content-type') ?? '';
  const parsed = new URL(url);
  return {
    startedDateTime: new Date(seen.startedAt).toISOString(),
    time: seen.ms,
    request: {
      method: seen.method,
      url,
      httpVersion: `HTTP/${seen.httpVersion}`,
      headers: requestHeaders,
      queryString: [...parsed.searchParams].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: seen.requestBody?.length ?? 0,
      ...(seen.requestBody && seen.requestBody.length > 0
        ? {
            postData: {
              mimeType: requestType ?? '',
              ...contentOf(seen.requestBody, requestType ?? ''),
            },
          }
        : {}),
    },
    response: {
      status: seen.status,
      statusText: '',
      httpVersion: `HTTP/${seen.httpVersion}`,
      headers: responseHeaders,
      cookies: [],
      content: {
        size: seen.responseBody?.length ?? -1,
        mimeType: responseType,
        ...(seen.responseBody ? contentOf(seen.responseBody, responseType) : {}),
      },
      redirectURL: headerOf(seen.responseHeaders, 'location') ?? '',
      headersSize: -1,
      bodySize: seen.responseBody?.length ?? -1,
    },
    cache: {},
    timings: { send: 0, wait: seen.ms, receive: 0 },
  };
}

function listed(fields: Readonly<Record<string, string>>): HarHeader[] {
  return Object.entries(fields).map(([name, value]) => ({ name, value }));
}

function textFields(headers: SeenExchange['requestHeaders']): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) fields[name] = typeof value === 'string' ? value : value.join(', ');
  return fields;
}

function headerOf(headers: SeenExchange['requestHeaders'], name: string): string | undefined {
  const value = headers[name];
  return value === undefined || typeof value === 'string' ? value : value.join(', ');
}

/** A body as text where its media type is text and it is valid UTF-8, else as base64. */
function contentOf(bytes: Buffer, mediaType: string): { text: string; encoding?: string } {
  const textual =
    /^(text\/|application\/([\w.+-]*\+)?(json|xml|x-www-form-urlencoded|jsonl|x-ndjson|yaml))/i.test(
      mediaType.trim(),
    );
  if (textual) {
    const text = bytes.toString('utf8');
    if (Buffer.byteLength(text) === bytes.length && !text.includes('\uFFFD')) return { text };
  }
  return { text: bytes.toString('base64'), encoding: 'base64' };
}
