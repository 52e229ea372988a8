// How the suite calls an operation: the credentials it holds for each scheme, the
// parameters (a nested collection's parent filled in), the headers and the body.
import { randomUUID } from 'node:crypto';
import {
  describeScheme,
  emptyCarrier,
  optionFor,
  secretOf,
  validCarrier,
  type Carrier,
} from './credentials.js';
import { send, type Exchange } from './http.js';
import { isSafe, recordKey, type Ledger } from './ledger.js';
import type { Held, Kit, KitBase } from './kit.js';
import { queryPairs, styledText } from './parameter-style.js';
import { isJsonMediaType } from '../src/openapi/media-types.js';
import {
  isOpen,
  jsonRequestOf,
  type ContractPlan,
  type PlanOperation,
  type Schema,
} from './plan.js';
import type { RuleContext } from './rule.js';
import { sampleValue } from './samples.js';
import { keyword, textKeyword } from './schema-parts.js';
import { RuleSkipped, valueNotMade } from './verdicts.js';

/** The kit's calls: `kit` is the whole kit, for what they ask of its other parts. */
export function kitCalls(
  { plan, label, scopes }: KitBase,
  kit: Kit,
): Pick<Kit, 'secret' | 'name' | 'cannotCall' | 'call' | 'madeUpParams'> {
  const secret: Kit['secret'] = (target, name, needs = []) => {
    const scheme = plan.securitySchemes[name];
    if (!scheme || name in target.refusedSchemes) return undefined;
    return secretOf(scheme, target.credentials, name, needs);
  };

  const validAuth = (target: Held, operation: PlanOperation): Carrier | undefined => {
    for (const requirement of operation.security) {
      if (Object.keys(requirement).length === 0) continue;
      const carrier = validCarrier(requirement, plan.securitySchemes, (name) =>
        secret(target, name, requirement[name]),
      );
      if (carrier) return carrier;
    }
    return isOpen(operation) ? emptyCarrier() : undefined;
  };

  return {
    secret,

    name(operation, families, text) {
      const numbers = [
        ...new Set(
          (Array.isArray(families) ? families : families ? [families] : [])
            .map((family) => plan.ruleNumbers[family])
            .filter((n): n is number => n !== undefined),
        ),
      ].sort((a, b) => a - b);
      const rule =
        numbers.length === 0
          ? ''
          : numbers.length === 1
            ? ` rule ${numbers[0]}`
            : ` rules ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
      return `${operation.operationId}${rule}: ${text}`;
    },

    cannotCall(target, operation) {
      if (validAuth(target, operation)) return undefined;
      const reasons = operation.security.flatMap((requirement) =>
        Object.keys(requirement)
          .filter((name) => secret(target, name, requirement[name]) === undefined)
          .map((name) => {
            const scheme = plan.securitySchemes[name];
            if (!scheme) return `the scheme ${name}, which the spec does not define`;
            const refused = target.refusedSchemes[name];
            if (refused) return `${describeScheme(scheme)} (${name}), ${refused}`;
            const given = target.credentials.byScheme?.[name] ?? [];
            if (given.length > 0)
              return `${describeScheme(scheme)} (${name}) with the scopes ${(requirement[name] ?? []).join(', ')}, which no credential given for it holds (${given.map((credential) => `[${(credential.scopes ?? []).join(',')}]`).join(', ')})`;
            const option = optionFor(scheme);
            return option
              ? `${describeScheme(scheme)} (${name}), and no credential was given for it: give ${option}`
              : `${describeScheme(scheme)} (${name}), which the suite cannot send`;
          }),
      );
      return `${operation.operationId} needs ${[...new Set(reasons)].join('; or ')}`;
    },

    async call(ctx, operation, options = {}) {
      // A valid call's body goes as JSON unless told otherwise: to an operation that takes
      // bodies but no JSON, a correct deployment would rightly refuse it (415).
      const types = Object.keys(operation.requestBody?.content ?? {});
      if (
        options.auth === undefined &&
        options.body !== undefined &&
        options.contentType === undefined &&
        types.length > 0 &&
        !jsonRequestOf(operation)
      )
        throw valueNotMade(
          `a ${operation.operationId} body as ${types.join(' or ')}: the suite sends this call's body as JSON only`,
        );
      const auth =
        options.auth === undefined
          ? (validAuth(ctx.target, operation) ??
            (() => {
              throw new RuleSkipped(kit.cannotCall(ctx.target, operation)!);
            })())
          : (options.auth ?? emptyCarrier());
      let params = options.params ?? {};
      // A nested collection's requests go under a record of each collection above it, level
      // by level (`orgId`, then `projectId`): the same records for the whole run.
      if (options.url === undefined)
        for (let scope = scopes.get(operation.operationId); scope;) {
          if (!(scope.parameter in params))
            params = { ...params, [scope.parameter]: await kit.parentId(ctx, scope.parent) };
          const above = scope.parent.plan.parent;
          scope = above &&
            scope.parent.parent && { parent: scope.parent.parent, parameter: above.parameter };
        }
      // A create under a key the client chooses (`PUT /warehouses/{code}`) goes to a new key.
      const role = kit.roleOf(operation);
      const keyParameter = role?.collection.plan.itemParameter;
      if (
        options.url === undefined &&
        role?.action === 'create' &&
        role.collection.upsert &&
        keyParameter !== undefined &&
        !(keyParameter in params)
      )
        params = { ...params, [keyParameter]: await kit.freshKey(ctx, role.collection) };
      // A conditional write carries the tag of the record as now read, never a made-up one.
      const precondition = operation.parameters.find(
        (parameter) =>
          parameter.in === 'header' &&
          parameter.name.toLowerCase() === 'if-match' &&
          parameter.required,
      );
      if (options.url === undefined && precondition && !(precondition.name in params))
        params = {
          ...params,
          [precondition.name]: await currentTag(ctx, kit, plan, operation, params),
        };
      let path = operation.path;
      const query: [string, string][] = [];
      const link =
        options.url === undefined ? undefined : underBase(ctx.target.baseUrl, options.url);
      if (link) {
        path = link.path;
        query.push(...link.query);
      }
      const headers: Record<string, string> = {};
      const cookies: [string, string][] = [];
      for (const parameter of operation.parameters) {
        if (link && (parameter.in === 'path' || parameter.in === 'query')) continue;
        // The message's own framing (Mojaloop documents `Content-Length`): HTTP writes it.
        if (parameter.in === 'header' && isFraming(parameter.name)) continue;
        const given = parameter.name in params;
        if (!given && !parameter.required) continue;
        if (given && params[parameter.name] === undefined) continue;
        const value = given
          ? params[parameter.name]
          : sampleValue(parameter.schema, `${label} ${parameter.name}`);
        // Written as its style says: a query array as `status=a&status=b`, not JSON.
        if (parameter.in === 'path')
          path = path.replace(
            `{${parameter.name}}`,
            styledText(parameter, value, encodeURIComponent),
          );
        else if (parameter.in === 'query') query.push(...queryPairs(parameter, value));
        // 3.2 `in: querystring`: the whole query, written as a form (its default media type).
        else if (parameter.in === 'querystring')
          query.push(...queryPairs({ ...parameter, style: 'form', explode: true }, value));
        else if (parameter.in === 'header') headers[parameter.name] = styledText(parameter, value);
        else cookies.push(...queryPairs(parameter, value));
      }
      Object.assign(headers, options.headers, auth.headers);
      cookies.push(...auth.cookies);
      if (cookies.length > 0)
        headers.Cookie = cookies
          .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
          .join('; ');
      const accepted = new Set(
        Object.values(operation.responses).flatMap((response) => Object.keys(response.content)),
      );
      // Every documented media type, JSON preferred: the suite reads JSON answers, and a server
      // that honours the order (the Pet Store lists XML first) would rightly answer XML.
      const json = [...accepted].filter((type) => isJsonMediaType(type));
      const others = [...accepted].filter((type) => !isJsonMediaType(type));
      headers.Accept =
        accepted.size === 0
          ? 'application/json'
          : [...json, ...others.map((type) => (json.length > 0 ? `${type};q=0.9` : type))].join(
              ', ',
            );
      if (options.body !== undefined || options.contentType)
        headers['Content-Type'] =
          options.contentType ?? jsonRequestOf(operation)?.mediaType ?? 'application/json';
      if (options.accept !== undefined) headers.Accept = options.accept;
      // A stream is read as it comes: no content coding to undo chunk by chunk.
      if (options.stream) headers['Accept-Encoding'] = 'identity';
      const exchange = await send(
        ctx,
        {
          method: operation.method,
          path,
          query: [...query, ...auth.query],
          headers,
          body: options.body,
          secrets: auth.secrets,
        },
        options.stream,
      );
      if (ctx.ledger && !isSafe(operation.method))
        noteWrite(ctx.ledger, kit, operation, params, exchange);
      const authorization = Object.entries(headers).find(
        ([name]) => name.toLowerCase() === 'authorization',
      )?.[1];
      ctx.seen?.(operation.operationId, exchange.status, {
        ...(authorization === undefined
          ? {}
          : { authorization: (/^\S*/.exec(authorization)?.[0] ?? '').toLowerCase() }),
        headers: Object.keys(headers)
          .map((name) => name.toLowerCase())
          .filter((name) => name !== 'authorization' && name !== 'cookie'),
        query: [...query, ...auth.query].map(([name]) => name),
        cookies: cookies.map(([name]) => name),
      });
      return exchange;
    },

    madeUpParams(operation) {
      return Object.fromEntries(
        operation.parameters
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => [parameter.name, madeUpValue(parameter.schema, label)]),
      );
    },
  };
}

