import { nearMisses } from './near-misses.js';
import type { PlanRequirement, PlanSecurityScheme } from './plan.js';

/** The credentials the user gave the suite. */
export interface Credentials {
  /** A bearer token or API key (`--api-key`, `API_KEY`): for HTTP bearer, API key, OAuth 2 and OpenID Connect schemes. */
  token?: string | undefined;
  /** For HTTP basic (`--basic user:password`, `BASIC_AUTH`). */
  basic?: { user: string; password: string } | undefined;
  /**
   * Values given for one scheme each (`--credential <scheme>[scopes]=<value>`,
   * `CONTRACT_CREDENTIALS`), by scheme name: they replace `token` and `basic` for that scheme.
   */
  byScheme?: Record<string, SuiteCredential[]> | undefined;
}

/** A value given for one scheme, and the scopes it holds (absent: every scope). */
export interface SuiteCredential {
  value: string;
  scopes?: string[] | undefined;
}

/** Whether a credential holds every scope of `needs`. */
export function holdsScopes(credential: SuiteCredential, needs: readonly string[]): boolean {
  return (
    credential.scopes === undefined || needs.every((scope) => credential.scopes!.includes(scope))
  );
}

/** What a request carries for its credentials, besides method, path and body. */
export interface Carrier {
  headers: Record<string, string>;
  query: [string, string][];
  cookies: [string, string][];
  /** Names of the headers, query parameters and cookies above that hold a secret. */
  secrets: string[];
}

/** How the suite sends a scheme's credential. */
export type SchemeKind = 'bearer' | 'basic' | 'api-key' | 'unsupported';

/** One way to get a credential wrong, and the requests that try it. */
export interface BadCredential {
  /** As a rule name reads it: "the key with characters added after". */
  what: string;
  /** Each sent once; `shape` names it in a failure, the secret itself masked. */
  probes: { carrier: Carrier; shape: string }[];
}

/** Where the key goes for each kind, and where a careless deployment also looks for it. */
const USUAL_PLACES = {
  query: ['api_key', 'apikey', 'key', 'token', 'access_token'],
  header: ['X-API-Key', 'Api-Key', 'X-Auth-Token', 'X-Access-Token', 'Token'],
  cookie: ['api_key', 'token', 'access_token', 'session'],
};

/**
 * How a scheme takes its credential: HTTP bearer, OAuth 2 and OpenID Connect take a bearer
 * token in the Authorization header; API keys go where the spec puts them; HTTP basic takes
 * a user and password. Anything else (digest, mutual TLS) the suite cannot send.
 */
export function kindOf(scheme: PlanSecurityScheme): SchemeKind {
  if (scheme.type === 'apiKey' && scheme.in && scheme.name) return 'api-key';
  if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return 'bearer';
  if (scheme.type === 'http' && scheme.scheme === 'bearer') return 'bearer';
  if (scheme.type === 'http' && scheme.scheme === 'basic') return 'basic';
  return 'unsupported';
}

/**
 * The scheme in words, for notes and rule names.
 * @example describeScheme({ type: 'apiKey', in: 'header', name: 'X-API-Key' }) // 'an API key in the X-API-Key header'
 */
export function describeScheme(scheme: PlanSecurityScheme): string {
  switch (scheme.type) {
    case 'apiKey':
      return `an API key in the ${scheme.name} ${scheme.in === 'query' ? 'query parameter' : scheme.in}`;
    case 'oauth2':
      return 'an OAuth 2 bearer token';
    case 'openIdConnect':
      return 'an OpenID Connect bearer token';
    case 'http':
      return `HTTP ${scheme.scheme ?? 'authentication'}`;
    default:
      return 'mutual TLS';
  }
}

/** The option that gives a scheme its credential, for notes. */
export function optionFor(scheme: PlanSecurityScheme): string | undefined {
  const kind = kindOf(scheme);
  if (kind === 'basic') return '--basic user:password (BASIC_AUTH)';
  if (kind === 'unsupported') return undefined;
  return '--api-key (API_KEY)';
}

