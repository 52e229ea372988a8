// Conditional requests as RFC 9110 section 13 defines them, where the description documents
// them: the suite reads a record's ETag and sends it back as a client must, never a made-up one.
import type { Exchange } from '../http.js';
import type { CollectionKit, Creation, Kit } from '../kit.js';
import type { PlanOperation } from '../plan.js';
import type { Rule, RuleContext } from '../rule.js';
import { RuleSkipped, valueNotMade } from '../verdicts.js';
import { keyKept, oneChange } from './writes.js';

/**
 * For each collection whose answers carry ETags: a read sent its current tag in
 * `If-None-Match` gets the documented 304; a write that declares `If-Match` gets the
 * documented 428 without it and 412 with a tag a write before made stale (or the weak form
 * of a strong one), and changes nothing then; a write changes the tag.
 */
export function conditionalRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const collection of kit.collections) {
    const { read } = collection;
    if (!read) continue;
    if ('304' in read.responses) rules.push(notModifiedRule(kit, collection, read));
    for (const write of [collection.update, collection.replace, collection.delete]) {
      if (!write || !takesIfMatch(write)) continue;
      if ('428' in write.responses) rules.push(missingTagRule(kit, collection, write));
      if ('412' in write.responses)
        rules.push(staleTagRule(kit, collection, write), weakTagRule(kit, collection, write));
    }
  }
  return rules;
}

