import { DOMParser } from '@xmldom/xmldom';
import { paths, query } from 'jsonpath-rfc9535';
import xpath from 'xpath';
import { valueAt } from '../../openapi/json-pointer.js';

/** A type as a document writes it: a name, or 1.1's `{ type, version }`. */
export type WrittenType = string | { type: string; version?: string } | undefined;

/** The kind a written type names, without its version: the runner reads every version it allows alike. */
export function kindOf(type: WrittenType): string {
  if (type === undefined) return 'simple';
  return typeof type === 'string' ? type : type.type;
}

/**
 * The nodes a JSONPath (RFC 9535) selects from a value.
 * @throws {Error} when the path does not parse.
 * @example jsonPathNodes({ pets: [{ id: 1 }] }, '$.pets[*].id') // [1]
 */
export function jsonPathNodes(value: unknown, path: string): unknown[] {
  return query(value as Parameters<typeof query>[0], path);
}

/**
 * The JSON pointers of the nodes a JSONPath selects (from RFC 9535's normalized paths).
 * @example jsonPathPointers({ a: [{ b: 1 }] }, '$..b') // ['/a/0/b']
 */
export function jsonPathPointers(value: unknown, path: string): string[] {
  return paths(value as Parameters<typeof paths>[0], path).map((normalized) =>
    [...normalized.matchAll(/\[(?:'((?:[^'\\]|\\.)*)'|(\d+))\]/g)]
      .map((match) => match[1] ?? match[2] ?? '')
      .map((token) => token.replace(/\\(.)/g, '$1').replace(/~/g, '~0').replace(/\//g, '~1'))
      .map((token) => `/${token}`)
      .join(''),
  );
}

/**
 * What an XPath expression selects in an XML text: the text of the nodes it selects, or the
 * number, string or boolean it evaluates to.
 * @throws {Error} when the text is no XML or the expression does not parse.
 */
export function xpathResult(xml: string, expression: string): unknown {
  const document = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(`the answer is no XML: ${message}`);
    },
  }).parseFromString(xml, 'text/xml');
  const result = xpath.select(expression, document);
  if (Array.isArray(result))
    return result.map(
      (node) => (node as unknown as { textContent: string | null }).textContent ?? '',
    );
  return result;
}

/**
 * A selector applied to the value of its context (1.1's Selector Object, and the selector of a
 * payload replacement): a JSON pointer gives the value it names, a JSONPath the one node it
 * selects (several nodes: all of them, as a list), an XPath the text it selects.
 */
export function select(kind: string, context: unknown, selector: string): unknown {
  if (kind === 'jsonpointer') return valueAt(parsedIfJson(context), selector);
  if (kind === 'jsonpath') {
    const nodes = jsonPathNodes(parsedIfJson(context), selector);
    return nodes.length <= 1 ? nodes[0] : nodes;
  }
  if (kind === 'xpath') {
    const result = xpathResult(typeof context === 'string' ? context : String(context), selector);
    return Array.isArray(result) && result.length <= 1 ? result[0] : result;
  }
  throw new Error(`"${kind}" is no selector type (jsonpath, xpath, jsonpointer)`);
}

/** A body given as JSON text is read as the value it holds. */
function parsedIfJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