/**
 * The current strong or weak tag of the record a conditional write names, as its read (the
 * GET of the same path) answers it with the credentials the suite holds; `*` (any current
 * record, RFC 9110 section 13.1.1) when nothing answers one.
 */
async function currentTag(
  ctx: RuleContext,
  kit: Kit,
  plan: ContractPlan,
  operation: PlanOperation,
  params: Record<string, unknown>,
): Promise<string> {
  const read = plan.operations.find(
    (other) => other.method === 'get' && other.path === operation.path,
  );
  if (!read || kit.cannotCall(ctx.target, read)) return '*';
  const path = Object.fromEntries(
    operation.parameters
      .filter((parameter) => parameter.in === 'path' && parameter.name in params)
      .map((parameter) => [parameter.name, params[parameter.name]]),
  );
  const answer = await kit.call(ctx, read, { params: path });
  return (answer.status < 300 && answer.headers.etag) || '*';
}

/**
 * Notes a write in the run's ledger: the request and its status; a record a create made, with
 * the path parameters that name it; a record a delete removed.
 */
function noteWrite(
  ledger: Ledger,
  kit: Kit,
  operation: PlanOperation,
  params: Record<string, unknown>,
  exchange: Exchange,
): void {
  ledger.writes.push({
    method: operation.method.toUpperCase(),
    path: exchange.request.path,
    status: exchange.status,
  });
  const role = kit.roleOf(operation);
  const { itemPath, itemParameter, name } = role?.collection.plan ?? {};
  if (!role || !itemPath || !itemParameter || exchange.status < 200 || exchange.status > 299)
    return;
  const named = (given: Record<string, unknown>) =>
    Object.fromEntries(
      [...itemPath.matchAll(/\{([^}]+)\}/g)]
        .map(([, parameter]) => [parameter!, given[parameter!]] as const)
        .filter(([, value]) => value !== undefined),
    );
  if (role.action === 'create') {
    const id = kit.createdId(role.collection, exchange);
    if (id !== undefined)
      ledger.created.push({ collection: name!, params: named({ ...params, [itemParameter]: id }) });
  } else if (role.action === 'delete') ledger.deleted.add(recordKey(name!, named(params)));
}

