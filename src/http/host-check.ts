// Which Host headers the mock answers: a page on another site can rebind its DNS name to
// 127.0.0.1 and reach a local server through the browser (DNS rebinding); its requests then
// carry that site's name as their Host. Dev servers close the hole the same way (Vite's
// `server.allowedHosts`, webpack-dev-server's `allowedHosts`).
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { errors } from '../vocabulary/error-catalogue.js';
import type { ApiError } from '../vocabulary/errors.js';

/** The value of `allowedHosts` that allows every host: unsafe, as it reopens the hole. */
const ANY_HOST = '*';

/** What a listener asks of each request's Host: undefined to answer it, an ApiError to refuse it. */
export type HostStep = (req: IncomingMessage) => ApiError | undefined;

/** How many Host headers a check remembers as answered: a client sends the same one every time. */
const REMEMBERED_HOSTS = 16;

/** Addresses that mean "every interface": listening on one, the mock is reached by any address. */
const EVERY_ADDRESS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The Host check of a mock listening on `listenHost`: it answers loopback names (`localhost`,
 * `*.localhost`) and addresses (`127.0.0.0/8`, `::1`), `listenHost` itself, and the hosts in
 * `allowed` (names or addresses, any case, without a port); `*` in `allowed` allows every host.
 * A mock told to listen on every address (`0.0.0.0`, `::`) answers any IP address too: an
 * address cannot be rebound, only a name can. A request with no Host (HTTP/1.0) is answered.
 * @returns undefined when every host is allowed: then there is nothing to check.
 * @example hostCheck('127.0.0.1', ['mock.internal'])
 */
export function hostCheck(listenHost: string, allowed: readonly string[]): HostStep | undefined {
  if (allowed.includes(ANY_HOST)) return undefined;
  const named = new Set([...allowed, listenHost].map(normalHost));
  const anyAddress = EVERY_ADDRESS.has(listenHost.trim());
  /** Host headers found allowed, as sent: read again for every request otherwise. */
  const answered = new Set<string>();
  return (req) => {
    const header = req.headers.host;
    if (header === undefined || header === '' || answered.has(header)) return undefined;
    const host = normalHost(hostOf(header));
    if (named.has(host) || isLoopback(host) || (anyAddress && isIP(host) !== 0)) {
      if (answered.size < REMEMBERED_HOSTS) answered.add(header);
      return undefined;
    }
    return errors.hostNotAllowed(host);
  };
}

/** The host of a Host header, without its port or an IPv6 address's brackets. */
function hostOf(header: string): string {
  if (header.startsWith('[')) {
    const end = header.indexOf(']');
    return end === -1 ? header.slice(1) : header.slice(1, end);
  }
  const colon = header.indexOf(':');
  return colon === -1 ? header : header.slice(0, colon);
}

function normalHost(host: string): string {
  const lower = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1';
}
