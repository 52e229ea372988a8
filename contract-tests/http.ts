import request from 'supertest';
import type { ContractTarget } from './target.js';

/** A request the suite sends. */
export interface SentRequest {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  headers: Record<string, string>;
  /** Sent as is: a JSON text, or anything else. `undefined` sends no body. */
  body?: string;
}

/** A request and the answer it got: what a failure message shows. */
export interface Exchange {
  request: SentRequest & { url: string };
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed JSON body; `undefined` when the body is not JSON. */
  json: unknown;
}

const TIMEOUT = { response: 10_000, deadline: 20_000 };

/**
 * Sends one request to the target and records the exchange. Never throws on a status;
 * throws only when no answer came (refused, timed out).
 */
export async function send(target: ContractTarget, req: SentRequest): Promise<Exchange> {
  const url = target.baseUrl + req.path;
  let pending = request(target.baseUrl)[req.method](req.path).timeout(TIMEOUT).set(req.headers);
  if (req.body !== undefined) pending = pending.send(req.body);
  // Keep the raw text: the suite judges the body itself, JSON or not.
  const res = await pending.buffer(true).parse((response, done) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => done(null, text));
  });
  const text = typeof res.body === 'string' ? res.body : '';
  return {
    request: { ...req, url },
    status: res.status,
    headers: res.headers as Record<string, string>,
    text,
    json: parseJson(text),
  };
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

const SHOWN_HEADERS = ['content-type', 'www-authenticate', 'allow', 'location'];
const MAX_BODY = 600;

/** The exchange as a person reads it in a failure message; the credential is masked. */
export function formatExchange(exchange: Exchange): string {
  const { request: req } = exchange;
  const requestHeaders = Object.entries(req.headers).map(
    ([name, value]) => `  ${name}: ${maskCredential(name, value)}`,
  );
  const responseHeaders = SHOWN_HEADERS.filter((name) => exchange.headers[name] !== undefined).map(
    (name) => `  ${name}: ${exchange.headers[name]}`,
  );
  return [
    `Request:  ${req.method.toUpperCase()} ${req.url}`,
    ...requestHeaders,
    ...(req.body === undefined ? [] : [`  ${cut(req.body)}`]),
    `Response: ${exchange.status}`,
    ...responseHeaders,
    `  ${exchange.text === '' ? '(empty body)' : cut(exchange.text)}`,
  ].join('\n');
}

function maskCredential(name: string, value: string): string {
  if (name.toLowerCase() !== 'authorization') return value;
  const [scheme, token] = value.split(/\s+/, 2);
  return token === undefined ? '***' : `${scheme} ***`;
}

function cut(text: string): string {
  return text.length > MAX_BODY
    ? `${text.slice(0, MAX_BODY)}... (${text.length} characters)`
    : text;
}
