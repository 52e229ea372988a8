import { article } from '../bodies.js';
import type { Expectation, Kit } from '../kit.js';
import { jsonResponseOf, type PlanOperation } from '../plan.js';
import { producerOf } from '../producers.js';
import type { Rule } from '../rule.js';
import { schemaName } from '../spec.js';
import { RuleSkipped } from '../verdicts.js';

/**
 * Every operation, called as a client would call it, gets an answer the spec documents: a
 * documented status, its content type, a body that fits its schema, its required headers.
 * Reads of a collection name a record it holds; other reads take made-up parameters and may
 * get any documented answer but a 5xx. Writes are judged by the write and state rules.
 */
export function answerRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const operation of kit.plan.operations) {
    if (operation.method !== 'get') continue;
    const role = kit.roleOf(operation);
    const hasPathParameters = operation.parameters.some((parameter) => parameter.in === 'path');
    const success = kit.success(operation);
    if (role?.action === 'read') {
      const { collection } = role;
      rules.push({
        name: kit.name(
          operation,
          undefined,
          `a record it holds reads back as ${success.label} with ${bodyText(operation, success)}`,
        ),
        // Reads only, unless the collection is empty: then it reads a record it creates.
        createsData: false,
        async check(ctx) {
          const id = await kit.someRecordId(ctx, collection);
          if (id === undefined)
            throw new RuleSkipped(
              `no ${collection.plan.name} to read: the list is empty, and read-only runs create none`,
            );
          const exchange = await kit.call(ctx, operation, {
            params: kit.itemParams(collection, id),
          });
          kit.conforms(ctx, exchange, operation, success);
        },
      });
    } else if (!hasPathParameters) {
      rules.push({
        name: kit.name(
          operation,
          undefined,
          `answers ${success.label} with ${bodyText(operation, success)}`,
        ),
        createsData: false,
        async check(ctx) {
          kit.conforms(ctx, await kit.call(ctx, operation), operation, success);
        },
      });
    } else {
      // A collection's own operations get their parents' records from the state rules.
      const inferred = role ? undefined : inferredReadRule(kit, operation, success);
      if (inferred) rules.push(inferred);
      const documented: Expectation = {
        label: 'a documented status below 500',
        accepts: (status) => status < 500,
      };
      rules.push({
        name: kit.name(
          operation,
          undefined,
          'answers made-up parameters as the spec documents it, with no 5xx',
        ),
        createsData: false,
        async check(ctx) {
          const exchange = await kit.call(ctx, operation, { params: kit.madeUpParams(operation) });
          kit.conforms(ctx, exchange, operation, documented);
        },
      });
    }
  }
  return rules;
}

/**
 * A read outside the collections whose path parameters are all named after one
 * (`/authors/{authorId}/stats`, `/reports/{author_id}`): called with records the suite finds
 * or creates, it must answer its success, as a client that follows the names would expect.
 */
function inferredReadRule(
  kit: Kit,
  operation: PlanOperation,
  success: Expectation,
): Rule | undefined {
  const producers = operation.parameters
    .filter((parameter) => parameter.in === 'path')
    .map((parameter) => ({
      parameter: parameter.name,
      collection: producerOf(kit.collections, parameter.name),
    }));
  if (producers.some(({ collection }) => !collection)) return undefined;
  const names = producers.map(
    ({ parameter, collection }) => `\`${parameter}\` naming a record of ${collection!.plan.name}`,
  );
  return {
    name: kit.name(
      operation,
      undefined,
      `answers ${success.label} with ${bodyText(operation, success)} for ${names.join(', ')} (inferred from the names)`,
    ),
    // Reads only, unless a collection is empty: then it reads a record it creates.
    createsData: false,
    async check(ctx) {
      const params: Record<string, unknown> = {};
      for (const { parameter, collection } of producers) {
        const id = await kit.someRecordId(ctx, collection!);
        if (id === undefined)
          throw new RuleSkipped(
            `no ${collection!.plan.name} record for \`${parameter}\`: the list is empty, and ${ctx.target.readOnly ? 'read-only runs create none' : 'the suite cannot create one'}`,
          );
        params[parameter] = id;
      }
      kit.conforms(ctx, await kit.call(ctx, operation, { params }), operation, success);
    },
  };
}

/** "a JSON array of Category objects", "an Author", "a body that fits its schema". */
export function bodyText(operation: PlanOperation, success: Expectation): string {
  const status = Number(/^\d{3}/.exec(success.label)?.[0] ?? operation.successStatus);
  const response = operation.responses[String(status)];
  const schema = jsonResponseOf(response);
  if (!schema) return 'what the spec documents';
  const name = schemaName(schema);
  if (schema.type === 'array' && schema.items && name !== 'documented')
    return `a JSON array of ${schemaName(schema.items)} objects`;
  return name === 'documented' ? 'a body that fits its schema' : article(name);
}
