import type { Kit } from '../kit.js';
import { invalidMediaBodies } from '../media-bodies.js';
import type { Rule } from '../rule.js';
import { refusalOn, targetOf } from './invalid-bodies.js';

/**
 * Bodies of every other media type the spec accepts (plain text, XML, bytes) that break their
 * schema are refused with a 4xx in the spec's error shape, as JSON bodies and forms are: a
 * text of the wrong type or past a bound, an XML element without a required element, with
 * letters in a number or text over its maxLength, XML that does not parse, an empty body
 * where one is required. A media type whose schema leaves nothing to break gets no rule.
 */
export function mediaBodyRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  const named = new Set<string>();
  for (const operation of kit.plan.operations) {
    const content = Object.entries(operation.requestBody?.content ?? {});
    for (const [mediaType, schema] of content) {
      const bodies = invalidMediaBodies(mediaType, schema, {
        bodyRequired: operation.requestBody?.required === true,
        label: kit.label,
        validate: (part, value) => kit.spec.validate(part, value, 'request'),
      });
      if (bodies.length === 0) continue;
      const target = targetOf(kit, operation);
      const expected = refusalOn(kit, operation, target);
      const error = kit.errorText(operation, kit.clientError(operation));
      for (const { what, body, contentType } of bodies) {
        const name = kit.name(operation, 'invalid', `${what} gets ${error}`);
        // `text/plain` and `text/plain; charset=utf-8` in one spec send the same bodies.
        if (named.has(name)) continue;
        named.add(name);
        rules.push({
          name,
          createsData: target.writes,
          async check(ctx) {
            const params = await target.params(ctx);
            const exchange = await kit.call(ctx, operation, { params, body, contentType });
            kit.conforms(ctx, exchange, operation, expected);
          },
        });
      }
    }
  }
  return rules;
}
