import type { CollectionKit, Kit } from '../kit.js';
import { jsonRequestOf, type PlanOperation } from '../plan.js';
import type { Rule, RuleContext } from '../rule.js';
import { notJudgedIfRefused } from '../refusals.js';
import { schemaName } from '../spec.js';
import {
  isOtherThanObject,
  propertiesOf,
  requiredOf,
  writableProperties,
} from '../schema-parts.js';
import { sampleBody, sampleValue } from '../samples.js';
import { asSetup, RuleSkipped, valueNotMade } from '../verdicts.js';

/**
 * What valid writes answer, and that what they write is what a reader then sees: a create
 * echoes what was sent with a new id; a replace and an update are visible in the next read;
 * a deleted record reads as 404 and leaves the list. JSON is JSON with a charset parameter
 * and in any letter case.
 */
export function writeRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const collection of kit.collections) {
    const { create, replace, update } = collection;
    if (create) rules.push(...createRules(kit, collection, create));
    if (replace) rules.push(replaceRule(kit, collection, replace));
    if (update) rules.push(updateRule(kit, collection, update));
    if (update && isMergePatch(update)) rules.push(mergeNullRule(kit, collection, update));
    if (collection.delete) rules.push(deleteRule(kit, collection, collection.delete));
    // A PUT under a client's key is the create and the replace both: its rules once.
    for (const operation of new Set([create, replace, update]))
      if (operation && jsonRequestOf(operation))
        rules.push(...mediaTypeRules(kit, collection, operation));
  }
  return rules;
}

function createRules(kit: Kit, collection: CollectionKit, create: PlanOperation): Rule[] {
  const success = kit.created(create);
  const { idProperty, idKind } = collection.plan;
  const record = schemaName(collection.plan.schema);
  const recordText =
    record === 'documented' ? 'the record' : `${/^[aeiou]/i.test(record) ? 'an' : 'a'} ${record}`;
  const id = idProperty === 'id' ? `${idKind} id` : `${idKind} \`${idProperty}\``;
  return [
    {
      name: kit.name(
        create,
        'create',
        `a valid body gets ${success.label} and ${recordText} echoing every submitted field, with a new ${id}`,
      ),
      createsData: true,
      async check(ctx) {
        await kit.create(ctx, collection, 'echo');
      },
    },
    {
      name: kit.name(
        create,
        'create',
        `a body with only the required fields gets ${success.label} echoing them`,
      ),
      createsData: true,
      async check(ctx) {
        await kit.create(
          ctx,
          collection,
          'required-only',
          kit.validBody(create, 'required-only', 'required'),
        );
      },
    },
    {
      name: kit.name(create, 'create', 'each create gets a new id (two creates, two ids)'),
      createsData: true,
      async check(ctx) {
        const first = await kit.create(ctx, collection, 'first');
        const second = await kit.create(ctx, collection, 'second');
        if (JSON.stringify(first.id) === JSON.stringify(second.id))
          kit.fail(
            'two creates that got the same id',
            [`both creates got ${idProperty} ${JSON.stringify(first.id)}`],
            first.exchange,
            second.exchange,
          );
      },
    },
  ];
}

function replaceRule(kit: Kit, collection: CollectionKit, replace: PlanOperation): Rule {
  const success = kit.success(replace);
  return {
    name: kit.name(
      replace,
      undefined,
      `a valid body gets ${success.label} echoing every submitted field, and the next read shows it`,
    ),
    createsData: true,
    async check(ctx) {
      const { id } = await setUp(ctx, kit, collection, 'to replace');
      const sent = keyKept(collection, kit.validBody(replace, 'replaced', 'all', 1), id);
      const exchange = await kit.call(ctx, replace, {
        params: kit.itemParams(collection, id),
        body: JSON.stringify(sent),
      });
      kit.echoed(ctx, exchange, replace, sent, success);
      await kit.readAsSent(ctx, collection, [{ exchange, sent, id }]);
    },
  };
}