/** The request header a conditional write declares (`If-Match`), by its spelling in the spec. */
function ifMatchOf(operation: PlanOperation): string | undefined {
  return operation.parameters.find(
    (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'if-match',
  )?.name;
}

/** How rule names spell the header, whatever case the plan keeps it in. */
const IF_MATCH = 'If-Match';

function takesIfMatch(operation: PlanOperation): boolean {
  return ifMatchOf(operation) !== undefined;
}

const status = (code: number) => ({ label: String(code), accepts: (got: number) => got === code });

function notModifiedRule(kit: Kit, collection: CollectionKit, read: PlanOperation): Rule {
  return {
    name: kit.name(read, undefined, 'a read sent its current ETag in If-None-Match gets 304'),
    createsData: false,
    async check(ctx) {
      const id = await kit.someRecordId(ctx, collection);
      if (id === undefined)
        throw valueNotMade(
          `no ${collection.plan.name} record to read: ${kit.noRecordWhy(ctx, collection)}`,
        );
      const params = kit.itemParams(collection, id);
      const first = await kit.call(ctx, read, { params });
      kit.conforms(ctx, first, read, kit.success(read));
      const tag = first.headers.etag;
      if (tag === undefined)
        throw new RuleSkipped(`${read.operationId} answered no ETag to send back`);
      const again = await kit.call(ctx, read, { params, headers: { 'If-None-Match': tag } });
      kit.conforms(ctx, again, read, status(304));
    },
  };
}

/** What a conditional write sends: one field changed, a whole valid body, or none (a delete). */
function bodyOf(
  kit: Kit,
  collection: CollectionKit,
  write: PlanOperation,
  created: Creation,
  variant: number,
): Record<string, unknown> | undefined {
  if (write.method === 'delete') return undefined;
  if (write === collection.update) {
    const change = oneChange(kit, collection, write, created.sent);
    if (!change)
      throw new RuleSkipped(`no property of ${collection.plan.name} that a client may change`);
    return change;
  }
  return keyKept(
    collection,
    kit.validBody(write, `conditional ${variant}`, 'all', variant),
    created.id,
  );
}

/** What the record holds after a write of `body` (a patch merges into what it held). */
function after(
  collection: CollectionKit,
  write: PlanOperation,
  before: Record<string, unknown>,
  body: Record<string, unknown>,
) {
  return write === collection.update ? { ...before, ...body } : body;
}

/** The refused write changed nothing: the record reads as it was, or is still there. */
async function unchanged(
  ctx: RuleContext,
  kit: Kit,
  collection: CollectionKit,
  state: Creation,
  refused: Exchange,
): Promise<void> {
  const read = collection.read!;
  const answer = await kit.call(ctx, read, { params: kit.itemParams(collection, state.id) });
  if (answer.status === 404)
    kit.fail(
      'refused conditional writes that were applied',
      [`the record was refused a write (${refused.status}), and is gone`],
      refused,
      answer,
    );
  await kit.readAsSent(ctx, collection, [{ ...state, exchange: refused }]);
}

function missingTagRule(kit: Kit, collection: CollectionKit, write: PlanOperation): Rule {
  const header = ifMatchOf(write)!;
  return {
    name: kit.name(write, undefined, `a write without ${IF_MATCH} gets 428 and changes nothing`),
    createsData: true,
    async check(ctx) {
      const created = await kit.create(ctx, collection, 'unconditional');
      const body = bodyOf(kit, collection, write, created, 1);
      const exchange = await kit.call(ctx, write, {
        params: { ...kit.itemParams(collection, created.id), [header]: undefined },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      kit.conforms(ctx, exchange, write, status(428));
      await unchanged(ctx, kit, collection, created, exchange);
    },
  };
}

/** The record's tag as its read answers it now. */
async function tagOf(
  ctx: RuleContext,
  kit: Kit,
  collection: CollectionKit,
  id: unknown,
): Promise<{ tag: string; exchange: Exchange }> {
  const read = collection.read!;
  const exchange = await kit.call(ctx, read, { params: kit.itemParams(collection, id) });
  kit.conforms(ctx, exchange, read, kit.success(read));
  const tag = exchange.headers.etag;
  if (tag === undefined) throw new RuleSkipped(`${read.operationId} answered no ETag to send`);
  return { tag, exchange };
}

function staleTagRule(kit: Kit, collection: CollectionKit, write: PlanOperation): Rule {
  const header = ifMatchOf(write)!;
  // A delete's tag is made stale by another write of the record.
  const stale = write.method === 'delete' ? (collection.update ?? collection.replace) : write;
  return {
    name: kit.name(
      write,
      undefined,
      `a write whose ${IF_MATCH} a write before made stale gets 412 and changes nothing; the write before changed the ETag`,
    ),
    createsData: true,
    async check(ctx) {
      if (!stale)
        throw new RuleSkipped(
          `${collection.plan.name} has no other write to make a tag stale with`,
        );
      const created = await kit.create(ctx, collection, 'conditional');
      const params = kit.itemParams(collection, created.id);
      const first = await tagOf(ctx, kit, collection, created.id);
      const change = bodyOf(kit, collection, stale, created, 2)!;
      const changed = await kit.call(ctx, stale, {
        params: { ...params, [ifMatchOf(stale) ?? 'If-Match']: first.tag },
        body: JSON.stringify(change),
      });
      kit.conforms(ctx, changed, stale, kit.success(stale));
      const state = { ...created, sent: after(collection, stale, created.sent, change) };
      const second = await tagOf(ctx, kit, collection, created.id);
      if (second.tag === first.tag)
        kit.fail(
          'writes that leave the ETag unchanged',
          [
            `the record read ETag ${first.tag} before a write that changed it, and the same after: a client cannot tell the versions apart (RFC 9110, section 8.8.3)`,
          ],
          first.exchange,
          changed,
          second.exchange,
        );
      const body = bodyOf(kit, collection, write, state, 3);
      const exchange = await kit.call(ctx, write, {
        params: { ...params, [header]: first.tag },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      kit.conforms(ctx, exchange, write, status(412));
      await unchanged(ctx, kit, collection, state, exchange);
    },
  };
}

function weakTagRule(kit: Kit, collection: CollectionKit, write: PlanOperation): Rule {
  const header = ifMatchOf(write)!;
  return {
    name: kit.name(
      write,
      undefined,
      `a write whose ${IF_MATCH} is the weak form (W/) of the current strong ETag gets 412: ${IF_MATCH} compares strongly`,
    ),
    createsData: true,
    async check(ctx) {
      const created = await kit.create(ctx, collection, 'weak tag');
      const { tag } = await tagOf(ctx, kit, collection, created.id);
      if (tag.startsWith('W/'))
        throw new RuleSkipped(`the record's ETag ${tag} is weak: no strong form to weaken`);
      const body = bodyOf(kit, collection, write, created, 4);
      const exchange = await kit.call(ctx, write, {
        params: { ...kit.itemParams(collection, created.id), [header]: `W/${tag}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      kit.conforms(ctx, exchange, write, status(412));
      await unchanged(ctx, kit, collection, created, exchange);
    },
  };
}