/** Where a scheme puts its credential: `header:authorization`, `query:api_key`. */
export function placeOf(scheme: PlanSecurityScheme): string | undefined {
  const kind = kindOf(scheme);
  if (kind === 'bearer' || kind === 'basic') return 'header:authorization';
  if (kind === 'api-key') return `${scheme.in}:${scheme.name!.toLowerCase()}`;
  return undefined;
}

/**
 * The credential of a scheme, as its kind sends it, holding the scopes `needs` names;
 * `undefined` when the user gave none (or none with those scopes).
 */
export function secretOf(
  scheme: PlanSecurityScheme,
  credentials: Credentials,
  name?: string,
  needs: readonly string[] = [],
): string | undefined {
  const kind = kindOf(scheme);
  const own = name === undefined ? undefined : credentials.byScheme?.[name];
  if (kind !== 'unsupported' && own && own.length > 0)
    return own.find((credential) => holdsScopes(credential, needs))?.value;
  if (kind === 'basic')
    return credentials.basic && `${credentials.basic.user}:${credentials.basic.password}`;
  if (kind === 'unsupported') return undefined;
  return credentials.token;
}

/** A carrier with nothing in it. */
export function emptyCarrier(): Carrier {
  return { headers: {}, query: [], cookies: [], secrets: [] };
}

/** Carriers merged: what each holds, together. */
export function merge(...carriers: Carrier[]): Carrier {
  const merged = emptyCarrier();
  for (const carrier of carriers) {
    Object.assign(merged.headers, carrier.headers);
    merged.query.push(...carrier.query);
    merged.cookies.push(...carrier.cookies);
    merged.secrets.push(...carrier.secrets);
  }
  return merged;
}

/** A value placed where the scheme takes its credential: `Bearer <value>`, the API key's place. */
export function place(scheme: PlanSecurityScheme, value: string): Carrier {
  const carrier = emptyCarrier();
  const kind = kindOf(scheme);
  if (kind === 'bearer') put(carrier, 'header', 'Authorization', `Bearer ${value}`);
  else if (kind === 'basic')
    put(carrier, 'header', 'Authorization', `Basic ${Buffer.from(value).toString('base64')}`);
  else if (kind === 'api-key') put(carrier, scheme.in!, scheme.name!, value);
  return carrier;
}

/**
 * The valid credentials of a requirement (every scheme it names), or `undefined` when one
 * of them is not held.
 */
export function validCarrier(
  requirement: PlanRequirement,
  schemes: Record<string, PlanSecurityScheme>,
  held: (name: string) => string | undefined,
): Carrier | undefined {
  const carriers: Carrier[] = [];
  for (const name of Object.keys(requirement)) {
    const scheme = schemes[name];
    const secret = held(name);
    if (!scheme || secret === undefined) return undefined;
    carriers.push(place(scheme, secret));
  }
  return merge(...carriers);
}

/**
 * The credentials a scheme must refuse, derived from the valid one: an unknown one, near
 * misses, the valid one under another scheme or not encoded, and the valid one in places the
 * scheme does not use (a query parameter, another header, a cookie); places in `taken` (where
 * some alternative of the operation does take a credential) are left out.
 */
