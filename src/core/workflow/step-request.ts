import { isJsonMediaType, isXmlMediaType } from '../../openapi/media-types.js';
import { type Operation } from '../../openapi/operations.js';
import type { SecurityScheme } from '../../openapi/security-schemes.js';
import type { ParameterObject, RequestBodyObject } from './arazzo-types.js';
import { setValueAt } from '../../openapi/json-pointer.js';
import { isJsonObject } from '../../vocabulary/record.js';
import { asText, resolveValue, type ExpressionScope } from './runtime-expression.js';
import { jsonPathPointers, kindOf, select } from './selectors.js';

/** The credentials the user gave, as the contract suite takes them. */
export interface Credentials {
  /** `--api-key`: the token of bearer, API key, OAuth 2 and OpenID Connect schemes. */
  token?: string | undefined;
  /** `--credential <scheme>=<value>`: the value of one scheme, by its name in the spec. */
  byScheme?: ReadonlyMap<string, string> | undefined;
}

/** A step's request, ready to send and to show. */
export interface StepRequest {
  method: string;
  /** The operation's path filled, with the query: `/pets/7?fields=name`. */
  pathAndQuery: string;
  /** By lower-case name; the credential's value masked in `shownHeaders`. */
  headers: Record<string, string>;
  body: string | undefined;
  /** What runtime expressions read of it (`$request.*`). */
  values: {
    headers: Record<string, string>;
    query: Record<string, string>;
    path: Record<string, string>;
    body: unknown;
  };
  /** Header, query and cookie names that carry a secret, for reports to mask. */
  secrets: string[];
}

/**
 * Builds the request of a step from its parameters (path, query, header, cookie), its request
 * body (payload and replacements) and the credential its operation asks for.
 * @throws {Error} when a path parameter has no value, or a replacement cannot be made.
 */
export function buildStepRequest(
  operation: Operation,
  parameters: readonly ParameterObject[],
  requestBody: RequestBodyObject | undefined,
  scope: ExpressionScope,
  security: { schemes: ReadonlyMap<string, SecurityScheme>; credentials: Credentials },
): StepRequest {
  const path: Record<string, string> = {};
  const query: [string, string][] = [];
  const headers: Record<string, string> = {};
  const cookies: [string, string][] = [];
  for (const parameter of parameters) {
    const value = valueOfParameter(parameter.value, scope);
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.map(asText).join(',') : asText(value);
    if (parameter.in === 'path') path[parameter.name] = text;
    else if (parameter.in === 'query' && Array.isArray(value))
      for (const item of value) query.push([parameter.name, asText(item)]);
    else if (parameter.in === 'query') query.push([parameter.name, text]);
    else if (parameter.in === 'querystring')
      for (const pair of new URLSearchParams(text)) query.push(pair);
    else if (parameter.in === 'header') headers[parameter.name.toLowerCase()] = text;
    else if (parameter.in === 'cookie') cookies.push([parameter.name, text]);
  }
  const missing = [...operation.path.matchAll(/\{([^}]+)\}/g)]
    .map((match) => match[1] ?? '')
    .filter((name) => path[name] === undefined);
  if (missing.length > 0)
    throw new Error(
      `no value for the path parameter ${missing.join(', ')} of ${operation.method.toUpperCase()} ${operation.path}`,
    );
  const filled = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(path[name] ?? ''),
  );

  const secrets = placeCredential(operation, security, headers, query, cookies);
  if (cookies.length > 0)
    headers.cookie = cookies.map(([name, value]) => `${name}=${value}`).join('; ');

  let body: string | undefined;
  let bodyValue: unknown;
  if (requestBody && requestBody.payload !== undefined) {
    const mediaType =
      requestBody.contentType ??
      Object.keys(operation.requestBody?.content ?? {})[0] ??
      'application/json';
    bodyValue = payloadOf(requestBody, mediaType, scope);
    body = serialize(bodyValue, mediaType);
    headers['content-type'] ??= mediaType;
  }
  const search = new URLSearchParams(query).toString();
  return {
    method: operation.method.toUpperCase(),
    pathAndQuery: `${filled}${search ? `?${search}` : ''}`,
    headers,
    body,
    values: { headers: { ...headers }, query: Object.fromEntries(query), path, body: bodyValue },
    secrets,
  };
}

