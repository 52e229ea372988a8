// Arazzo's runtime expressions evaluated in a workflow's scope; they are parsed by the one
// parser of runtime expressions (openapi/runtime-expression.ts), Arazzo's grammar being a
// superset of OpenAPI's.
import {
  isExpression,
  readExpression,
  type ExpressionParts,
} from '../../openapi/runtime-expression.js';
import { valueAt } from '../../openapi/json-pointer.js';
import { isJsonObject } from '../../vocabulary/record.js';

/** What a step's message holds for `$request.*` and `$response.*`. */
export interface MessageValues {
  /** By lower-case name. */
  headers: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string>>;
  path?: Readonly<Record<string, string>>;
  /** The body parsed when JSON, else its text; undefined when there is none. */
  body: unknown;
}

/** Everything a runtime expression can read, at the point it is read. */
export interface ExpressionScope {
  url?: string | undefined;
  method?: string | undefined;
  statusCode?: number | undefined;
  request?: MessageValues | undefined;
  response?: MessageValues | undefined;
  inputs: Readonly<Record<string, unknown>>;
  /** The workflow's outputs so far; in a step that calls a workflow, the called one's. */
  outputs: Readonly<Record<string, unknown>>;
  steps: Readonly<Record<string, { outputs: Record<string, unknown> }>>;
  workflows: Readonly<Record<string, { inputs?: unknown; outputs: Record<string, unknown> }>>;
  sourceDescriptions: Readonly<Record<string, unknown>>;
  components: Readonly<Record<string, unknown>>;
}

/** Parses a runtime expression by Arazzo's grammar: its parts, or why it does not parse. */
export {
  readExpression as parseExpression,
  isExpression,
} from '../../openapi/runtime-expression.js';

/**
 * Evaluates a runtime expression in a scope.
 * @throws {ExpressionError} when it does not parse.
 * @example evaluate('$steps.create.outputs.id', scope) // 7
 */
export function evaluate(text: string, scope: ExpressionScope): unknown {
  const parsed = readExpression(text);
  if (typeof parsed === 'string') throw new ExpressionError(parsed);
  const value = valueOf(parsed, scope);
  return parsed.pointer === undefined ? value : valueAt(value, parsed.pointer);
}

/** A runtime expression that cannot be read. */
export class ExpressionError extends Error {
  override name = 'ExpressionError';
}

function valueOf({ root, names }: ExpressionParts, scope: ExpressionScope): unknown {
  switch (root) {
    case 'url':
      return scope.url;
    case 'method':
      return scope.method;
    case 'statusCode':
      return scope.statusCode;
    case 'request':
    case 'response': {
      const message = root === 'request' ? scope.request : scope.response;
      if (!message) return undefined;
      const [source, ...rest] = names;
      if (source === 'body') return lookup(message.body, rest);
      const key = rest.join('.');
      if (source === 'header') return message.headers[key.toLowerCase()];
      return (source === 'query' ? message.query : message.path)?.[key];
    }
    case 'inputs':
      return lookup(scope.inputs, names);
    case 'outputs':
      return lookup(scope.outputs, names);
    case 'steps':
      return lookup(scope.steps, names);
    case 'workflows':
      return lookup(scope.workflows, names);
    case 'sourceDescriptions':
      return lookup(scope.sourceDescriptions, names);
    default:
      return lookup(scope.components, names);
  }
}

/**
 * A value reached by dotted names, the longest name that exists first (output names may hold
 * dots: `$steps.s.outputs.a.b` is the output `a.b` if there is one, else `b` of output `a`).
 */
function lookup(value: unknown, names: readonly string[]): unknown {
  if (names.length === 0) return value;
  for (let take = names.length; take > 0; take--) {
    const key = names.slice(0, take).join('.');
    if (isJsonObject(value) && Object.hasOwn(value, key))
      return lookup(value[key], names.slice(take));
  }
  const [first, ...rest] = names;
  if (Array.isArray(value) && first !== undefined) {
    if (/^\d+$/.test(first)) return lookup(value[Number(first)], rest);
    if (first === 'length' && rest.length === 0) return value.length;
  }
  if (typeof value === 'string' && first === 'length' && rest.length === 0) return value.length;
  return undefined;
}

/** The `{$…}` expressions embedded in a string, with where each starts and ends. */
export function embeddedExpressions(
  text: string,
): { start: number; end: number; expression: string }[] {
  const found: { start: number; end: number; expression: string }[] = [];
  const pattern = /\{(\$[^{}]+)\}/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const expression = match[1] ?? '';
    if (isExpression(expression))
      found.push({ start: match.index, end: match.index + match[0].length, expression });
  }
  return found;
}

/**
 * A value of the document as a step sends it: a string that is a runtime expression becomes its
 * value, `{$…}` embedded in a string its text, and objects and arrays are read through.
 * @example resolveValue('Bearer {$inputs.token}', scope) // 'Bearer abc'
 */
export function resolveValue(value: unknown, scope: ExpressionScope): unknown {
  if (typeof value === 'string') {
    if (isExpression(value)) return evaluate(value, scope);
    const embedded = embeddedExpressions(value);
    if (embedded.length === 0) return value;
    let text = '';
    let from = 0;
    for (const { start, end, expression } of embedded) {
      text += value.slice(from, start) + asText(evaluate(expression, scope));
      from = end;
    }
    return text + value.slice(from);
  }
  if (Array.isArray(value)) return value.map((item) => resolveValue(item, scope));
  if (isJsonObject(value))
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveValue(item, scope)]),
    );
  return value;
}

/** A value written into text: strings as they are, the rest as JSON. */
export function asText(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
