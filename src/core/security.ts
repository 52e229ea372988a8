import type { OpenApiDocument } from '../openapi/load.js';
import type { Operation } from '../openapi/operations.js';
import { securitySchemesOf, type SecurityScheme } from '../openapi/security-schemes.js';
import { errors } from '../vocabulary/error-catalogue.js';
import type { ApiError } from '../vocabulary/errors.js';
import type { MockRequest } from '../vocabulary/request.js';
import type { AcceptedCredentials } from './accepted-credentials.js';
import { createKeyChecker, decodeBasic, readAuthorization, readCookies } from './credentials.js';
import { headerValue, repeated } from './headers.js';

type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

/** Why a credential that was sent is refused. */
type Problem = 'repeated' | 'empty' | 'malformed' | 'not-user-password' | 'invalid';

/** What a request sent for one scheme. */
type Outcome =
  | { kind: 'met' }
  | { kind: 'absent' }
  /** An Authorization header of another scheme: another requirement's, or a mistake. */
  | { kind: 'other-scheme' }
  | { kind: 'refused'; problem: Problem };

const MET: Outcome = { kind: 'met' };
const ABSENT: Outcome = { kind: 'absent' };
const OTHER_SCHEME: Outcome = { kind: 'other-scheme' };
const refused = (problem: Problem): Outcome => ({ kind: 'refused', problem });

/** One scheme as the check enforces it. */
interface SchemeRule {
  readonly name: string;
  /** What the client sends, for messages: `the API key`. */
  readonly what: string;
  /** How it sends it: `Authorization: Bearer <API_KEY>`. */
  readonly sendAs: string;
  /** The scheme name of the Authorization header it reads (`Bearer`), if it reads that header. */
  readonly authScheme?: string;
  /** Where the credential goes, in messages about a repeated or empty one. */
  readonly place: string;
  /** What is refused when wrong: `API key`. */
  readonly secretName: string;
  check(sent: SentCredentials): Outcome;
  /** The scopes the credential it met holds; undefined: every scope (a scheme without scopes). */
  grantedScopes?(sent: SentCredentials): ReadonlySet<string> | undefined;
}

/** A scheme of one requirement, with the scopes that requirement asks of it. */
interface RequiredScheme {
  readonly rule: SchemeRule;
  readonly scopes: readonly string[];
}

/** The requirements in force for an operation, ready to check. */
interface RequirementSet {
  /** No requirement, or an empty one (`{}`): anonymous requests are allowed. */
  readonly open: boolean;
  readonly requirements: readonly (readonly RequiredScheme[])[];
  /** The distinct Authorization schemes among them, for `WWW-Authenticate`. */
  readonly challenges: readonly string[];
}

/** What one scheme accepts, for the start-up lines. */
export interface SchemeSummary {
  /** `api_key (apiKey in header X-API-Key): the 1 key given`; never a secret of the user's. */
  readonly line: string;
  /** Nothing can meet it, or it is not checked. */
  readonly warning: boolean;
}

/**
 * The security of one API: every scheme its spec declares enforced with the credentials the
 * user gave. A request is let in when it meets one of the requirements in force (an
 * operation's own `security`, else the document's), that is every scheme of that requirement.
 * @example const security = createSecurityCheck(document, operations, accepted); security.check(request, '', operation); // throws a 401 ApiError without a credential
 */
export interface SecurityCheck {
  /**
   * Throws a 401 ApiError, with `WWW-Authenticate` for the schemes of the Authorization
   * header, unless the request meets the requirements of `operation` (of the document, for a
   * path the spec lacks). `search` is the query string, without `?`. The core runs it before
   * reading the body, so a bad credential gets 401 whatever the body holds.
   * @returns whether the request is identified: it sent a credential the mock accepts (for
   * any scheme, on an operation open to anonymous requests too), or the spec declares no
   * scheme to send one with. Only an identified request makes a session.
   */
  check(request: MockRequest, search: string, operation?: Operation): boolean;
  /** One line per declared scheme (and per scheme a requirement names undeclared). */
  readonly summary: readonly SchemeSummary[];
}

export interface SecurityCheckOptions {
  /** @default 'petstore-kit' */
  realm?: string;
  /**
   * Check only that a credential is sent, in the place and form its scheme says, whatever its
   * value: what the proxy checks of requests whose credentials the target judges.
   * @default false
   */
  presenceOnly?: boolean;
}

/**
 * Enforces the security of a (resolved) document with the accepted credentials.
 * @throws {SpecError} for a scheme the mock cannot read.
 */
