import type { Kit } from '../kit.js';
import type { Rule } from '../rule.js';
import { setUp } from './writes.js';

/**
 * A collection below a record of another (`/projects/{projectId}/tickets`, at any depth) holds
 * that record's children only: a child created under one parent is not found under another.
 */
export function scopingRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const collection of kit.collections) {
    const { read, create, parent } = collection;
    const scope = collection.plan.parent;
    if (!read || !create || !parent?.create || !scope) continue;
    const child = collection.plan.idProperty;
    rules.push({
      name: kit.name(
        read,
        undefined,
        `a record created under one ${parent.plan.name.split('/').at(-1)} record is not found under another (404)`,
      ),
      createsData: true,
      async check(ctx) {
        const created = await setUp(ctx, kit, collection, 'scoped');
        const other = await setUp(ctx, kit, parent, 'another parent');
        const answer = await kit.call(ctx, read, {
          params: { ...kit.itemParams(collection, created.id), [scope.parameter]: other.id },
        });
        if (answer.status >= 200 && answer.status < 300)
          kit.fail(
            'records found under a parent they do not belong to',
            [
              `the ${child} ${JSON.stringify(created.id)} was created under another ${scope.parameter} than ${JSON.stringify(other.id)}, and is read under it`,
            ],
            created.exchange,
            answer,
          );
        kit.conforms(ctx, answer, read, { label: '404', accepts: (status) => status === 404 });
      },
    });
  }
  return rules;
}
