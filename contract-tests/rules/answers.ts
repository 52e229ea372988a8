import { article } from '../bodies.js';
import type { CollectionKit, Expectation, Kit } from '../kit.js';
import { jsonRequestOf, jsonResponseOf, type PlanOperation } from '../plan.js';
import { producerOf } from '../producers.js';
import { validRequest } from '../request-bodies.js';
import type { Rule } from '../rule.js';
import { sampleBody } from '../samples.js';
import { isOtherThanObject } from '../schema-parts.js';
import { schemaName } from '../spec.js';
import { valueNotMade } from '../verdicts.js';

/**
 * Every operation, called as a client would call it, gets an answer the spec documents: a
 * documented status, its content type, a body that fits its schema, its required headers.
 * Reads of a collection name a record it holds; other reads take made-up parameters and may
 * get any documented answer but a 5xx. Writes are judged by the write and state rules.
 */
export function answerRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const operation of kit.plan.operations) {
    if (operation.method !== 'get') {
      // A write outside the collections whose path names records (`POST /orgs/{orgId}/archive`).
      const inferred = kit.roleOf(operation) ? undefined : inferredWriteRule(kit, operation);
      if (inferred) rules.push(inferred);
      continue;
    }
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
            throw valueNotMade(
              `no ${collection.plan.name} record to read: ${kit.noRecordWhy(ctx, collection)}`,
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
  const producers = producersOf(kit, operation);
  if (!producers) return undefined;
  const names = producers.map(
    ({ parameter, collection }) => `\`${parameter}\` naming a record of ${collection.plan.name}`,
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
        const id = await kit.someRecordId(ctx, collection);
        if (id === undefined)
          throw valueNotMade(
            `no ${collection.plan.name} record for \`${parameter}\`: ${kit.noRecordWhy(ctx, collection)}`,
          );
        params[parameter] = id;
      }
      kit.conforms(ctx, await kit.call(ctx, operation, { params }), operation, success);
    },
  };
}

/**
 * A write outside the collections whose path parameters are all named after one
 * (`POST /orgs/{orgId}/archive`, `PUT /authors/{author_id}/portrait`): called on records the
 * suite created (never on a deployment's own), with a valid body where it takes one (JSON,
 * else text, XML or bytes), it must answer its success. A required body or body field it
 * cannot make skips the rule, saying which.
 */
function inferredWriteRule(kit: Kit, operation: PlanOperation): Rule | undefined {
  const producers = producersOf(kit, operation);
  if (!producers) return undefined;
  const success = kit.success(operation);
  const takesJson = jsonRequestOf(operation) !== undefined;
  const other = takesJson ? undefined : validRequest(kit, operation, 'inferred');
  const bodyNotMade =
    operation.requestBody?.required && !takesJson && !other
      ? `its request body: the suite writes no valid ${Object.keys(operation.requestBody.content).join(' or ')} body of its schema`
      : undefined;
  return {
    name: kit.name(
      operation,
      undefined,
      `answers ${success.label} for ${producers.map(({ parameter, collection }) => `\`${parameter}\` naming a record of ${collection.plan.name}`).join(', ')} the suite created (inferred from the names)`,
    ),
    createsData: true,
    async check(ctx) {
      const params: Record<string, unknown> = {};
      for (const { parameter, collection } of producers) {
        if (!collection.create)
          throw valueNotMade(
            `no ${collection.plan.name} record of the suite's own for \`${parameter}\`: the spec has no create for it`,
          );
        params[parameter] = (await kit.ownRecord(ctx, collection)).id;
      }
      if (bodyNotMade !== undefined) throw valueNotMade(bodyNotMade);
      // A body of the schema's own shape where it is no object (Netlify's env vars: an array).
      const schema = kit.requestSchema(operation);
      const json = !takesJson
        ? undefined
        : isOtherThanObject(schema)
          ? sampleBody(schema, `${kit.label} inferred`, 'all')
          : kit.validBody(operation, 'inferred');
      const missing = kit.notMade(operation, json);
      if (missing !== undefined) throw valueNotMade(missing);
      const body = json === undefined ? other?.body : JSON.stringify(json);
      const exchange = await kit.call(ctx, operation, {
        params,
        body,
        ...(other ? { contentType: other.contentType } : {}),
      });
      kit.conforms(ctx, exchange, operation, success);
    },
  };
}

/** Each path parameter of an operation and the collection it names; undefined when one names none. */
export function producersOf(
  kit: Kit,
  operation: PlanOperation,
): { parameter: string; collection: CollectionKit }[] | undefined {
  const producers = operation.parameters
    .filter((parameter) => parameter.in === 'path')
    .map((parameter) => ({
      parameter: parameter.name,
      collection: producerOf(kit.collections, parameter.name),
    }));
  if (producers.length === 0 || producers.some(({ collection }) => !collection)) return undefined;
  return producers as { parameter: string; collection: CollectionKit }[];
}

/** "a JSON array of Category objects", "an Author", "a body that fits its schema". */
function bodyText(operation: PlanOperation, success: Expectation): string {
  const status = Number(/^\d{3}/.exec(success.label)?.[0] ?? operation.successStatus);
  const response = operation.responses[String(status)];
  const schema = jsonResponseOf(response);
  if (!schema) return 'what the spec documents';
  const name = schemaName(schema);
  if (schema.type === 'array' && schema.items && name !== 'documented')
    return `a JSON array of ${schemaName(schema.items)} objects`;
  return name === 'documented' ? 'a body that fits its schema' : article(name);
}
