// Reading credentials off a request: the Authorization header by scheme, Basic's user and
// password, cookies. Nothing here decides whether a credential is accepted (security.ts does).
import { parseCookie } from 'cookie';

/** What the Authorization header of a request holds for one authentication scheme. */
export type Authorization =
  | { kind: 'missing' }
  | { kind: 'empty-token' }
  | { kind: 'other-scheme' }
  | { kind: 'malformed' }
  | { kind: 'token'; token: string };

/** A credential as RFC 9110 writes it after the scheme name (token68). */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
const SPACE = 0x20;

/**
 * Reads an Authorization header as a credential of `scheme`. The scheme name is
 * case-insensitive and may be followed by one or more spaces (RFC 9110); the token itself is
 * taken exactly as sent.
 * @example readAuthorization('basic dXNlcjpwYXNz', 'Basic') // { kind: 'token', token: 'dXNlcjpwYXNz' }
 */
export function readAuthorization(header: string | undefined, scheme: string): Authorization {
  if (header === undefined) return { kind: 'missing' };
  // What nearly every client sends, read without a regular expression: the scheme as written
  // in the spec, one space, a token (the general reading below gives the same).
  if (header.charCodeAt(scheme.length) === SPACE && header.startsWith(scheme)) {
    const token = header.slice(scheme.length + 1);
    if (TOKEN68.test(token)) return { kind: 'token', token };
  }
  // Node trims the optional whitespace around a header value already.
  if (header.trim() === '') return { kind: 'missing' };
  const sent = /^\S*/.exec(header)?.[0] ?? '';
  if (sent.toLowerCase() !== scheme.toLowerCase()) return { kind: 'other-scheme' };
  const rest = header.slice(sent.length);
  if (rest.trim() === '') return { kind: 'empty-token' };
  const token = /^ +(.*)$/s.exec(rest)?.[1];
  if (token === undefined || !TOKEN68.test(token)) return { kind: 'malformed' };
  return { kind: 'token', token };
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The `user:password` a Basic credential encodes (RFC 7617: base64 of UTF-8), or undefined
 * when it is not base64 of text holding a colon. Base64 is read strictly: any character or
 * padding that a plain encoder would not write makes it undefined.
 * @example decodeBasic('dXNlcjpwYXNz') // 'user:pass'
 */
export function decodeBasic(token: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64');
  // Node's decoder skips what it cannot read; re-encoding tells whether it read everything.
  if (bytes.toString('base64').replace(/=+$/, '') !== token.replace(/=+$/, '')) return undefined;
  let text: string;
  try {
    text = fatalUtf8.decode(bytes);
  } catch {
    return undefined;
  }
  return text.includes(':') ? text : undefined;
}

/**
 * Every value of every cookie of a Cookie header, by name (a name sent twice has two values),
 * decoded as the `cookie` package decodes them.
 * @example readCookies('a=1; b=x%20y; a=2').get('a') // ['1', '2']
 */
export function readCookies(header: string | undefined): Map<string, string[]> {
  const cookies = new Map<string, string[]>();
  if (!header) return cookies;
  // A cookie value cannot hold a semicolon (RFC 6265), so each piece is one cookie; the
  // package reads each, and the names it would keep only once are all kept here.
  for (const piece of header.split(';')) {
    for (const [name, value] of Object.entries(parseCookie(piece))) {
      if (value === undefined) continue;
      const values = cookies.get(name);
      if (values) values.push(value);
      else cookies.set(name, [value]);
    }
  }
  return cookies;
}

/**
 * A predicate that tells whether a secret is one of `secrets`, in constant time: every secret
 * is compared, each over the length of the longest one whatever was sent, with no early exit,
 * so the time taken says nothing of the secrets, their lengths or how close a guess came.
 * Compared in place, with nothing made per call: a digest per request (a hash, a buffer) costs
 * a share of the mock's throughput.
 * @throws {Error} when `secrets` is empty or holds an empty one.
 * @example const isKey = createKeyChecker(['alpha']); isKey('alpha') // true
 */
export function createKeyChecker(secrets: readonly string[]): (candidate: string) => boolean {
  if (secrets.length === 0) throw new Error('at least one API key is needed');
  if (secrets.some((secret) => secret === '')) throw new Error('an API key cannot be empty');
  const known = [...secrets];
  const longest = Math.max(...known.map((secret) => secret.length));
  return (candidate) => {
    let matches = 0;
    for (const secret of known) {
      // Past either string's end, charCodeAt gives NaN, which `| 0` makes 0: the lengths,
      // compared first, tell those apart.
      let diff = candidate.length ^ secret.length;
      for (let i = 0; i < longest; i++)
        diff |= (candidate.charCodeAt(i) | 0) ^ (secret.charCodeAt(i) | 0);
      matches |= Number(diff === 0);
    }
    return matches === 1;
  };
}
