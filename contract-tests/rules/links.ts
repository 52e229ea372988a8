import type { Exchange } from '../http.js';
import type { Kit } from '../kit.js';
import type { PlanLink, PlanOperation } from '../plan.js';
import type { Rule, RuleContext } from '../rule.js';
import { RuleSkipped, valueNotMade } from '../verdicts.js';
import { setUp } from './writes.js';

/**
 * OpenAPI links are followed where the spec gives them: after a valid call of the
 * operation, the link's parameters, read from that exchange, lead to a call of the linked
 * operation that gets a documented 2xx fitting the spec. Only links to reads are followed:
 * a link to a write would act on the target.
 */
export function linkRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  const byId = new Map(kit.plan.operations.map((operation) => [operation.operationId, operation]));
  for (const operation of kit.plan.operations) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!/^2/.test(status)) continue;
      for (const [name, link] of Object.entries(response.links)) {
        const target = byId.get(link.operationId);
        if (!target || target.method !== 'get') continue;
        const role = kit.roleOf(operation);
        rules.push({
          name: kit.name(
            operation,
            undefined,
            `its link ${name} leads to ${target.operationId}, which answers ${kit.success(target).label}`,
          ),
          createsData: operation.method !== 'get',
          async check(ctx) {
            const source = await validCall(ctx, kit, operation, role);
            const params = linkParameters(link, source, operation);
            const exchange = await kit.call(ctx, target, { params });
            kit.conforms(ctx, exchange, target, kit.success(target));
          },
        });
      }
    }
  }
  return rules;
}

async function validCall(
  ctx: RuleContext,
  kit: Kit,
  operation: PlanOperation,
  role: ReturnType<Kit['roleOf']>,
): Promise<Exchange> {
  if (role?.action === 'create') return (await setUp(ctx, kit, role.collection, 'linked')).exchange;
  if (role?.action === 'read') {
    const id = await kit.someRecordId(ctx, role.collection);
    if (id === undefined)
      throw valueNotMade(
        `no ${role.collection.plan.name} record to read: ${kit.noRecordWhy(ctx, role.collection)}`,
      );
    const exchange = await kit.call(ctx, operation, {
      params: kit.itemParams(role.collection, id),
    });
    kit.conforms(ctx, exchange, operation, kit.success(operation));
    return exchange;
  }
  if (operation.method === 'get' && !operation.parameters.some((p) => p.in === 'path')) {
    const exchange = await kit.call(ctx, operation);
    kit.conforms(ctx, exchange, operation, kit.success(operation));
    return exchange;
  }
  throw new RuleSkipped(
    `the suite cannot make a valid call of ${operation.operationId} to follow its link`,
  );
}

/**
 * A link's parameters, its runtime expressions read from the exchange (OpenAPI 3.1, section
 * 4.8.20.4): `$request.path.x`, `$request.query.x`, `$request.header.x`, `$request.body#/p`,
 * `$response.header.x`, `$response.body#/p`, `$statusCode`, `$url`, `$method`; anything else
 * is a constant. A name may say where it goes (`path.authorId`); only the name is kept.
 * @example linkParameters({ operationId: 'getAuthor', parameters: { authorId: '$response.body#/id' } }, created, createAuthor) // { authorId: '9ca1...' }
 * @internal for its tests: no part of the package's surface
 */
export function linkParameters(
  link: PlanLink,
  exchange: Exchange,
  operation: Pick<PlanOperation, 'path'>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(link.parameters).map(([name, expression]) => [
      name.replace(/^(path|query|header|cookie)\./, ''),
      evaluate(expression, exchange, operation),
    ]),
  );
}

function evaluate(
  expression: unknown,
  exchange: Exchange,
  operation: Pick<PlanOperation, 'path'>,
): unknown {
  if (typeof expression !== 'string' || !expression.startsWith('$')) return expression;
  const url = new URL(exchange.request.url);
  if (expression === '$url') return exchange.request.url;
  if (expression === '$method') return exchange.request.method.toUpperCase();
  if (expression === '$statusCode') return exchange.status;
  const [, source, rest = ''] = /^\$(request|response)\.(.*)$/.exec(expression) ?? [];
  if (!source) return expression;
  if (rest.startsWith('body')) {
    const body = source === 'response' ? exchange.json : parse(exchange.request.body);
    return pointer(body, rest.slice(4).replace(/^#/, ''));
  }
  const [where, ...nameParts] = rest.split('.');
  const name = nameParts.join('.');
  if (where === 'header')
    return source === 'response'
      ? exchange.headers[name.toLowerCase()]
      : Object.entries(exchange.request.headers).find(
          ([key]) => key.toLowerCase() === name.toLowerCase(),
        )?.[1];
  if (where === 'query') return url.searchParams.get(name) ?? undefined;
  if (where === 'path') return pathParameters(operation.path, url.pathname)[name];
  return undefined;
}

function parse(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A JSON Pointer (RFC 6901) into a value. */
function pointer(value: unknown, path: string): unknown {
  if (path === '') return value;
  return path
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (current, part) =>
        typeof current === 'object' && current !== null
          ? (current as Record<string, unknown>)[part]
          : undefined,
      value,
    );
}

/** The values of a path template's parameters in a request's path (which ends with it). */
function pathParameters(template: string, pathname: string): Record<string, string> {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  const match = new RegExp(`${pattern}$`).exec(pathname);
  return Object.fromEntries(
    names.map((name, i) => [name, decodeURIComponent(match?.[i + 1] ?? '')]),
  );
}
