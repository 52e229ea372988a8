// What a service keeps of a value a client wrote: a `writeOnly` property nested in it (the
// password of a planet's `creator`) is taken in and never shown again, so it is not kept. A
// kept one broke the record's own answers, and the record maker made the whole value anew.
import type { SchemaObject } from '../../openapi/load.js';
import { carries, propertiesOf } from '../../openapi/schema-parts.js';
import { isJsonObject } from '../../vocabulary/record.js';

/** Deeper than this, a value is kept as sent (and the answer check judges it). */
const MAX_DEPTH = 64;

/**
 * A client's value without the `writeOnly` properties its schema declares at any depth (arrays
 * through `items`): the same value when it holds none, a copy otherwise (a body is never
 * changed: the request log shows it as sent).
 * @example withoutWriteOnly({ name: 'Ada', password: 'p' }, user) // { name: 'Ada' }
 */
export function withoutWriteOnly(value: unknown, schema: SchemaObject, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = (schema as { items?: unknown }).items;
    if (!isJsonObject(items)) return value;
    const kept = value.map((item: unknown) =>
      withoutWriteOnly(item, items as SchemaObject, depth + 1),
    );
    return kept.some((item, i) => item !== value[i]) ? kept : value;
  }
  if (!isJsonObject(value)) return value;
  const properties = propertiesOf(schema);
  let changed = false;
  const kept: [string, unknown][] = [];
  for (const name of Object.keys(value)) {
    const property = properties[name];
    if (property && carries(property, 'writeOnly')) {
      changed = true;
      continue;
    }
    const inner = property ? withoutWriteOnly(value[name], property, depth + 1) : value[name];
    if (inner !== value[name]) changed = true;
    kept.push([name, inner]);
  }
  return changed ? Object.fromEntries(kept) : value;
}
