// OpenAPI's runtime expressions (3.1 §4.8.20.4, the same in 3.0 and 3.2): `$url`, `$method`,
// `$statusCode`, `$request.<source>` and `$response.<source>`, alone or embedded in a string
// between braces (`http://h/cb?id={$request.body#/id}`). A callback's key is one, and a link's
// parameters are. Arazzo's expressions ($inputs, $steps...) are a superset: they belong in a
// module of their own beside this one, which may reuse `parsePointer`.

/** Where in the request or the response a `$request.`/`$response.` expression reads. */
export type ExpressionSource =
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

/**
 * Parses one runtime expression (`$request.body#/callbackUrl`), with no braces around it.
 * @throws {RuntimeExpressionError} for text that does not follow the grammar.
 * @example parseExpression('$request.query.url') // { kind: 'request', source: { in: 'query', name: 'url' } }
 */
export function parseExpression(text: string): RuntimeExpression {
  if (text === '$url') return { kind: 'url' };
  if (text === '$method') return { kind: 'method' };
  if (text === '$statusCode') return { kind: 'statusCode' };
  const side = /^\$(request|response)\.(.*)$/s.exec(text);
  if (!side)
    return refuse(text, 'it must be $url, $method, $statusCode, $request.… or $response.…');
  const rest = side[2] ?? '';
  const kind = side[1] as 'request' | 'response';
  if (rest === 'body') return { kind, source: { in: 'body', pointer: [] } };
  if (rest.startsWith('body#'))
    return { kind, source: { in: 'body', pointer: parsePointer(rest.slice(5)) } };
  const named = /^(header|query|path)\.(.+)$/s.exec(rest);
  if (!named)
    return refuse(
      text,
      'its source must be header.<name>, query.<name>, path.<name> or body[#<pointer>]',
    );
  const where = named[1] as 'header' | 'query' | 'path';
  const name = named[2] ?? '';
  if (where === 'header' && !TOKEN.test(name))
    return refuse(text, `"${name}" is not a header name`);
  return { kind, source: { in: where, name } };
}

/**
 * Parses a JSON Pointer (RFC 6901) into its reference tokens, `~1` and `~0` decoded.
 * @throws {RuntimeExpressionError} for one that is neither empty nor starts with `/`.
 * @example parsePointer('/a~1b/0') // ['a/b', '0']
 */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return refuse(pointer, 'a JSON Pointer is empty or starts with /');
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
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
      ? `body${source.pointer.length ? `#/${source.pointer.map((t) => t.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}` : ''}`
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