function updateRule(kit: Kit, collection: CollectionKit, update: PlanOperation): Rule {
  const success = kit.success(update);
  return {
    name: kit.name(
      update,
      undefined,
      `a change of one field gets ${success.label} with it changed and the others kept, and the next read shows it`,
    ),
    createsData: true,
    async check(ctx) {
      const created = await setUp(ctx, kit, collection, 'to update');
      const change = oneChange(kit, collection, update, created.sent);
      if (!change)
        throw new RuleSkipped(`no property of ${collection.plan.name} that a client may change`);
      const exchange = await kit.call(ctx, update, {
        params: kit.itemParams(collection, created.id),
        body: JSON.stringify(change),
      });
      const expected = { ...created.sent, ...change };
      kit.echoed(ctx, exchange, update, expected, success);
      await kit.readAsSent(ctx, collection, [{ exchange, sent: expected, id: created.id }]);
    },
  };
}

function isMergePatch(operation: PlanOperation): boolean {
  return /^application\/merge-patch\+json$/.test(jsonRequestOf(operation)?.mediaType ?? '');
}

/**
 * A merge patch's `null` removes the member (RFC 7396, section 2): an optional property
 * patched to null is gone (or null) in the answer and in the next read, not kept as it was.
 */
function mergeNullRule(kit: Kit, collection: CollectionKit, update: PlanOperation): Rule {
  const success = kit.success(update);
  const required = new Set(requiredOf(collection.plan.schema));
  return {
    name: kit.name(
      update,
      undefined,
      `a merge patch setting an optional field to null gets ${success.label} with it removed, and the next read shows it`,
    ),
    createsData: true,
    async check(ctx) {
      const created = await setUp(ctx, kit, collection, 'to clear');
      const name = Object.keys(created.sent).find(
        (field) => !required.has(field) && valid(kit, update, { [field]: null }),
      );
      if (name === undefined)
        throw new RuleSkipped(`no optional property of ${collection.plan.name} a patch may clear`);
      const params = kit.itemParams(collection, created.id);
      const exchange = await kit.call(ctx, update, {
        params,
        body: JSON.stringify({ [name]: null }),
      });
      kit.conforms(ctx, exchange, update, success);
      const cleared = (record: Record<string, unknown>) =>
        record[name] === undefined || record[name] === null;
      if (!cleared(kit.recordOf(update, exchange)))
        kit.fail(
          'merge patches whose null does not remove the field',
          [
            `\`${name}\` was patched to null, answered as ${JSON.stringify(kit.recordOf(update, exchange)[name])}`,
          ],
          exchange,
        );
      if (!collection.read) return;
      const read = await kit.call(ctx, collection.read, { params });
      kit.conforms(ctx, read, collection.read, kit.success(collection.read));
      if (!cleared(kit.recordOf(collection.read, read)))
        kit.fail(
          'merge patches whose null does not remove the field',
          [
            `\`${name}\` was patched to null, read back as ${JSON.stringify(kit.recordOf(collection.read, read)[name])}`,
          ],
          exchange,
          read,
        );
    },
  };
}

/** One writable property of the record, given another valid value. */
export function oneChange(
  kit: Kit,
  collection: CollectionKit,
  update: PlanOperation,
  current: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const request = kit.requestSchema(update);
  const properties =
    Object.keys(propertiesOf(request)).length > 0
      ? writableProperties(request)
      : writableProperties(collection.plan.schema);
  for (const [name, property] of Object.entries(properties)) {
    // A changed key moves the record (a user's `username`): not a change of one field.
    if (name === collection.plan.idProperty) continue;
    for (let variant = 1; variant < 4; variant++) {
      const value = sampleValue(property, `${kit.label} updated ${name}`, variant);
      const change = { [name]: value };
      if (JSON.stringify(value) !== JSON.stringify(current[name]) && valid(kit, update, change))
        return change;
    }
  }
  return undefined;
}

/**
 * A replace body that names the record it replaces: a key the body carries (a user's
 * `username`) equal to the path's, as a client keeps it; another would move the record.
 */
export function keyKept(
  collection: CollectionKit,
  body: Record<string, unknown>,
  id: unknown,
): Record<string, unknown> {
  const { idProperty } = collection.plan;
  return idProperty in body ? { ...body, [idProperty]: id } : body;
}

function valid(kit: Kit, operation: PlanOperation, body: unknown): boolean {
  return kit.spec.acceptsRequest(operation, body);
}

