import { isRecord, valueAt } from './json-pointer.js';

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

/** The roots the Arazzo ABNF allows (`$url`, `$inputs.`…), each with what it reads. */
const ROOT =
  /^\$(url|method|statusCode|request|response|inputs|outputs|steps|workflows|sourceDescriptions|components)(?=$|[.#])/;

/** A runtime expression split into its parts. */
export interface ParsedExpression {
  root: string;
  /** The dotted names after the root: `['header', 'Content-Type']`. */
  names: string[];
  /** The JSON pointer after `#`, if any. */
  pointer: string | undefined;
}

/**
 * Parses a runtime expression (Arazzo 1.0 §4.8 "Runtime Expressions").
 * @returns the parts, or a sentence saying why it does not parse.
 * @example parseExpression('$response.body#/id') // { root: 'response', names: ['body'], pointer: '/id' }
 */
export function parseExpression(text: string): ParsedExpression | string {
  const match = ROOT.exec(text);
  if (!match)
    return `"${text}" is not a runtime expression ($url, $method, $statusCode, $request., $response., $inputs., $outputs., $steps., $workflows., $sourceDescriptions., $components.)`;
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
  if (!bare && names.length === 0) return `$${root} needs a name after it ($${root}.<name>)`;
  if (root === 'request' || root === 'response') {
    const [source, ...more] = names;
    if (source === 'body') return { root, names, pointer };
    if (!['header', 'query', 'path'].includes(source ?? '') || more.length === 0)
      return `$${root}. is followed by header.<name>, query.<name>, path.<name> or body`;
    if (pointer !== undefined) return `only $${root}.body takes a JSON pointer`;
  }
  if (root === 'steps' && names.length > 1 && names[1] !== 'outputs')
    return `"${text}": a step's values are read as $steps.<stepId>.outputs.<name>`;
  return { root, names, pointer };
}

/** Whether a string is a runtime expression (its root is one the ABNF allows). */
export function isExpression(text: string): boolean {
  return ROOT.test(text);
}

/**
 * Evaluates a runtime expression in a scope.
 * @throws {ExpressionError} when it does not parse.
 * @example evaluate('$steps.create.outputs.id', scope) // 7
 */
export function evaluate(text: string, scope: ExpressionScope): unknown {
  const parsed = parseExpression(text);
  if (typeof parsed === 'string') throw new ExpressionError(parsed);
  const value = valueOf(parsed, scope);
  return parsed.pointer === undefined ? value : valueAt(value, parsed.pointer);
}

/** A runtime expression that cannot be read. */
export class ExpressionError extends Error {
  override name = 'ExpressionError';
}

function valueOf({ root, names }: ParsedExpression, scope: ExpressionScope): unknown {
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
    if (isRecord(value) && Object.hasOwn(value, key)) return lookup(value[key], names.slice(take));
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
  if (isRecord(value))
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