export function createSecurityCheck(
  document: OpenApiDocument,
  operations: readonly Operation[],
  accepted: AcceptedCredentials,
  options: SecurityCheckOptions = {},
): SecurityCheck {
  const realm = options.realm ?? 'petstore-kit';
  const schemes = securitySchemesOf(document);
  const summary: SchemeSummary[] = [];
  const rules = new Map<string, SchemeRule>();
  for (const [name, scheme] of schemes) {
    const secrets =
      accepted.byScheme.get(name) ?? (isBasic(scheme) ? accepted.basic : accepted.keys);
    const isAccepted = options.presenceOnly
      ? () => true
      : secrets.length > 0
        ? createKeyChecker(secrets)
        : () => false;
    rules.set(name, ruleOf(name, scheme, isAccepted, accepted.scopes));
    summary.push(summaryOf(name, scheme, secrets, accepted));
  }
  const declared = [...rules.values()];
  const identifies = (request: MockRequest, search: string): boolean => {
    if (declared.length === 0) return true;
    const sent = new SentCredentials(request, search);
    return declared.some((rule) => rule.check(sent).kind === 'met');
  };
  const ruleFor = (name: string): SchemeRule => {
    let rule = rules.get(name);
    if (!rule) {
      rule = undeclaredRule(name);
      rules.set(name, rule);
      summary.push({
        line: `${name}: a security requirement names it, but the spec declares no such scheme: requirements naming it are never met`,
        warning: true,
      });
    }
    return rule;
  };

  const compiled = new WeakMap<readonly SecurityRequirement[], RequirementSet>();
  const compile = (requirements: readonly SecurityRequirement[]): RequirementSet => {
    let set = compiled.get(requirements);
    if (!set) {
      const sets = requirements.map((requirement) =>
        Object.entries(requirement).map(([name, scopes]) => ({
          rule: ruleFor(name),
          scopes: Array.isArray(scopes) ? scopes : [],
        })),
      );
      const challenges = new Set<string>();
      for (const { rule } of sets.flat()) if (rule.authScheme) challenges.add(rule.authScheme);
      set = {
        open: sets.length === 0 || sets.some((rules) => rules.length === 0),
        requirements: sets,
        challenges: [...challenges],
      };
      compiled.set(requirements, set);
    }
    return set;
  };
  // Compiled now, so that the summary names every undeclared scheme before the first request.
  const documentSet = compile(document.security ?? []);
  for (const operation of operations) compile(operation.security);

  return {
    summary,
    check(request, search, operation) {
      const set = operation ? compile(operation.security) : documentSet;
      if (set.open) return identifies(request, search);
      const sent = new SentCredentials(request, search);
      let firstRefusal: { rule: SchemeRule; problem: Problem } | undefined;
      let otherScheme = false;
      /** The scopes a requirement met but for them asked that the credential lacks. */
      let fewScopes: readonly string[] | undefined;
      // Made only for a request refused: a request met makes nothing but its SentCredentials.
      let lacking: SchemeRule[][] | undefined;
      for (const requirement of set.requirements) {
        let missing: SchemeRule[] | undefined;
        let unscoped: string[] | undefined;
        for (const { rule, scopes } of requirement) {
          const outcome = rule.check(sent);
          if (outcome.kind === 'met') {
            const granted = scopes.length > 0 ? rule.grantedScopes?.(sent) : undefined;
            const short = granted && scopes.filter((scope) => !granted.has(scope));
            if (short && short.length > 0) (unscoped ??= []).push(...short);
            continue;
          }
          (missing ??= []).push(rule);
          if (outcome.kind === 'refused') firstRefusal ??= { rule, problem: outcome.problem };
          else if (outcome.kind === 'other-scheme') otherScheme = true;
        }
        if (!missing && !unscoped) return true;
        if (!missing) fewScopes ??= unscoped;
        else (lacking ??= []).push(missing);
      }
      // A credential that is right but holds too few scopes (RFC 6750 §3.1): a 403 where the
      // operation documents one, else a 401 whose challenge says so.
      if (fewScopes && !firstRefusal) {
        const scope = `Bearer realm="${realm}", error="insufficient_scope", scope="${fewScopes.join(' ')}"`;
        throw operation?.responses['403'] !== undefined || operation === undefined
          ? errors.scopeForbidden(scope, fewScopes)
          : errors.insufficientScope(scope, fewScopes);
      }
      const challenge = (failed?: { rule: SchemeRule; problem: Problem }) =>
        set.challenges
          .map((scheme) => {
            const text = `${scheme} realm="${realm}"`;
            // RFC 6750's error parameter, on the bearer challenge of the scheme that failed.
            return failed && scheme === 'Bearer' && failed.rule.authScheme === 'Bearer'
              ? `${text}, error="${failed.problem === 'invalid' ? 'invalid_token' : 'invalid_request'}"`
              : text;
          })
          .join(', ');
      if (firstRefusal)
        throw refusal(firstRefusal.rule, firstRefusal.problem, challenge(firstRefusal));
      if (otherScheme) {
        const header = set.requirements
          .flat()
          .map(({ rule }) => rule)
          .filter((rule) => rule.authScheme);
        throw errors.otherScheme(
          challenge(),
          unique(header.map((rule) => rule.authScheme ?? '')).join(' or '),
          unique(header.map((rule) => rule.sendAs)).join(', or '),
        );
      }
      throw errors.missingCredential(
        challenge(),
        unique(
          (lacking ?? []).map((rules) =>
            rules
              .map((rule) => (rule.sendAs ? `${rule.what} as ${rule.sendAs}` : rule.what))
              .join(' and '),
          ),
        ).join(', or '),
      );
    },
  };
}

