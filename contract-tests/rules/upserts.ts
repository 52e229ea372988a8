import type { Kit } from '../kit.js';
import type { Rule } from '../rule.js';
import { keyKept } from './writes.js';

/**
 * A `PUT` under a key the client chooses creates once and replaces after (RFC 9110, section
 * 9.3.4): a new key gets 201, the same key again the documented 200 or 204, and the record
 * is then one, under that key, holding what the second `PUT` sent.
 */
export function upsertRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const collection of kit.collections) {
    const put = collection.create;
    if (!collection.upsert || !put) continue;
    const replaced = Object.keys(put.responses)
      .filter((key) => /^2\d\d$/.test(key) && key !== '201')
      .map(Number);
    if (replaced.length === 0) continue;
    const label = replaced.join(' or ');
    const { idProperty } = collection.plan;
    rules.push({
      name: kit.name(
        put,
        'create',
        `a new key gets 201, the same key again ${label} replacing the record, which is then one under that key`,
      ),
      createsData: true,
      async check(ctx) {
        const created = await kit.create(ctx, collection, 'upserted');
        const params = kit.itemParams(collection, created.id);
        const sent = keyKept(
          collection,
          kit.validBody(put, 'upserted again', 'all', 1),
          created.id,
        );
        const again = await kit.call(ctx, put, { params, body: JSON.stringify(sent) });
        kit.echoed(ctx, again, put, sent, {
          label,
          accepts: (status) => replaced.includes(status),
        });
        await kit.readAsSent(ctx, collection, [{ exchange: again, sent, id: created.id }]);
        if (!collection.list) return;
        const { records, pages } = await kit.listPages(ctx, collection);
        const same = records.filter(
          (record) => JSON.stringify(record[idProperty]) === JSON.stringify(created.id),
        );
        if (same.length > 1)
          kit.fail(
            'replaces under a key that made a second record',
            [
              `the list holds ${same.length} records with ${idProperty} ${JSON.stringify(created.id)} after a create and a replace under it`,
            ],
            created.exchange,
            again,
            pages.at(-1)!,
          );
      },
    });
  }
  return rules;
}
