// Runtime expressions, the one parser of them: OpenAPI's (3.1 §4.8.20.4, the same in 3.0 and
// 3.2: `$url`, `$method`, `$statusCode`, `$request.<source>` and `$response.<source>`, alone or
// embedded in a string between braces, `http://h/cb?id={$request.body#/id}`; a callback's key
// is one, and a link's parameters are) and Arazzo's superset (1.0 §4.8: `$inputs.`, `$steps.`,
// `$outputs.`, `$workflows.`, `$sourceDescriptions.`, `$components.`), which the workflow
// runner evaluates (core/workflow/runtime-expression.ts). Evaluated here against one exchange.

import { escapeToken, pointerTokens } from './json-pointer.js';

/** Where in the request or the response a `$request.`/`$response.` expression reads. */
type ExpressionSource =
  | { readonly in: 'header'; readonly name: string }
  | { readonly in: 'query'; readonly name: string }
  | { readonly in: 'path'; readonly name: string }
  /** The body, or the value a JSON Pointer (RFC 6901) names in it, as reference tokens. */
  | { readonly in: 'body'; readonly pointer: readonly string[] };

/** One runtime expression, parsed. */
export type RuntimeExpression =
  | { readonly kind: 'url' }
  | { readonly kind: 'method' }
  | { readonly kind: 'statusCode' }
  | { readonly kind: 'request' | 'response'; readonly source: ExpressionSource };

/** A string of literal text and `{expression}`s, in order. */
export type ExpressionTemplate = readonly (string | RuntimeExpression)[];

/** What an expression is evaluated against: one exchange, as plain data. */
export interface ExpressionContext {
  /** The request's whole URL. */
  url: string;
  /** In upper case. */
  method: string;
  statusCode?: number;
  request: ExchangeSide & {
    /** The query parameters as sent (the first value of a repeated one). */
    query?: Readonly<Record<string, unknown>>;
    /** The path parameters. */
    path?: Readonly<Record<string, unknown>>;
  };
  response?: ExchangeSide;
}

interface ExchangeSide {
  /** By name, any case. */
  headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Parsed JSON, or text. */
  body?: unknown;
}

/** An expression that does not follow the grammar; its message says where. */
export class RuntimeExpressionError extends Error {
  override readonly name = 'RuntimeExpressionError';
}

/** RFC 7230's `tchar`: what a header name (a `token`) is made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Which grammar an expression is read by: OpenAPI's, or Arazzo's superset of it. */
export type ExpressionGrammar = 'openapi' | 'arazzo';

