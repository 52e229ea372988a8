// Entity tags (RFC 9110 §8.8.3) of records, and the comparisons of §13.1 that conditional
// requests make with them.
import { createHash } from 'node:crypto';

/**
 * A strong tag of a value's current version: a hash of its JSON, so that every write that
 * changes a record changes its tag, with nothing kept beside the record.
 * @example entityTagOf({ id: 1, name: 'Bolt' }) // '"Xk3…"'
 */
export function entityTagOf(value: unknown): string {
  const json = JSON.stringify(value) ?? '';
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}

/** The tags of an `If-Match` or `If-None-Match` field: `*`, or each tag with whether it is weak. */
type TagList = '*' | readonly { readonly tag: string; readonly weak: boolean }[];

/**
 * Reads a field's list of entity tags; a value that is no list of tags reads as none.
 * @example tagListOf('W/"a", "b"') // [{ tag: '"a"', weak: true }, { tag: '"b"', weak: false }]
 */
function tagListOf(field: string): TagList {
  if (field.trim() === '*') return '*';
  const tags: { tag: string; weak: boolean }[] = [];
  for (const match of field.matchAll(/(W\/)?("[^"]*")/g))
    tags.push({ tag: match[2] ?? '', weak: match[1] !== undefined });
  return tags;
}

/**
 * Whether a list holds a record's (strong) tag: `If-Match` compares strongly (a weak tag never
 * matches), `If-None-Match` weakly (§13.1.1, §13.1.2).
 */
function listHolds(list: TagList, tag: string, comparison: 'strong' | 'weak'): boolean {
  if (list === '*') return true;
  return list.some((one) => one.tag === tag && (comparison === 'weak' || !one.weak));
}

/** What a request's conditions make of a tagged record: go on, or answer 304 or 412. */
export type ConditionOutcome = 'proceed' | 'not-modified' | 'failed';

/**
 * Evaluates a request's conditions against a record's current version (RFC 9110 §13.2.2):
 * `If-Match` first (strong comparison; false with no record), then `If-None-Match` (weak
 * comparison; true with no record), which is a 304 for a read and a 412 for a write.
 * @example conditionOn({ ifMatch: '"old"' }, record, 'write') // 'failed'
 */
export function conditionOn(
  conditions: { readonly ifMatch?: string; readonly ifNoneMatch?: string } | undefined,
  record: unknown,
  method: 'read' | 'write',
): ConditionOutcome {
  if (!conditions) return 'proceed';
  const tag = record === undefined ? undefined : entityTagOf(record);
  const { ifMatch, ifNoneMatch } = conditions;
  if (ifMatch !== undefined && (tag === undefined || !listHolds(tagListOf(ifMatch), tag, 'strong')))
    return 'failed';
  if (
    ifNoneMatch !== undefined &&
    tag !== undefined &&
    listHolds(tagListOf(ifNoneMatch), tag, 'weak')
  )
    return method === 'read' ? 'not-modified' : 'failed';
  return 'proceed';
}
