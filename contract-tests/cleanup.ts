// The end of a run: what its rules created is deleted, where the description has a delete for
// it (DELETE of the item path), children before their parents; what cannot be is said.
import type { Kit } from './kit.js';
import { recordKey, type Cleanup, type Write } from './ledger.js';
import type { CleanUp } from './runner.js';

/**
 * The clean-up of a run with this kit: each record the ledger holds that no rule deleted is
 * deleted with the run's valid credentials, newest first. Never throws: a delete that fails
 * leaves its record, and the report says why.
 * @example const { deletes, left } = await cleanUpWith(kit)(ctx);
 */
export function cleanUpWith(kit: Kit): CleanUp {
  return async (ctx) => {
    const deletes: Write[] = [];
    const left = new Map<string, { collection: string; count: number; why: string }>();
    const leave = (collection: string, why: string) => {
      const key = `${collection} ${why}`;
      const found = left.get(key) ?? { collection, count: 0, why };
      found.count++;
      left.set(key, found);
    };
    const ledger = ctx.ledger;
    for (const record of [...(ledger?.created ?? [])].reverse()) {
      if (ledger!.deleted.has(recordKey(record.collection, record.params))) continue;
      const remove = kit.collections.find((c) => c.plan.name === record.collection)?.delete;
      if (!remove) {
        leave(record.collection, 'the description has no delete for them');
        continue;
      }
      if (ctx.circuit?.down) {
        leave(record.collection, `the target became unavailable (${ctx.circuit.down})`);
        continue;
      }
      try {
        const exchange = await kit.call(ctx, remove, { params: record.params });
        deletes.push({
          method: exchange.request.method.toUpperCase(),
          path: exchange.request.path,
          status: exchange.status,
        });
        // Gone already (a parent's delete took its children with it) is clean too.
        if (!(exchange.status < 300 || exchange.status === 404 || exchange.status === 410))
          leave(record.collection, `their delete answered ${exchange.status}`);
      } catch (err) {
        leave(
          record.collection,
          (err instanceof Error ? err.message : String(err)).split('\n')[0]!,
        );
      }
    }
    return { deletes, left: [...left.values()] } satisfies Cleanup;
  };
}
