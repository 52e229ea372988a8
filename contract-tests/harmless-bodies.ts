// The body of a probe a correct server must refuse (a wrong or missing credential, a token
// without the operation's scope): one that changes nothing if a lenient server took it.
import { isDeepStrictEqual } from 'node:util';
import type { Kit } from './kit.js';
import { jsonRequestOf, type PlanOperation } from './plan.js';
import type { RuleContext } from './rule.js';
import { writableProperties } from './schema-parts.js';

/** Values no schema property of a JSON body takes all of: one of them breaks it. */
const WRONG_VALUES: unknown[] = [{}, [], 987_654_321, 'contract-not-valid', true, null];

/**
 * A body for a probe that a correct server refuses before it reads the body, and that a lenient
 * one that took the request anyway would not act on: for a replace or an update, the record's
 * current values (read with the valid credential at the same path), else an empty merge patch;
 * otherwise a body of one invalid field alone, which a server that validates refuses. The
 * wrong-credential `PUT /api/user` that changed a real account's email is what this prevents.
 * `undefined`: the operation takes no JSON body, or none can be made that changes nothing.
 * @example await harmlessBody(kit, ctx, updateUser, {}) // '{"email":"ada@example.com","bio":"..."}'
 */
export async function harmlessBody(
  kit: Kit,
  ctx: RuleContext,
  operation: PlanOperation,
  params: Record<string, unknown>,
): Promise<string | undefined> {
  if (!jsonRequestOf(operation)) return undefined;
  const accepts = (body: unknown) => kit.spec.acceptsRequest(operation, body);
  if (operation.method === 'put' || operation.method === 'patch') {
    const current = await currentValues(kit, ctx, operation, params);
    if (current !== undefined && accepts(current)) return JSON.stringify(current);
    // RFC 7396: an empty merge patch changes nothing; an empty JSON Patch neither (RFC 6902).
    if (operation.method === 'patch' && accepts({})) return '{}';
    if (operation.method === 'patch' && accepts([])) return '[]';
  }
  return invalidAlone(kit, operation);
}

/** A body of one field given a value its schema refuses, alone; `[]` where no field breaks. */
function invalidAlone(kit: Kit, operation: PlanOperation): string | undefined {
  const accepts = (body: unknown) => kit.spec.acceptsRequest(operation, body);
  for (const name of Object.keys(writableProperties(kit.requestSchema(operation))))
    for (const value of WRONG_VALUES)
      if (!accepts({ [name]: value })) return JSON.stringify({ [name]: value });
  if (!accepts([])) return '[]';
  if (!accepts('contract-not-valid')) return '"contract-not-valid"';
  return undefined;
}

/**
 * The values a replace or update would keep the record as it is with: its current record, read
 * with the run's valid credential at the same path, cut to what the request schema lets a
 * client write. `undefined` when there is no such read, or it finds nothing.
 */
async function currentValues(
  kit: Kit,
  ctx: RuleContext,
  operation: PlanOperation,
  params: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  const read = kit.plan.operations.find(
    (other) => other.method === 'get' && other.path === operation.path,
  );
  if (!read || kit.cannotCall(ctx.target, read) !== undefined) return undefined;
  const exchange = await kit.call(ctx, read, { params });
  if (exchange.status < 200 || exchange.status > 299) return undefined;
  const record = kit.recordOf(read, exchange);
  const writable = writableProperties(kit.requestSchema(operation));
  const kept = Object.entries(record).filter(([name]) => name in writable);
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/**
 * An invalid body for a replace or update of a record that is not the suite's own (the
 * caller's account at `PUT /account`): each field the case left as the valid body had it
 * takes the record's current value instead (or is left out), so that a lenient deployment
 * that took the case would change nothing. The case's own breakage is kept; a case that would
 * turn valid so is sent as it was.
 * @example await onCurrentValues(kit, ctx, replaceAccount, {}, '{"email":"x","bio":7}', { email: 'x', bio: 'y' }) // '{"email":"ada@example.com","bio":7}'
 */
export async function onCurrentValues(
  kit: Kit,
  ctx: RuleContext,
  operation: PlanOperation,
  params: Record<string, unknown>,
  text: string,
  base: Record<string, unknown>,
): Promise<string> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return text;
  const key = `current values ${operation.operationId}`;
  let read = ctx.memo.get(key) as Promise<Record<string, unknown> | undefined> | undefined;
  if (!read) {
    read = currentValues(kit, ctx, operation, params);
    ctx.memo.set(key, read);
  }
  const current = await read;
  if (current === undefined) return text;
  const rebased: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (!isDeepStrictEqual(value, base[name])) rebased[name] = value;
    else if (name in current) rebased[name] = current[name];
  }
  return kit.spec.acceptsRequest(operation, rebased) ? text : JSON.stringify(rebased);
}