/** A parameter's value: a runtime expression, `{$…}` in text, or 1.1's Selector Object. */
export function valueOfParameter(value: unknown, scope: ExpressionScope): unknown {
  if (
    isJsonObject(value) &&
    typeof value.context === 'string' &&
    typeof value.selector === 'string'
  )
    return select(kindOf(value.type as never), resolveValue(value.context, scope), value.selector);
  return resolveValue(value, scope);
}

/** The payload with its runtime expressions read and its replacements made. */
function payloadOf(
  requestBody: RequestBodyObject,
  mediaType: string,
  scope: ExpressionScope,
): unknown {
  // A copy: a payload is the document's, and a retried step builds its body again.
  let payload = resolveValue(structuredClone(requestBody.payload), scope);
  for (const replacement of requestBody.replacements ?? []) {
    const value = valueOfParameter(replacement.value, scope);
    const kind = replacement.targetSelectorType
      ? kindOf(replacement.targetSelectorType)
      : isXmlMediaType(mediaType)
        ? 'xpath'
        : 'jsonpointer';
    if (typeof payload === 'string' && isJsonMediaType(mediaType))
      payload = JSON.parse(payload) as unknown;
    if (kind === 'jsonpointer') payload = setValueAt(payload, replacement.target, value);
    else if (kind === 'jsonpath') payload = replaceByJsonPath(payload, replacement.target, value);
    else
      throw new Error(
        `a ${kind} replacement target (${replacement.target}) is not supported: write the XML payload with {$…} expressions`,
      );
  }
  return payload;
}

/** Sets the value of every node a JSONPath selects. */
function replaceByJsonPath(payload: unknown, target: string, value: unknown): unknown {
  const pointers = jsonPathPointers(payload, target);
  if (pointers.length === 0)
    throw new Error(`the replacement target ${target} selects nothing in the payload`);
  return pointers.reduce((document, pointer) => setValueAt(document, pointer, value), payload);
}

function serialize(value: unknown, mediaType: string): string {
  if (typeof value === 'string') return value;
  if (mediaType.startsWith('application/x-www-form-urlencoded') && isJsonObject(value))
    return new URLSearchParams(
      Object.entries(value).map(([key, item]): [string, string] => [key, asText(item)]),
    ).toString();
  return JSON.stringify(value);
}

/**
 * Puts the user's credential where the operation's first satisfiable security requirement
 * takes it, unless the step already sends that header, query parameter or cookie itself.
 * Returns the names that carry a secret.
 */
function placeCredential(
  operation: Operation,
  {
    schemes,
    credentials,
  }: { schemes: ReadonlyMap<string, SecurityScheme>; credentials: Credentials },
  headers: Record<string, string>,
  query: [string, string][],
  cookies: [string, string][],
): string[] {
  const secretOf = (name: string, scheme: SecurityScheme): string | undefined => {
    const own = credentials.byScheme?.get(name);
    if (own !== undefined) return own;
    if (scheme.type === 'apiKey' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect')
      return credentials.token;
    if (scheme.type === 'http' && scheme.scheme === 'bearer') return credentials.token;
    return undefined;
  };
  for (const requirement of operation.security) {
    const names = Object.keys(requirement);
    const placed = names.map((name) => {
      const scheme = schemes.get(name);
      const secret = scheme && secretOf(name, scheme);
      return scheme && secret !== undefined ? { scheme, secret } : undefined;
    });
    if (names.length === 0 || placed.some((item) => item === undefined)) continue;
    const secrets: string[] = [];
    for (const item of placed) {
      if (!item) continue;
      const { scheme, secret } = item;
      if (scheme.type === 'apiKey') {
        secrets.push(scheme.name.toLowerCase());
        if (scheme.in === 'header') headers[scheme.name.toLowerCase()] ??= secret;
        else if (scheme.in === 'query') {
          if (!query.some(([name]) => name === scheme.name)) query.push([scheme.name, secret]);
        } else if (!cookies.some(([name]) => name === scheme.name))
          cookies.push([scheme.name, secret]);
      } else {
        secrets.push('authorization');
        const basic = scheme.type === 'http' && scheme.scheme === 'basic';
        headers.authorization ??= basic
          ? `Basic ${Buffer.from(secret).toString('base64')}`
          : scheme.type === 'http' && scheme.scheme !== 'bearer'
            ? `${scheme.scheme} ${secret}`
            : `Bearer ${secret}`;
      }
    }
    return secrets;
  }
  return [];
}
