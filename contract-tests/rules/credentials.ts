import type { Kit } from '../kit.js';
import { nearMisses } from '../near-misses.js';
import type { Rule, RuleContext } from '../rule.js';

/** A credential that must get 401, and how it differs from the valid one. */
interface BadCredential {
  what: string;
  /** Authorization headers (`null`: none), each sent once; the shape names it in a failure. */
  probes: (ctx: RuleContext) => { header: string | null; shape: string }[];
}

/**
 * Rule 3 on both operations: a missing or invalid credential gets 401. Invalid includes the
 * near-misses of the valid key a careless comparison lets through.
 */
export function credentialRules(kit: Kit, apiKey: string): Rule[] {
  const { list, create, label } = kit;
  const plain = (what: string, header: (ctx: RuleContext) => string | null): BadCredential => ({
    what,
    probes: (ctx) => [{ header: header(ctx), shape: what }],
  });
  const credentials: BadCredential[] = [
    plain('a missing credential', () => null),
    plain('an invalid API key', () => `Bearer ${label}-not-a-key`),
    plain('the valid key under the Basic scheme', (ctx) => `Basic ${ctx.target.apiKey}`),
    plain('the valid key without the Bearer scheme', (ctx) => ctx.target.apiKey),
    // Derived from the key the table is built for: the run's key.
    ...nearMisses(apiKey).map(({ what, probes }) => ({ what, probes: () => probes })),
  ];

  const rules: Rule[] = [];
  for (const operation of [list, create]) {
    for (const credential of credentials) {
      rules.push({
        name: `${operation.operationId} rule 3: ${credential.what} gets 401 with an Error body`,
        // A server that wrongly accepts the credential would store this valid create.
        createsData: Boolean(operation.requestSchema),
        async check(ctx) {
          for (const { header, shape } of credential.probes(ctx)) {
            const body = operation.requestSchema
              ? JSON.stringify(kit.validBody('unauthorized'))
              : undefined;
            const exchange = await kit.call(ctx, operation, { auth: header, body });
            if (exchange.status !== 401)
              kit.fail([`sent ${shape}: expected status 401, got ${exchange.status}`], exchange);
            kit.conforms(ctx, exchange, operation, 401);
          }
        },
      });
    }
  }

  const badBodiesWithoutCredential = [
    {
      what: 'a missing credential gets 401 even with malformed JSON',
      auth: null,
      body: '{"name": ',
    },
    {
      what: 'a missing credential gets 401 even with a body that breaks the schema',
      auth: null,
      body: '[]',
    },
    {
      what: 'an invalid API key gets 401 even with a body that breaks the schema',
      auth: `Bearer ${label}-not-a-key`,
      body: '{}',
    },
  ];
  for (const { what, auth, body } of badBodiesWithoutCredential) {
    rules.push({
      name: `createCategory rule 3: ${what}`,
      createsData: false,
      async check(ctx) {
        kit.conforms(ctx, await kit.call(ctx, create, { auth, body }), create, 401);
      },
    });
  }
  return rules;
}
