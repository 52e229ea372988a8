import type { Exchange } from '../http.js';
import { send } from '../http.js';
import type { Kit } from '../kit.js';
import { underBase } from '../kit-calls.js';
import type { PlanOperation } from '../plan.js';
import type { Rule, RuleContext } from '../rule.js';
import { valueNotMade } from '../verdicts.js';
import { producersOf } from './answers.js';

/** Redirects followed in a row before the suite calls it a loop. */
const MAX_HOPS = 5;

/**
 * A read whose description documents only redirects (`302` and a `Location`) answers one of
 * them, and its `Location` leads, hop by hop, to an answer: a 2xx of the operation it names,
 * as that operation documents it (with the suite's credentials), or of a URL outside the
 * spec's paths. A redirect to nowhere (404), or without a `Location`, is a violation.
 */
export function redirectRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const operation of kit.plan.operations) {
    if (operation.method !== 'get') continue;
    const keys = Object.keys(operation.responses);
    const redirects = keys.filter((key) => /^3\d\d$/.test(key) && key !== '304').map(Number);
    if (redirects.length === 0 || keys.some((key) => /^2(\d\d|xx)$/i.test(key))) continue;
    const hasPath = operation.parameters.some((parameter) => parameter.in === 'path');
    const producers = hasPath ? producersOf(kit, operation) : [];
    if (!producers) continue;
    const label = redirects.join(' or ');
    rules.push({
      name: kit.name(
        operation,
        undefined,
        `answers ${label} whose Location leads to a 2xx, as its description documents`,
      ),
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
        let exchange = await kit.call(ctx, operation, { params });
        kit.conforms(ctx, exchange, operation, {
          label,
          accepts: (status) => redirects.includes(status),
        });
        const hops: Exchange[] = [exchange];
        while (exchange.status >= 300 && exchange.status < 400) {
          const location = exchange.headers.location;
          if (location === undefined)
            kit.fail(
              'redirects without a Location',
              [`a ${exchange.status} answer names no Location to follow`],
              ...hops,
            );
          if (hops.length > MAX_HOPS)
            kit.fail(
              'redirects that loop',
              [`${MAX_HOPS} redirects in a row, and still no answer`],
              ...hops,
            );
          const next = await follow(ctx, kit, new URL(location, exchange.request.url).href);
          if (!next) return;
          exchange = next;
          hops.push(exchange);
        }
        if (exchange.status < 200 || exchange.status >= 300)
          kit.fail(
            'redirects that lead nowhere',
            [
              `the Location of ${operation.operationId}'s ${hops[0]!.status} leads to a ${exchange.status}`,
            ],
            ...hops,
          );
      },
    });
  }
  return rules;
}

/**
 * The answer at a redirect's URL: through the operation of the spec it names (judged as that
 * operation documents it), else a plain GET without credentials; `undefined` for another
 * origin, which the suite does not send to, and for a path outside the base URL where
 * something answers.
 */
async function follow(ctx: RuleContext, kit: Kit, url: string): Promise<Exchange | undefined> {
  const under = underBase(ctx.target.baseUrl, url);
  const operation = under && operationAt(kit, under.path);
  if (operation) {
    const exchange = await kit.call(ctx, operation, { url });
    if (exchange.status < 300) kit.conforms(ctx, exchange, operation, kit.success(operation));
    return exchange;
  }
  if (new URL(url).origin !== new URL(ctx.target.baseUrl).origin) {
    ctx.advise(`a redirect to another origin (${new URL(url).origin}) was not followed`);
    return undefined;
  }
  const at = new URL(url);
  const exchange = await send(
    { ...ctx, target: { ...ctx.target, baseUrl: at.origin } },
    { method: 'get', path: at.pathname, query: [...at.searchParams], headers: {} },
  );
  // Outside the base URL is another service's (a sign-in page, an identity provider), judged
  // only where nothing is there at all.
  if (!under && exchange.status !== 404 && exchange.status !== 410) {
    ctx.advise(
      `a redirect outside the API (${at.pathname}) answered ${exchange.status}: not judged`,
    );
    return undefined;
  }
  return exchange;
}

/** The GET operation whose path template a path (under the base URL) fits. */
function operationAt(kit: Kit, path: string): PlanOperation | undefined {
  const segments = path.split('/').filter(Boolean);
  return kit.plan.operations.find((operation) => {
    if (operation.method !== 'get') return false;
    const template = operation.path.split('/').filter(Boolean);
    return (
      template.length === segments.length &&
      template.every((part, i) => part.startsWith('{') || part === segments[i])
    );
  });
}
