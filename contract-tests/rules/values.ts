import { allowedTypes, writableProperties } from '../bodies.js';
import type { Creation, Kit } from '../kit.js';
import { REALISTIC_TEXTS, UNKNOWN_FIELDS } from '../realistic-values.js';
import type { Rule, RuleContext } from '../rule.js';

/**
 * Rule 4 with the values real clients send: every text property of the request schema given
 * whitespace, scripts, accents, characters outside the BMP, long and empty text; and a body
 * with unknown fields. Each create gets 201 echoing what was sent (and the next list shows
 * it so), or 400 with an Error body: the interface leaves limits open, not alterations.
 */
export function realisticValueRules(kit: Kit): Rule[] {
  const textProperties = Object.entries(writableProperties(kit.newCategory))
    .filter(([, property]) => allowedTypes(property).includes('string'))
    .map(([name]) => name);

  /** Sends each body; the created ones must then be listed exactly as sent. */
  async function createEach(ctx: RuleContext, bodies: Record<string, unknown>[]): Promise<void> {
    const created: Creation[] = [];
    for (const sent of bodies) {
      const exchange = await kit.call(ctx, kit.create, { body: JSON.stringify(sent) });
      if (kit.createdOrRefused(ctx, exchange, sent)) created.push({ exchange, sent });
    }
    await kit.listedAsSent(ctx, created);
  }

  const rules: Rule[] = [];
  for (const property of textProperties) {
    for (const text of REALISTIC_TEXTS) {
      rules.push({
        name: `createCategory rule 4: a \`${property}\` ${text.what} gets 201 echoing it exactly, or 400 with an Error body`,
        createsData: true,
        check: (ctx) =>
          createEach(
            ctx,
            text
              .samples(`${kit.label} ${property}`)
              .map((sample) => ({ ...kit.requiredBody(text.what), [property]: sample })),
          ),
      });
    }
  }
  rules.push({
    name: "createCategory rule 4: a body with unknown extra fields gets 201 echoing the interface's fields, or 400 with an Error body",
    createsData: true,
    check: (ctx) => createEach(ctx, [{ ...kit.validBody('extra fields'), ...UNKNOWN_FIELDS }]),
  });
  return rules;
}
