// The conflicts (409) a description documents for a write, read from what it says of them:
// which body property one record only may hold, and which one the state bounds. The suite
// provokes each on purpose, and keeps its other requests clear of them.
import type { PlanOperation, Schema } from './plan.js';
import { allowedTypes, keyword, textKeyword, writableProperties } from './schema-parts.js';

/** What a write's documented 409 is about. */
export interface DocumentedConflict {
  /** Properties whose value one record only may hold (`isbn`): reusing one gets 409. */
  unique: string[];
  /** A number the state bounds (a movement larger than the stock), and the way it overflows. */
  limit?: { property: string; way: 'below' | 'above' };
}

const REUSED = /\b(unique|already|exists?|taken|duplicated?|same|in use|reused)\b/i;
const BOUNDED =
  /\b(below|negative|exceeds?|exceeding|more than|larger than|greater than|less than|insufficient|beyond|over|capacity|limit)\b/i;
const BELOW = /\b(below|negative|less than|insufficient|under)\b/i;

/**
 * What the 409 an operation documents is about, from its description and the descriptions of
 * its body's properties; `undefined` when it documents no 409, or says nothing the suite reads.
 * @example conflictOf(addBook, schema) // { unique: ['isbn'] } for "A book with this isbn is on the shelf already."
 */
export function conflictOf(
  operation: PlanOperation,
  schema: Schema,
): DocumentedConflict | undefined {
  const conflict = operation.responses['409'];
  if (!conflict) return undefined;
  const said = conflict.description ?? '';
  const properties = writableProperties(schema);
  const named = (name: string) => new RegExp(`\\b${escape(name)}\\b`, 'i').test(said);
  const unique = Object.entries(properties)
    .filter(
      ([name, property]) =>
        /\bunique\b/i.test(textKeyword<string>(property, 'description') ?? '') ||
        (named(name) && REUSED.test(said)),
    )
    .map(([name]) => name);
  const numbers = Object.entries(properties).filter(([, property]) =>
    allowedTypes(property).some((type) => type === 'integer' || type === 'number'),
  );
  // The number the description names, else the body's only one (an entry's `amount`).
  const numeric =
    numbers.find(([name]) => named(name)) ?? (numbers.length === 1 ? numbers[0] : undefined);
  const limit =
    numeric && BOUNDED.test(said)
      ? { property: numeric[0], way: BELOW.test(said) ? ('below' as const) : ('above' as const) }
      : undefined;
  if (unique.length === 0 && !limit) return undefined;
  return { unique, ...(limit ? { limit } : {}) };
}

/** The largest magnitude tried: many services keep numbers in 32 bits whatever the schema says. */
const FAR = 2 ** 31 - 1;

/**
 * A value of a bounded number far past what any state allows, within its schema: the most
 * negative for a limit overflowing below, the largest for one above.
 */
export function overflowing(schema: Schema, way: 'below' | 'above'): number {
  return way === 'below'
    ? Math.max(keyword(schema, 'minimum') ?? -FAR, -FAR)
    : Math.min(keyword(schema, 'maximum') ?? FAR, FAR);
}

/** A value of a bounded number that no state refuses: the smallest step the safe way. */
export function withinLimit(schema: Schema): number {
  const low = keyword(schema, 'minimum') ?? 1;
  return Math.min(Math.max(low, 1), keyword(schema, 'maximum') ?? Infinity);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