/** The roots of each grammar, with what may follow one: the end, a name (`.`) or a pointer (`#`). */
const ROOTS: Readonly<Record<ExpressionGrammar, RegExp>> = {
  openapi: /^\$(url|method|statusCode|request|response)(?=$|[.#])/,
  arazzo:
    /^\$(url|method|statusCode|request|response|inputs|outputs|steps|workflows|sourceDescriptions|components)(?=$|[.#])/,
};

/** A runtime expression split into its parts, as either grammar writes it. */
export interface ExpressionParts {
  /** `url`, `request`, `steps`…, without the `$`. */
  root: string;
  /** The dotted names after the root: `['header', 'Content-Type']`. */
  names: string[];
  /** The JSON Pointer (RFC 6901) after `#`, as written, if any. */
  pointer: string | undefined;
}

/**
 * Splits a runtime expression (with no braces around it) into its parts, by the grammar given.
 * @returns the parts, or a sentence saying why it does not parse.
 * @example readExpression('$response.body#/id') // { root: 'response', names: ['body'], pointer: '/id' }
 */
export function readExpression(
  text: string,
  grammar: ExpressionGrammar = 'arazzo',
): ExpressionParts | string {
  const match = ROOTS[grammar].exec(text);
  if (!match)
    return grammar === 'openapi'
      ? `"${text}" is not a runtime expression: it must be $url, $method, $statusCode, $request.… or $response.…`
      : `"${text}" is not a runtime expression ($url, $method, $statusCode, $request., $response., $inputs., $outputs., $steps., $workflows., $sourceDescriptions., $components.)`;
  const root = match[1] ?? '';
  const rest = text.slice(match[0].length);
  const hash = rest.indexOf('#');
  const dotted = hash === -1 ? rest : rest.slice(0, hash);
  const pointer = hash === -1 ? undefined : rest.slice(hash + 1);
  if (pointer !== undefined && pointer !== '' && !pointer.startsWith('/'))
    return `the JSON pointer of "${text}" must start with /`;
  const names = dotted === '' ? [] : dotted.slice(1).split('.');
  if (names.some((name) => name === '')) return `"${text}" has an empty name`;
  const bare = ['url', 'method', 'statusCode'].includes(root);
  if (bare && names.length > 0) return `$${root} takes no name after it`;
  if (bare && pointer !== undefined) return `$${root} takes no JSON pointer`;
  if (!bare && names.length === 0) return `$${root} needs a name after it ($${root}.<name>)`;
  if (root === 'request' || root === 'response') {
    const [source, ...more] = names;
    if (source === 'body') {
      // Arazzo's runner also reads `$response.body.items.length`; OpenAPI's grammar does not.
      if (grammar === 'openapi' && more.length > 0)
        return `$${root}.body is followed by a JSON pointer (#/…), not a name`;
      return { root, names, pointer };
    }
    if (!['header', 'query', 'path'].includes(source ?? '') || more.length === 0)
      return `$${root}. is followed by header.<name>, query.<name>, path.<name> or body`;
    if (pointer !== undefined) return `only $${root}.body takes a JSON pointer`;
    if (source === 'header' && !TOKEN.test(more.join('.')))
      return `"${more.join('.')}" is not a header name`;
  }
  if (root === 'steps' && names.length > 1 && names[1] !== 'outputs')
    return `"${text}": a step's values are read as $steps.<stepId>.outputs.<name>`;
  return { root, names, pointer };
}

/**
 * Whether a string is a runtime expression: it starts with a root the grammar allows.
 * @example isExpression('$inputs.token') // true
 */
export function isExpression(text: string, grammar: ExpressionGrammar = 'arazzo'): boolean {
  return ROOTS[grammar].test(text);
}

/**
 * Parses one runtime expression (`$request.body#/callbackUrl`), with no braces around it.
 * @throws {RuntimeExpressionError} for text that does not follow the grammar.
 * @example parseExpression('$request.query.url') // { kind: 'request', source: { in: 'query', name: 'url' } }
 * @internal for its tests: no part of the package's surface
 */
export function parseExpression(text: string): RuntimeExpression {
  const parts = readExpression(text, 'openapi');
  if (typeof parts === 'string') return refuse(text, parts);
  const { root, names, pointer } = parts;
  if (root === 'url' || root === 'method' || root === 'statusCode') return { kind: root };
  const kind = root as 'request' | 'response';
  const [where, ...name] = names;
  if (where === 'body')
    return { kind, source: { in: 'body', pointer: parsePointer(pointer ?? '') } };
  return { kind, source: { in: where as 'header' | 'query' | 'path', name: name.join('.') } };
}

/**
 * Parses a JSON Pointer (RFC 6901) into its reference tokens, `~1` and `~0` decoded.
 * @throws {RuntimeExpressionError} for one that is neither empty nor starts with `/`.
 * @example parsePointer('/a~1b/0') // ['a/b', '0']
 * @internal for its tests: no part of the package's surface
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return refuse(pointer, 'a JSON Pointer is empty or starts with /');
  return pointerTokens(pointer);
}

/**
 * Parses a string that holds expressions between braces (`http://h/{$request.path.id}/done`);
 * a string that is one bare expression (`$request.body#/url`, as some descriptions write a
 * callback's key) is read as that expression.
 * @throws {RuntimeExpressionError} for an unclosed brace or an expression that does not parse.
 * @example parseTemplate('{$request.body#/callbackUrl}') // [{ kind: 'request', source: { in: 'body', pointer: ['callbackUrl'] } }]
 */
export function parseTemplate(text: string): ExpressionTemplate {
  if (text.startsWith('$')) return [parseExpression(text)];
  const parts: (string | RuntimeExpression)[] = [];
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('{', at);
    if (open === -1) {
      parts.push(text.slice(at));
      break;
    }
    if (open > at) parts.push(text.slice(at, open));
    const close = text.indexOf('}', open);
    if (close === -1) return refuse(text, 'a { is never closed');
    parts.push(parseExpression(text.slice(open + 1, close)));
    at = close + 1;
  }
  return parts;
}

/**
 * The value an expression names in an exchange; undefined where it names nothing (a header
 * not sent, a pointer into a body that lacks it).
 * @example evaluateExpression(parseExpression('$method'), context) // 'POST'
 * @internal for its tests: no part of the package's surface
 */
export function evaluateExpression(
  expression: RuntimeExpression,
  context: ExpressionContext,
): unknown {
  switch (expression.kind) {
    case 'url':
      return context.url;
    case 'method':
      return context.method;
    case 'statusCode':
      return context.statusCode;
    default: {
      const side = expression.kind === 'request' ? context.request : context.response;
      if (!side) return undefined;
      const { source } = expression;
      switch (source.in) {
        case 'header':
          return headerOf(side.headers, source.name);
        case 'query':
          return firstOf((side as ExpressionContext['request']).query?.[source.name]);
        case 'path':
          return (side as ExpressionContext['request']).path?.[source.name];
        case 'body':
          return resolvePointer(side.body, source.pointer);
      }
    }
  }
}

/**
 * A template filled from an exchange: each expression's value as text (an object's as JSON).
 * @returns the text, or the first expression that names nothing, written back.
 * @example expandTemplate(parseTemplate('{$request.body#/url}'), context) // { text: 'http://localhost:9000/cb' }
 */
export function expandTemplate(
  template: ExpressionTemplate,
  context: ExpressionContext,
): { text: string } | { missing: string } {
  let text = '';
  for (const part of template) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    const value = evaluateExpression(part, context);
    if (value === undefined || value === null) return { missing: writeExpression(part) };
    text += typeof value === 'object' ? JSON.stringify(value) : String(value as string | number);
  }
  return { text };
}

/**
 * An expression as the grammar writes it.
 * @example writeExpression({ kind: 'request', source: { in: 'query', name: 'u' } }) // '$request.query.u'
 */
export function writeExpression(expression: RuntimeExpression): string {
  if (expression.kind === 'url' || expression.kind === 'method' || expression.kind === 'statusCode')
    return `$${expression.kind}`;
  const { source } = expression;
  const tail =
    source.in === 'body'
      ? `body${source.pointer.length ? `#/${source.pointer.map(escapeToken).join('/')}` : ''}`
      : `${source.in}.${source.name}`;
  return `$${expression.kind}.${tail}`;
}

function resolvePointer(value: unknown, pointer: readonly string[]): unknown {
  let at = value;
  for (const token of pointer) {
    if (Array.isArray(at)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      at = at[Number(token)];
    } else if (typeof at === 'object' && at !== null && Object.hasOwn(at, token)) {
      at = (at as Record<string, unknown>)[token];
    } else return undefined;
  }
  return at;
}

function headerOf(headers: ExchangeSide['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === wanted) return typeof value === 'string' ? value : value?.join(', ');
  return undefined;
}

function firstOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function refuse(text: string, why: string): never {
  throw new RuntimeExpressionError(`runtime expression "${text}": ${why}`);
}