function refusal(rule: SchemeRule, problem: Problem, challenge: string): ApiError {
  switch (problem) {
    case 'repeated':
      return errors.repeatedCredential(challenge, rule.place);
    case 'empty':
      return errors.emptyCredential(challenge, rule.authScheme ?? rule.place, rule.sendAs);
    case 'malformed':
      return errors.malformedCredential(challenge, rule.secretName);
    case 'not-user-password':
      return errors.notUserPassword(challenge, rule.sendAs);
    case 'invalid':
      return errors.invalidCredential(challenge, rule.secretName);
  }
}

/** The parts of a request credentials travel in, each read once and only when asked for. */
class SentCredentials {
  #query: URLSearchParams | undefined;
  #cookies: Map<string, string[]> | undefined;

  constructor(
    readonly request: MockRequest,
    readonly search: string,
  ) {}

  /** A header's value, repeated values joined (see headerValue). */
  header(name: string): string | undefined {
    return headerValue(this.request, name);
  }

  /** Whether a header arrived more than once (see repeated). */
  repeated(name: string): boolean {
    return repeated(this.request, name);
  }

  query(name: string): string[] {
    this.#query ??= new URLSearchParams(this.search);
    return this.#query.getAll(name);
  }

  cookie(name: string): string[] {
    this.#cookies ??= readCookies(headerValue(this.request, 'cookie'));
    return this.#cookies.get(name) ?? [];
  }
}