/**
 * A URL under the base URL as the path (relative to it) and the query it holds; `undefined`
 * for a URL elsewhere, where the suite sends no credential.
 */
export function underBase(
  baseUrl: string,
  url: string,
): { path: string; query: [string, string][] } | undefined {
  const parsed = new URL(url, `${baseUrl}/`);
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  if (parsed.origin !== base.origin || !parsed.pathname.startsWith(`${basePath}/`))
    return undefined;
  return { path: parsed.pathname.slice(basePath.length), query: [...parsed.searchParams] };
}

/** A path parameter value that names nothing: beyond what a deployment holds, of the right type. */
function madeUpValue(schema: Schema, label: string): unknown {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') || types.includes('number'))
    return Math.min(keyword(schema, 'maximum') ?? 987_654_321, 987_654_321);
  if (textKeyword(schema, 'format') === 'uuid') return randomUUID();
  if (textKeyword(schema, 'enum') || textKeyword(schema, 'pattern'))
    return sampleValue(schema, label);
  return `${label}-none`.replace(/\s+/g, '-');
}

/** Headers that frame the message, which the HTTP client writes itself and a caller cannot. */
const FRAMING = new Set([
  'content-length',
  'transfer-encoding',
  'host',
  'connection',
  'te',
  'upgrade',
  'keep-alive',
  'trailer',
]);

/**
 * Whether a header is one the HTTP client writes itself (`Content-Length`): a description may
 * document it, but no value of the suite's is sent for it.
 */
export function isFraming(name: string): boolean {
  return FRAMING.has(name.toLowerCase());
}