function deleteRule(kit: Kit, collection: CollectionKit, remove: PlanOperation): Rule {
  const success = kit.success(remove);
  const { read, list } = collection;
  return {
    name: kit.name(
      remove,
      undefined,
      `a deleted record is gone: ${success.label}, then its read gets 404 and the list no longer holds it`,
    ),
    createsData: true,
    async check(ctx) {
      const created = await setUp(ctx, kit, collection, 'to delete');
      const params = kit.itemParams(collection, created.id);
      const deleted = await kit.call(ctx, remove, { params });
      kit.conforms(ctx, deleted, remove, success);
      if (read) {
        const after = await kit.call(ctx, read, { params });
        kit.conforms(ctx, after, read, { label: '404', accepts: (status) => status === 404 });
      }
      if (list) await notListed(ctx, kit, collection, created.id, deleted);
    },
  };
}

async function notListed(
  ctx: RuleContext,
  kit: Kit,
  collection: CollectionKit,
  id: unknown,
  deleted: Awaited<ReturnType<Kit['call']>>,
): Promise<void> {
  const { idProperty } = collection.plan;
  const isIt = (record: Record<string, unknown>) =>
    JSON.stringify(record[idProperty]) === JSON.stringify(id);
  // Every page until it turns up: a record left on page 3 is still listed.
  const { records, pages } = await kit.listPages(ctx, collection, (read) => read.some(isIt));
  if (records.some(isIt))
    kit.fail(
      'deleted records still listed',
      [`the deleted record (${idProperty} ${JSON.stringify(id)}) is still in the next list`],
      deleted,
      pages.at(-1)!,
    );
}

/** Media types are case-insensitive and may carry parameters: JSON so sent is still JSON. */
function mediaTypeRules(kit: Kit, collection: CollectionKit, operation: PlanOperation): Rule[] {
  const { mediaType } = jsonRequestOf(operation)!;
  const success = kit.success(operation);
  const variants = [
    {
      what: `with a charset parameter (\`${mediaType}; charset=utf-8\`)`,
      type: `${mediaType}; charset=utf-8`,
    },
    { what: `in other letter case (\`${upperCase(mediaType)}\`)`, type: upperCase(mediaType) },
  ];
  return variants.map(({ what, type }) => ({
    name: kit.name(operation, undefined, `a valid body sent as JSON ${what} gets ${success.label}`),
    createsData: true,
    async check(ctx) {
      const role = kit.roleOf(operation);
      let params: Record<string, unknown> = {};
      let sent: unknown;
      if (role?.action === 'create') {
        sent = kit.validBody(operation, 'media type');
        const missing = kit.notMade(operation, sent);
        if (missing !== undefined) throw valueNotMade(missing);
      } else {
        const created = await kit.ownRecord(ctx, collection);
        params = kit.itemParams(collection, created.id);
        sent =
          role?.action === 'update'
            ? // A body of the schema's own shape where it is no object (Dialogporten's JSON
              // Patch is an array of operations); else one field changed, or an empty patch.
              isOtherThanObject(kit.requestSchema(operation))
              ? sampleBody(kit.requestSchema(operation), `${kit.label} media type`, 'all')
              : (oneChange(kit, collection, operation, created.sent) ?? {})
            : keyKept(collection, kit.validBody(operation, 'media type', 'all', 2), created.id);
      }
      const exchange = await kit.call(ctx, operation, {
        params,
        body: JSON.stringify(sent),
        contentType: type,
      });
      notJudgedIfRefused(operation, exchange, success);
      kit.conforms(ctx, exchange, operation, success);
    },
  }));
}

/** `application/json` as `APPLICATION/JSON`, `application/merge-patch+json` as `Application/Merge-Patch+JSON`. */
function upperCase(mediaType: string): string {
  return mediaType === 'application/json'
    ? 'APPLICATION/JSON'
    : mediaType.replace(/\b[a-z]/g, (c) => c.toUpperCase()).replace(/\+json$/i, '+JSON');
}

/** A record a rule works on, created as its setup step: a create that breaks the contract leaves the rule not judged. */
export function setUp(
  ctx: RuleContext,
  kit: Kit,
  collection: CollectionKit,
  what: string,
): ReturnType<Kit['create']> {
  return asSetup(collection.create?.operationId ?? collection.plan.name, () =>
    kit.create(ctx, collection, what),
  );
}
