/** Timestamps the service sets: `createdAt` on create, `updatedAt` on every write. */
export const CREATED = /^(created|creation)(_?at|_?on|_?date|_?time)?$/i;
export const UPDATED = /^(updated|modified|last_?modified)(_?at|_?on|_?date|_?time)?$/i;

/**
 * Generated records put their timestamps in order: a record is never updated before it was
 * created. Seeds draw both at random, so the later one becomes the update.
 * @example inOrder({ createdAt: '2026-02-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' }) // the two swapped
 */
export function inOrder(fields: Record<string, unknown>): Record<string, unknown> {
  const names = Object.keys(fields);
  const created = names.find((name) => CREATED.test(name));
  const updated = names.find((name) => UPDATED.test(name));
  if (!created || !updated) return fields;
  const [a, b] = [fields[created], fields[updated]];
  if (typeof a !== 'string' || typeof b !== 'string' || !(Date.parse(b) < Date.parse(a)))
    return fields;
  return { ...fields, [created]: b, [updated]: a };
}
