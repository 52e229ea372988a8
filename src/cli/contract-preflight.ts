import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import type { ContractPlan, PlanOperation, PlanSecurityScheme } from './contract-plan.js';

/** A target the suite cannot judge; its message is one line. */
class PreflightError extends Error {
  override name = 'PreflightError';
}

/** The credentials given for the run. */
interface PreflightCredentials {
  token?: string | undefined;
  basic?: string | undefined;
  /** Values given for one scheme each (`--credential`), by scheme, with the scopes each holds. */
  byScheme?: Record<string, { value: string; scopes?: string[] | undefined }[]> | undefined;
}

/** How the preflight runs. */
export interface PreflightOptions {
  credentials: PreflightCredentials;
  /** How long one request may take. */
  timeoutMs: number;
  /** Where the base URL may be wrong, for the line that says every operation answers 404. */
  hint: (baseUrl: string) => string;
  /** No delete, not even of a made-up record. @default false */
  readOnly?: boolean;
}

/** What the preflight found: the schemes whose credential the target refused everywhere. */
export interface PreflightResult {
  refusedSchemes: Record<string, string>;
}

/** The longest the preflight waits for a target that asks it to (a warming deployment's 503). */
const PREFLIGHT_WAIT_MS = 30_000;

/**
 * Decides, before any rule runs, whether the target can be judged at all: something answers
 * at the base URL; it is not unavailable (a 503 or 429 is waited out once, as its
 * Retry-After asks and up to 30 s, then the run stops at this first sign); not every
 * operation answers 404 (a wrong base path); and the credentials given are not refused for
 * every operation it was tried on. Sends no valid write: reads, creates with a body the spec
 * refuses, and, for a scheme only writes use, writes of a made-up record; a read-only run
 * sends reads (GET) alone. Goes through the same proxy as the suite.
 * @throws {PreflightError} with one line saying why the target cannot be judged.
 */
export async function preflight(
  plan: ContractPlan,
  baseUrl: string,
  options: PreflightOptions,
): Promise<PreflightResult> {
  const { credentials, timeoutMs, hint, readOnly = false } = options;
  const { EnvHttpProxyAgent, request } = await import('undici');
  const dispatcher = new EnvHttpProxyAgent();
  let waited = false;
  const send = async (probe: Probe): Promise<number> => {
    for (;;) {
      let status: number;
      let retryAfter: string | undefined;
      try {
        const res = await request(baseUrl + probe.path, {
          method: probe.method.toUpperCase() as Dispatcher.HttpMethod,
          headers: probe.headers,
          body: probe.body,
          dispatcher,
          signal: AbortSignal.timeout(timeoutMs),
        });
        await res.body.dump();
        status = res.statusCode;
        const header = res.headers['retry-after'];
        retryAfter = Array.isArray(header) ? header[0] : header;
      } catch (err) {
        throw new PreflightError(`cannot reach ${baseUrl} (${failureCode(err, timeoutMs)})`);
      }
      if (status !== 503 && status !== 429) return status;
      const waitMs = retryAfter === undefined ? undefined : retryAfterMs(retryAfter);
      const asked = retryAfter === undefined ? '' : ` (Retry-After: ${retryAfter})`;
      if (waited || waitMs === undefined || waitMs > PREFLIGHT_WAIT_MS)
        throw new PreflightError(
          `the target is unavailable: ${probe.method.toUpperCase()} ${baseUrl}${probe.path} answers ${status}${asked}${waited ? ' after the wait it asked for' : waitMs === undefined ? '' : `, longer than the ${PREFLIGHT_WAIT_MS / 1000} s the suite waits`}`,
        );
      waited = true;
      await sleep(waitMs);
    }
  };

  try {
    await send({ method: 'get', path: '', headers: {}, schemes: [] });
    const probes = probesOf(plan, credentials, readOnly);
    const results: { probe: Probe; status: number }[] = [];
    for (const probe of probes) results.push({ probe, status: await send(probe) });

    const located = results.filter(({ probe }) => !probe.madeUp);
    if (located.length > 0 && located.every(({ status }) => status === 404))
      throw new PreflightError(
        `every operation of the interface answers 404 at ${baseUrl}: is the base path right? ${hint(baseUrl)}`,
      );

    const refusedSchemes: Record<string, string> = {};
    const tried = new Map<string, number[]>();
    for (const { probe, status } of results)
      for (const scheme of probe.schemes) tried.set(scheme, [...(tried.get(scheme) ?? []), status]);
    for (const [scheme, statuses] of tried)
      if (statuses.every((status) => status === 401 || status === 403))
        refusedSchemes[scheme] =
          `the target refused the credential given for it (${statuses.join(', ')}) on every operation the suite tried it on`;
    if (tried.size > 0 && Object.keys(refusedSchemes).length === tried.size) {
      const kinds = [...tried.keys()].map((name) => {
        const scheme = plan.securitySchemes[name];
        return scheme ? kindOf(scheme) : 'unsupported';
      });
      const what = kinds.includes('basic')
        ? kinds.some((kind) => kind !== 'basic')
          ? 'the key and the user and password are refused by the target: check API_KEY and BASIC_AUTH'
          : 'the user and password are refused by the target: check BASIC_AUTH'
        : 'the key is refused by the target: check API_KEY';
      const statuses = [...new Set([...tried.values()].flat())].join(' or ');
      throw new PreflightError(`${what} (every operation answers ${statuses} to it)`);
    }
    return { refusedSchemes };
  } finally {
    await dispatcher.close();
  }
}

