import { isJsonObject } from '../../vocabulary/record.js';

/**
 * Applies a JSON Merge Patch (RFC 7386) to a JSON value: objects merge member by member,
 * `null` removes a member, anything else replaces. Neither input is changed.
 * @example applyMergePatch({ a: 1, b: 2 }, { b: null, c: 3 }) // { a: 1, c: 3 }
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return patch;
  const result = new Map<string, unknown>(isJsonObject(target) ? Object.entries(target) : []);
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) result.delete(name);
    else result.set(name, applyMergePatch(result.get(name), value));
  }
  // fromEntries defines members: one named __proto__ stays a member, never a prototype.
  return Object.fromEntries(result);
}
