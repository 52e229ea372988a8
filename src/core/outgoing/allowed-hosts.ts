// Where the mock may send a callback: a client names the URL, so a mock shared by a team
// would otherwise forward requests anywhere its network reaches (SSRF).

/** The hosts callbacks may go to when none are given: this machine's loopback names. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '::1'];

/**
 * Why a URL may not be called, or undefined when it may: an `http:` or `https:` URL whose host
 * is one of `hosts` (any case; `[::1]` as `::1`), or any host when `hosts` holds `*`.
 * @example refusal('http://169.254.169.254/', LOOPBACK_HOSTS) // 'host 169.254.169.254 is not allowed (…)'
 */
export function refusal(url: string, hosts: readonly string[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not an absolute URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `${parsed.protocol} URLs are not called, only http: and https:`;
  if (hosts.includes('*')) return undefined;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (hosts.some((allowed) => allowed.toLowerCase() === host)) return undefined;
  return `host ${host} is not allowed (--callback-hosts: ${hosts.join(', ')})`;
}
