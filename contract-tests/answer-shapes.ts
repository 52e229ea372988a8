// What a write's answer documents it holds, which decides what the suite may compare: a record
// echoes what was sent; a bare id (Dialogporten's creates), an "empty JSON object" (rclone's
// calls) or no body at all holds nothing to compare, and the record is read back instead.
import { answersBody, jsonResponseOf, responseFor, type PlanOperation } from './plan.js';
import { propertiesOf } from './schema-parts.js';

/**
 * The answer of that status documents a body that can hold a record: JSON whose schema names
 * properties (or is one of several shapes), not none, a bare text or number, or an object
 * documented as nothing more (`{type: object}`).
 * @example answersRecord(createDialog, 201) // false: the spec documents `{ type: string }`, the new id
 */
export function answersRecord(operation: PlanOperation, status: number): boolean {
  if (!answersBody(operation, status)) return false;
  const schema = jsonResponseOf(responseFor(operation, status)?.response);
  if (!schema) return false;
  if (['string', 'integer', 'number', 'boolean'].includes(String(schema.type))) return false;
  return (
    Object.keys(propertiesOf(schema)).length > 0 ||
    schema.oneOf !== undefined ||
    schema.anyOf !== undefined ||
    (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null)
  );
}
