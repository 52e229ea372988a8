import { isJsonObject } from '../../vocabulary/record.js';
import { fragmentTokens } from '../json-pointer.js';
import type { TypeOptions } from './options.js';

/** What every part of the generator reads of one run; made per run, never shared. */
export interface Context {
  /** The document as the loader gives it: OpenAPI 3.1, its `$ref`s kept. */
  readonly document: Record<string, unknown>;
  /** The same document with every `$ref` replaced, where a `$ref` to another file is read. */
  readonly resolved: Record<string, unknown>;
  readonly options: TypeOptions;
  /** `components/<section>/<name>` of the components a request body or parameter reaches. */
  readonly requestReach: ReadonlySet<string>;
  /** The objects being written, outermost first: meeting one again is a cycle. */
  readonly open: Set<object>;
  /** The helper types the text uses (`WithRequired`), declared once at its end. */
  readonly helpers: Set<keyof typeof HELPERS>;
}

/** Where a part of the document is, and whether a client writes it (a request) or reads it. */
export interface At {
  /** The JSON pointer's segments, to find the resolved twin of a `$ref` to another file. */
  readonly path: readonly string[];
  /** In a request body or a parameter: a property with a default stays optional. */
  readonly request: boolean;
}

/** The methods a path item may hold, in openapi-typescript's order. */
export const METHODS = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
] as const;

/** Helper types a module may need, as openapi-typescript declares them. */
export const HELPERS = {
  WithRequired: 'type WithRequired<T, K extends keyof T> = T & { [P in K]-?: T[P] };',
} as const;

/** The sections of `components` the generator writes, in openapi-typescript's order. */
export const SECTIONS = [
  'schemas',
  'responses',
  'parameters',
  'requestBodies',
  'headers',
  'pathItems',
] as const;

export type Section = (typeof SECTIONS)[number];

/** The value at a path in an object, or undefined. */
export function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const segment of path) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isJsonObject(node)) node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    else return undefined;
  }
  return node;
}

/** The component a `$ref` names (`#/components/schemas/Pet`), when the document defines it. */
export function componentOf(
  ref: string,
  ctx: Context,
): { section: Section; name: string } | undefined {
  const segments = fragmentTokens(ref);
  if (segments?.length !== 3 || segments[0] !== 'components') return undefined;
  const [, named, name] = segments;
  const section = SECTIONS.find((known) => known === named);
  if (!section || name === undefined || valueAt(ctx.document, segments) === undefined)
    return undefined;
  return { section, name };
}

/**
 * What a `$ref` object stands for: its target in this document, or (another file's) the
 * resolved twin of the place it is at; undefined when neither is found.
 */
export function targetOf(
  ref: string,
  at: At,
  ctx: Context,
): { value: unknown; at: At } | undefined {
  const segments = fragmentTokens(ref);
  if (segments) {
    const value = valueAt(ctx.document, segments);
    return value === undefined ? undefined : { value, at: { ...at, path: segments } };
  }
  const value = valueAt(ctx.resolved, at.path);
  return value === undefined ? undefined : { value, at };
}

/** An object without its `$ref`, followed through any chain of them, or undefined. */
export function followed(
  value: unknown,
  at: At,
  ctx: Context,
): Record<string, unknown> | undefined {
  let current: unknown = value;
  let where = at;
  // A bound, not a count any document needs: a `$ref` loop must not hang the generator.
  for (let hops = 0; hops < 32; hops++) {
    if (!isJsonObject(current)) return undefined;
    if (typeof current.$ref !== 'string') return current;
    const target = targetOf(current.$ref, where, ctx);
    if (!target) return undefined;
    current = target.value;
    where = target.at;
  }
  return undefined;
}

/** The entries of an object, sorted by name when the options say so. */
export function entriesOf(value: unknown, ctx: Context): [string, unknown][] {
  if (!isJsonObject(value)) return [];
  const entries = Object.entries(value);
  if (ctx.options.alphabetize) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries;
}