export function badCredentials(
  scheme: PlanSecurityScheme,
  secret: string,
  options: { label: string; taken: ReadonlySet<string> },
): BadCredential[] {
  const kind = kindOf(scheme);
  const one = (what: string, carrier: Carrier, shape = what): BadCredential => ({
    what,
    probes: [{ carrier, shape }],
  });
  const bad: BadCredential[] = [];
  if (kind === 'basic') {
    const at = secret.indexOf(':');
    const user = secret.slice(0, at);
    const password = secret.slice(at + 1);
    const header = (value: string) => {
      const carrier = emptyCarrier();
      put(carrier, 'header', 'Authorization', value);
      return carrier;
    };
    bad.push(
      one('an unknown user and password', place(scheme, `${options.label}:not-a-password`)),
      one('the valid user and password not base64-encoded', header(`Basic ${secret}`)),
      one(
        'the valid credential under the Bearer scheme',
        header(`Bearer ${Buffer.from(secret).toString('base64')}`),
      ),
    );
    for (const miss of nearMisses(password, { noun: 'password', subject: 'the password' }))
      bad.push({
        what: miss.what,
        probes: miss.probes.map(({ value, shape }) => ({
          carrier: place(scheme, `${user}:${value}`),
          shape: shape.replace(/\bkey\b/g, 'password'),
        })),
      });
    const otherCase = [user.toUpperCase(), user.toLowerCase()].filter((u) => u !== user);
    if (otherCase.length > 0)
      bad.push({
        what: 'the user name in other letter case',
        probes: [...new Set(otherCase)].map((u, i) => ({
          carrier: place(scheme, `${u}:${password}`),
          shape:
            i === 0 && u === user.toUpperCase() ? 'the user upper-cased' : 'the user lower-cased',
        })),
      });
    return bad;
  }
  if (kind === 'unsupported') return bad;

  const noun = kind === 'bearer' ? 'bearer token' : 'API key';
  bad.push(
    one(
      `an unknown ${kind === 'bearer' ? 'key' : 'API key'}`,
      place(scheme, `${options.label}-not-a-key`),
    ),
  );
  if (kind === 'bearer') {
    const header = (value: string) => {
      const carrier = emptyCarrier();
      put(carrier, 'header', 'Authorization', value);
      return carrier;
    };
    bad.push(
      { what: 'the valid key under the Basic scheme', probes: basicEncodings(secret) },
      one('the valid key without the Bearer scheme', header(secret)),
    );
  }
  // Stripe-style HTTP basic: the key as the user name, or as the password, or raw.
  if (kind === 'api-key' && !options.taken.has('header:authorization'))
    bad.push({ what: 'the valid key as HTTP Basic credentials', probes: basicEncodings(secret) });
  for (const miss of nearMisses(secret, { noun, subject: 'the key' }))
    bad.push({
      what: miss.what,
      probes: miss.probes.map(({ value, shape }) => ({ carrier: place(scheme, value), shape })),
    });

  // The right key, where this scheme does not take it.
  const own = placeOf(scheme);
  const elsewhere = (where: 'query' | 'header' | 'cookie', names: string[]) =>
    [...new Set(names)]
      .filter((name) => `${where}:${name.toLowerCase()}` !== own)
      .filter((name) => !options.taken.has(`${where}:${name.toLowerCase()}`))
      .map((name) => {
        const carrier = emptyCarrier();
        put(carrier, where, name, secret);
        return {
          carrier,
          shape: `the key in the ${name} ${where === 'query' ? 'query parameter' : where}`,
        };
      });
  if (kind === 'api-key' && !options.taken.has('header:authorization')) {
    const carrier = emptyCarrier();
    put(carrier, 'header', 'Authorization', `Bearer ${secret}`);
    bad.push(one('the valid key as a bearer token', carrier, 'Authorization: Bearer <key>'));
  }
  const sameName = kind === 'api-key' ? [scheme.name!] : [];
  for (const [where, what] of [
    ['query', 'the valid key in a query parameter'],
    ['header', 'the valid key in another header'],
    ['cookie', 'the valid key in a cookie'],
  ] as const) {
    const probes = elsewhere(where, [...sameName, ...USUAL_PLACES[where]]);
    if (probes.length > 0) bad.push({ what, probes });
  }
  return bad;
}

/**
 * The key in an Authorization header under the Basic scheme, in every way a server may read
 * it: raw, as the user with no password (`base64(key:)`, as Stripe takes it), and as the
 * password with no user (`base64(:key)`).
 */
function basicEncodings(secret: string): { carrier: Carrier; shape: string }[] {
  return [
    ['Basic <key>', secret],
    ['Basic base64(<key>:)', Buffer.from(`${secret}:`).toString('base64')],
    ['Basic base64(:<key>)', Buffer.from(`:${secret}`).toString('base64')],
  ].map(([shape, value]) => {
    const carrier = emptyCarrier();
    put(carrier, 'header', 'Authorization', `Basic ${value!}`);
    return { carrier, shape: shape! };
  });
}

function put(carrier: Carrier, where: string, name: string, value: string): void {
  if (where === 'header') carrier.headers[name] = value;
  else if (where === 'query') carrier.query.push([name, value]);
  else carrier.cookies.push([name, value]);
  carrier.secrets.push(name.toLowerCase());
}
