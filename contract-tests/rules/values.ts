import type { Creation, Kit } from '../kit.js';
import { REALISTIC_TEXTS, UNKNOWN_FIELDS } from '../realistic-values.js';
import type { Rule, RuleContext } from '../rule.js';
import { isClosed, isFreeText, propertiesOf, writableProperties } from '../schema-parts.js';

/**
 * Creates with the values real clients send: every free-text property given whitespace,
 * scripts, accents, characters outside the BMP, long and empty text; and a body with
 * unknown fields where the schema is open. Each gets a documented 2xx echoing what was sent
 * (and the next read and list show it so), or a 4xx in the error shape: a spec that sets no
 * limit leaves limits open, not alterations. Samples the schema itself refuses are left out.
 */
export function realisticValueRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const collection of kit.collections) {
    const create = collection.create;
    if (!create) continue;
    const schema = kit.requestSchema(create);
    const success = kit.success(create);
    const refused = kit.errorText(create, kit.clientError(create));

    /** Sends each body; the created ones must then be read and listed exactly as sent. */
    const createEach = async (
      ctx: RuleContext,
      bodies: Record<string, unknown>[],
    ): Promise<void> => {
      const created: Creation[] = [];
      for (const sent of bodies) {
        const exchange = await kit.call(ctx, create, { body: JSON.stringify(sent) });
        if (kit.acceptedOrRefused(ctx, exchange, create, sent))
          created.push({
            exchange,
            sent,
            id: kit.createdId(collection, exchange),
          });
      }
      await kit.readAsSent(ctx, collection, created);
      await kit.listedAsSent(ctx, collection, created);
    };

    // A field that repeats a parameter of the create's address (`site_id` of
    // `POST /sites/{site_id}/snippets` or `POST /hooks?site_id=`) is the address's: a server
    // rightly keeps the record under it, whatever the body says.
    const addressed = new Set(
      create.parameters
        .filter((parameter) => parameter.in === 'path' || parameter.in === 'query')
        .map((parameter) => parameter.name),
    );
    for (const [property, propertySchema] of Object.entries(writableProperties(schema))) {
      if (!isFreeText(propertySchema) || addressed.has(property)) continue;
      for (const text of REALISTIC_TEXTS) {
        const bodies = text
          .samples(`${kit.label} ${property}`, propertySchema)
          .map((sample) => ({
            ...kit.validBody(create, text.what, 'required'),
            [property]: sample,
          }))
          .filter((body) => kit.spec.acceptsRequest(create, body));
        if (bodies.length === 0) continue;
        rules.push({
          name: kit.name(
            create,
            'create',
            `a \`${property}\` ${text.what} gets ${success.label} echoing it exactly, or ${refused}`,
          ),
          createsData: true,
          check: (ctx) => createEach(ctx, bodies),
        });
      }
    }
    const declared = propertiesOf(schema);
    const unknown = Object.fromEntries(
      Object.entries(UNKNOWN_FIELDS).filter(([name]) => !(name in declared)),
    );
    if (!isClosed(schema))
      rules.push({
        name: kit.name(
          create,
          'create',
          `a body with unknown extra fields gets ${success.label} echoing the interface's fields, or ${refused}`,
        ),
        createsData: true,
        check: (ctx) => createEach(ctx, [{ ...kit.validBody(create, 'extra fields'), ...unknown }]),
      });
  }
  return rules;
}
