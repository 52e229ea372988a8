import type { Kit } from '../kit.js';
import { isFraming } from '../kit-calls.js';
import type { PlanParameter } from '../plan.js';
import { validRequest } from '../request-bodies.js';
import type { Rule } from '../rule.js';
import { allowedTypes, keyword, textKeyword } from '../schema-parts.js';

/** A client error: a parameter the schema refuses is the client's mistake, never a crash. */
const CLIENT_ERROR = { label: '4xx', accepts: (status: number) => status >= 400 && status < 500 };

/** Texts that break a format, as a client mistypes them. */
const BROKEN_FORMATS: Record<string, string> = {
  uuid: 'not-a-uuid',
  date: '2021-13-45',
  'date-time': 'yesterday',
  email: 'not-an-email',
  int32: '99999999999',
};

/**
 * Path, query and header parameters that break their schema never get a 5xx, and a 4xx they
 * get is in the documented error shape: a value of the wrong type, outside its format, enum or
 * bounds, too long. Derived from each parameter's schema; the other parameters are given valid
 * made-up values. A 2xx is an advisory, not a failure: many correct servers read a parameter
 * leniently (a `limit` above its maximum clamped to it, as GitHub's `per_page` is).
 */
export function parameterRules(kit: Kit): Rule[] {
  const rules: Rule[] = [];
  for (const operation of kit.plan.operations)
    for (const parameter of operation.parameters) {
      if (parameter.in === 'cookie') continue;
      if (parameter.in === 'header' && isFraming(parameter.name)) continue;
      const probes = brokenTexts(parameter);
      if (probes.length === 0) continue;
      const where = parameter.in === 'path' ? 'path' : parameter.in;
      rules.push({
        name: kit.name(
          operation,
          'invalid',
          `\`${parameter.name}\` in the ${where} breaking its schema (${probes.map((p) => p.what).join(', ')}) gets 4xx, never 5xx`,
        ),
        createsData: operation.method !== 'get' && operation.method !== 'head',
        async check(ctx) {
          for (const probe of probes) {
            const params = { ...kit.madeUpParams(operation), [parameter.name]: probe.text };
            // A body the operation takes, in its own media type: the parameter is the fault.
            const exchange = await kit.call(ctx, operation, {
              params,
              ...validRequest(kit, operation, 'parameter'),
            });
            const sent = `${parameter.name}=${JSON.stringify(probe.text)} (${probe.what})`;
            if (exchange.status >= 500)
              kit.fail(
                'parameters that break their schema crash the server',
                [`sent ${sent}: expected 4xx, got ${exchange.status}`],
                exchange,
              );
            if (!CLIENT_ERROR.accepts(exchange.status)) {
              ctx.advise(
                `${operation.operationId} answered ${exchange.status} to ${sent}, which its spec refuses: a client learns of its mistake only from a 4xx`,
              );
              continue;
            }
            kit.conforms(ctx, exchange, operation, CLIENT_ERROR);
          }
        },
      });
    }
  return rules;
}

/** Texts a parameter's schema refuses, each with what it breaks. */
function brokenTexts(parameter: PlanParameter): { what: string; text: string }[] {
  const schema = parameter.schema;
  const types = allowedTypes(schema);
  const texts: { what: string; text: string }[] = [];
  if (types.length > 0 && !types.includes('string')) {
    if (types.includes('integer') || types.includes('number'))
      texts.push({ what: 'not a number', text: 'abc' });
    if (types.includes('integer') && !types.includes('number'))
      texts.push({ what: 'a fraction', text: '1.5' });
    if (types.includes('boolean')) texts.push({ what: 'not a boolean', text: 'maybe' });
  }
  if (types.includes('integer') || types.includes('number')) {
    const minimum = keyword(schema, 'minimum');
    const maximum = keyword(schema, 'maximum');
    if (minimum !== undefined) texts.push({ what: 'below its minimum', text: String(minimum - 1) });
    if (maximum !== undefined) texts.push({ what: 'above its maximum', text: String(maximum + 1) });
  }
  if (types.includes('string') || types.length === 0) {
    const format = textKeyword<string>(schema, 'format');
    if (format !== undefined && BROKEN_FORMATS[format])
      texts.push({
        what: `not ${format === 'uuid' ? 'a UUID' : `a ${format}`}`,
        text: BROKEN_FORMATS[format],
      });
    const choices = textKeyword<unknown[]>(schema, 'enum');
    if (Array.isArray(choices) && choices.every((choice) => choice !== 'contract-not-listed'))
      texts.push({ what: 'outside its enum', text: 'contract-not-listed' });
    const maxLength = keyword(schema, 'maxLength');
    if (maxLength !== undefined && maxLength < 10_000)
      texts.push({ what: 'longer than its maxLength', text: 'x'.repeat(maxLength + 1) });
  }
  return texts;
}