function isBasic(scheme: SecurityScheme): boolean {
  return scheme.type === 'http' && scheme.scheme === 'basic';
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function ruleOf(
  name: string,
  scheme: SecurityScheme,
  isAccepted: (secret: string) => boolean,
  scopes: ReadonlyMap<string, ReadonlySet<string>> | undefined,
): SchemeRule {
  switch (scheme.type) {
    case 'apiKey':
      return apiKeyRule(name, scheme, isAccepted);
    case 'http':
      if (scheme.scheme === 'basic')
        return authorizationRule(name, {
          authScheme: 'Basic',
          what: 'a user name and password',
          sendAs: 'Authorization: Basic <base64 of user:password>',
          secretName: 'user name or password',
          malformedName: 'Basic credential',
          accepts: (token) => {
            const pair = decodeBasic(token);
            return pair === undefined ? 'not-user-password' : isAccepted(pair);
          },
        });
      return authorizationRule(name, {
        authScheme: capitalized(scheme.scheme),
        what: 'the API key',
        sendAs: `Authorization: ${capitalized(scheme.scheme)} <API_KEY>`,
        secretName: 'API key',
        malformedName: `${scheme.scheme} token`,
        accepts: isAccepted,
      });
    case 'oauth2':
    case 'openIdConnect': {
      const rule = authorizationRule(name, {
        authScheme: 'Bearer',
        what: 'an access token',
        sendAs: 'Authorization: Bearer <ACCESS_TOKEN>',
        secretName: 'access token',
        malformedName: 'bearer token',
        accepts: isAccepted,
      });
      if (!scopes) return rule;
      return {
        ...rule,
        grantedScopes(sent) {
          const read = readAuthorization(sent.header('authorization'), 'Bearer');
          return read.kind === 'token' ? scopes.get(read.token) : undefined;
        },
      };
    }
    case 'mutualTLS':
      // A client certificate cannot be asked for over plain HTTP: the summary says it is not checked.
      return { name, what: '', sendAs: '', place: '', secretName: '', check: () => MET };
  }
}

function authorizationRule(
  name: string,
  how: {
    authScheme: string;
    what: string;
    sendAs: string;
    secretName: string;
    malformedName: string;
    accepts: (token: string) => boolean | Problem;
  },
): SchemeRule {
  return {
    name,
    what: how.what,
    sendAs: how.sendAs,
    authScheme: how.authScheme,
    place: 'Authorization header',
    secretName: how.secretName,
    check(sent) {
      if (sent.repeated('authorization')) return refused('repeated');
      const read = readAuthorization(sent.header('authorization'), how.authScheme);
      switch (read.kind) {
        case 'missing':
          return ABSENT;
        case 'other-scheme':
          return OTHER_SCHEME;
        case 'empty-token':
          return refused('empty');
        case 'malformed':
          return refused('malformed');
        case 'token': {
          const verdict = how.accepts(read.token);
          return verdict === true ? MET : refused(verdict === false ? 'invalid' : verdict);
        }
      }
    },
  };
}

function apiKeyRule(
  name: string,
  scheme: Extract<SecurityScheme, { type: 'apiKey' }>,
  isAccepted: (key: string) => boolean,
): SchemeRule {
  const key = scheme.name;
  const lower = key.toLowerCase();
  const where = {
    header: { sendAs: `${key}: <API_KEY>`, place: `${key} header` },
    query: { sendAs: `?${key}=<API_KEY>`, place: `${key} query parameter` },
    cookie: { sendAs: `Cookie: ${key}=<API_KEY>`, place: `${key} cookie` },
  }[scheme.in];
  const valuesOf = (sent: SentCredentials): { values: string[]; repeated: boolean } => {
    if (scheme.in === 'query') {
      const values = sent.query(key);
      return { values, repeated: values.length > 1 };
    }
    if (scheme.in === 'cookie') {
      const values = sent.cookie(key);
      return { values, repeated: values.length > 1 };
    }
    const value = sent.header(lower);
    return { values: value === undefined ? [] : [value], repeated: sent.repeated(lower) };
  };
  return {
    name,
    what: 'the API key',
    sendAs: where.sendAs,
    place: where.place,
    secretName: `API key in the ${where.place}`,
    check(sent) {
      const { values, repeated } = valuesOf(sent);
      if (repeated) return refused('repeated');
      const [value] = values;
      if (value === undefined) return ABSENT;
      if (value.trim() === '') return refused('empty');
      if (isAccepted(value)) return MET;
      // APIs that put their key in the Authorization header document a word before it
      // (`SSWS <key>`, `Bearer <key>`): the key after it is accepted too.
      const after = lower === 'authorization' ? /^\S+ +(\S+)$/.exec(value)?.[1] : undefined;
      return after !== undefined && isAccepted(after) ? MET : refused('invalid');
    },
  };
}

function undeclaredRule(name: string): SchemeRule {
  return {
    name,
    what: `the credential of scheme ${name}, which the spec does not declare`,
    sendAs: '',
    place: `${name} credential`,
    secretName: 'credential',
    check: () => ABSENT,
  };
}

function summaryOf(
  name: string,
  scheme: SecurityScheme,
  secrets: readonly string[],
  accepted: AcceptedCredentials,
): SchemeSummary {
  const kind =
    scheme.type === 'apiKey'
      ? `apiKey in ${scheme.in === 'query' ? 'query parameter' : scheme.in} ${scheme.name}`
      : scheme.type === 'http'
        ? `http ${scheme.scheme}`
        : scheme.type;
  const line = (accepts: string, warning = false): SchemeSummary => ({
    line: `${name} (${kind}): ${accepts}`,
    warning,
  });
  if (scheme.type === 'mutualTLS')
    return line('not checked: the mock serves plain HTTP, so every request meets it', true);
  const basic = isBasic(scheme);
  const unit = basic ? 'user:password' : 'key';
  if (secrets.length === 0) return line(`nothing: no ${unit} was given for it`, true);
  const own = accepted.byScheme.has(name) ? ' for it' : '';
  const count = accepted.defaults
    ? `the default ${unit} ${secrets.join(', ')}`
    : `the ${secrets.length} ${unit}${secrets.length === 1 ? '' : 's'} given${own}`;
  const token = scheme.type === 'oauth2' || scheme.type === 'openIdConnect';
  return line(
    token
      ? `${count}, as bearer access tokens (scopes checked: a token given as token[scope,...] holds those, one without brackets every scope)`
      : count,
  );
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