/** A request of the preflight, and the schemes whose credentials it carries. */
interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  schemes: string[];
  /** Its path names a made-up record: a 404 says nothing of the base path. */
  madeUp?: boolean;
}

/**
 * The requests that tell a wrong target or credential from a working one: each read (lists
 * first, then reads of a made-up record) and each create with a body that breaks its schema,
 * once per security alternative the given credentials fill (once with none for an open one).
 */
function probesOf(
  plan: ContractPlan,
  credentials: PreflightCredentials,
  readOnly: boolean,
): Probe[] {
  // --read-only sends no unsafe method, not even one the target must refuse.
  const reads = [
    ...plan.operations.filter((op) => op.method === 'get' && !hasPathParameters(op)),
    ...plan.operations.filter((op) => op.method === 'post' && !hasPathParameters(op) && !readOnly),
    ...plan.operations.filter((op) => op.method === 'get' && hasPathParameters(op)),
  ];
  const probes = reads.flatMap((operation) => probesFor(plan, operation, credentials));
  if (readOnly) return probes;
  // A scheme only writes use (deletes behind HTTP basic, say) is tried on a made-up record,
  // with a body the schema refuses: nothing is written, whatever the credential.
  const tried = new Set(probes.flatMap((probe) => probe.schemes));
  const writes = plan.operations.filter(
    (op) =>
      hasPathParameters(op) &&
      (op.method === 'put' || op.method === 'patch' || op.method === 'delete') &&
      op.security.some((requirement) => Object.keys(requirement).some((name) => !tried.has(name))),
  );
  for (const operation of writes)
    for (const probe of probesFor(plan, operation, credentials))
      if (probe.schemes.some((name) => !tried.has(name))) probes.push(probe);
  return probes;
}

function probesFor(
  plan: ContractPlan,
  operation: PlanOperation,
  credentials: PreflightCredentials,
): Probe[] {
  const probes: Probe[] = [];
  const body = refusedBody(operation);
  if (operation.method !== 'get' && operation.method !== 'delete' && body === undefined) return [];
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const schema = operation.parameters.find((p) => p.in === 'path' && p.name === name)?.schema;
    const types = Array.isArray(schema?.type) ? schema.type : [schema?.type];
    if (types.includes('integer') || types.includes('number')) return '987654321';
    return schema?.format === 'uuid' ? randomUUID() : 'contract-preflight';
  });
  const alternatives = operation.security.length === 0 ? [{}] : operation.security;
  for (const requirement of alternatives) {
    const names = Object.keys(requirement);
    const headers: Record<string, string> = { accept: 'application/json' };
    const query: string[] = [];
    const cookies: string[] = [];
    let held = true;
    for (const name of names) {
      const scheme = plan.securitySchemes[name];
      const placed = scheme && placement(scheme, own(credentials, name, requirement[name] ?? []));
      if (!placed) {
        held = false;
        break;
      }
      Object.assign(headers, placed.headers);
      query.push(...placed.query);
      cookies.push(...placed.cookies);
    }
    if (!held) continue;
    if (cookies.length > 0) headers.cookie = cookies.join('; ');
    if (body !== undefined) headers['content-type'] = 'application/json';
    probes.push({
      method: operation.method,
      path: `${path}${query.length > 0 ? `?${query.join('&')}` : ''}`,
      headers,
      ...(body === undefined ? {} : { body }),
      schemes: names,
      ...(hasPathParameters(operation) ? { madeUp: true } : {}),
    });
  }
  return probes;
}

function hasPathParameters(operation: PlanOperation): boolean {
  return operation.path.includes('{');
}

/** A JSON body an object schema refuses (an array), so that a served create creates nothing. */
function refusedBody(operation: PlanOperation): string | undefined {
  const content = operation.requestBody?.content ?? {};
  const type = Object.keys(content).find((t) => /^application\/([\w.-]+\+)?json/i.test(t));
  const schema = type === undefined ? undefined : content[type];
  if (!schema) return undefined;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const isObject =
    types.includes('object') || (schema.type === undefined && schema.properties !== undefined);
  return isObject && !types.includes('array') ? '[]' : undefined;
}

/** How the suite sends a scheme's credential (contract-tests/credentials.ts says the same). */
function kindOf(scheme: PlanSecurityScheme): 'bearer' | 'basic' | 'api-key' | 'unsupported' {
  if (scheme.type === 'apiKey' && scheme.in && scheme.name) return 'api-key';
  if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return 'bearer';
  if (scheme.type === 'http' && scheme.scheme === 'bearer') return 'bearer';
  if (scheme.type === 'http' && scheme.scheme === 'basic') return 'basic';
  return 'unsupported';
}

/**
 * The credentials that fill a scheme: the value given for it by name that holds the scopes it
 * needs (none: the scheme is not tried), else the ones given for every scheme.
 */
function own(
  credentials: PreflightCredentials,
  name: string,
  needs: readonly string[],
): PreflightCredentials {
  const given = credentials.byScheme?.[name];
  if (!given || given.length === 0) return credentials;
  const value = given.find(
    ({ scopes }) => scopes === undefined || needs.every((scope) => scopes.includes(scope)),
  )?.value;
  return { token: value, basic: value };
}

/** The credential of a scheme where it goes; `undefined` when none was given for it. */
function placement(
  scheme: PlanSecurityScheme,
  credentials: PreflightCredentials,
): { headers: Record<string, string>; query: string[]; cookies: string[] } | undefined {
  const kind = kindOf(scheme);
  const { token, basic } = credentials;
  if (kind === 'basic')
    return basic
      ? {
          headers: { authorization: `Basic ${Buffer.from(basic).toString('base64')}` },
          query: [],
          cookies: [],
        }
      : undefined;
  const name = scheme.name ?? '';
  if (kind === 'unsupported' || !token) return undefined;
  if (kind === 'bearer')
    return { headers: { authorization: `Bearer ${token}` }, query: [], cookies: [] };
  const pair = `${encodeURIComponent(name)}=${encodeURIComponent(token)}`;
  if (scheme.in === 'header')
    return { headers: { [name.toLowerCase()]: token }, query: [], cookies: [] };
  if (scheme.in === 'query') return { headers: {}, query: [pair], cookies: [] };
  return { headers: {}, query: [], cookies: [pair] };
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP-date; `undefined` when it is neither. */
function retryAfterMs(value: string): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date) || !/[a-z]/i.test(text)) return undefined;
  return Math.max(0, date - Date.now());
}

/** Why a connection failed, in a word, with the remedy when there is one. */
function failureCode(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && err.name === 'TimeoutError')
    return `no answer within ${timeoutMs} ms`;
  const found = [err, (err as { cause?: unknown }).cause]
    .map((e) => (e as { code?: unknown } | undefined)?.code)
    .find((code): code is string => typeof code === 'string');
  if (found && /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(found))
    return `${found}: a private CA? set NODE_EXTRA_CA_CERTS to its PEM file`;
  return found ?? (err instanceof Error ? err.message : String(err));
}
