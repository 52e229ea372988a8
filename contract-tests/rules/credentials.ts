import {
  badCredentials,
  describeScheme,
  merge,
  optionFor,
  place,
  placeOf,
  type BadCredential,
  type Carrier,
} from '../credentials.js';
import { harmlessBody } from '../harmless-bodies.js';
import type { Kit } from '../kit.js';
import { isSafe } from '../ledger.js';
import { isOpen, jsonRequestOf, type PlanOperation } from '../plan.js';
import type { Rule, RuleContext } from '../rule.js';
import { allowedTypes } from '../schema-parts.js';
import type { ContractTarget } from '../target.js';
import { RuleSkipped } from '../verdicts.js';

/** Exactly 401: a missing or wrong credential is what 401 means (RFC 9110, section 15.5.2). */
const UNAUTHORIZED = { label: '401', accepts: (status: number) => status === 401 };

/**
 * Every security requirement of every operation is enforced: no credential, an unknown one,
 * near misses of the valid one, the valid one under another scheme or in a place the scheme
 * does not use (a query parameter, another header, a cookie) all get 401 in the spec's error
 * shape; and 401 wins over 400 when the body is bad too. Probes are derived from the
 * credentials given for the run; a scheme with none gets a skipped rule that says so.
 */
export function credentialRules(
  kit: Kit,
  target: Pick<ContractTarget, 'credentials' | 'refusedSchemes'>,
): Rule[] {
  const rules: Rule[] = [];
  const schemes = kit.plan.securitySchemes;
  const usedSchemes = new Set(
    kit.plan.operations.flatMap((op) => op.security.flatMap(Object.keys)),
  );
  const several = usedSchemes.size > 1;
  const unheld = new Set<string>();

  /** Each operation's harmless body, once per run: a replace reads the record it keeps. */
  const harmless = (
    ctx: RuleContext,
    operation: PlanOperation,
    params: Record<string, unknown>,
  ) => {
    const key = `harmless body ${operation.operationId}`;
    let found = ctx.memo.get(key) as Promise<string | undefined> | undefined;
    if (!found) {
      found = harmlessBody(kit, ctx, operation, params);
      ctx.memo.set(key, found);
    }
    return found;
  };

  for (const operation of kit.plan.operations) {
    if (isOpen(operation)) continue;
    const writes = operation.method !== 'get' && operation.method !== 'head';
    const error = kit.errorText(operation, UNAUTHORIZED);
    const takesBody = jsonRequestOf(operation) !== undefined;
    const params = kit.madeUpParams(operation);
    // Never a real write: a deployment that wrongly let the call through would act on it.
    const probe = async (ctx: RuleContext, auth: Carrier | null, shape: string, given?: string) => {
      const text = given ?? (takesBody ? await harmless(ctx, operation, params) : undefined);
      if (
        text === undefined &&
        !operation.requestBody &&
        !isSafe(operation.method) &&
        !hasPathParameter(operation)
      )
        throw new RuleSkipped(
          `not sent: ${operation.method.toUpperCase()} ${operation.path} names no made-up record and takes no body, so a deployment that wrongly let it through would act on it`,
        );
      const exchange = await kit.call(ctx, operation, { auth, params, body: text });
      if (exchange.status !== 401)
        kit.fail(
          // Let through: answered as a call with a valid credential would be (a made-up
          // record is not found). Whatever the status, it is one failure to fix.
          exchange.status < 400 || exchange.status === 404
            ? auth === null
              ? 'requests without a credential let through'
              : 'wrong credentials let through'
            : `${exchange.status} answers where the spec wants 401`,
          [`sent ${shape}: expected status 401, got ${exchange.status}`],
          exchange,
        );
      kit.conforms(ctx, exchange, operation, UNAUTHORIZED);
    };

    rules.push({
      name: kit.name(operation, 'credentials', `a missing credential gets ${error}`),
      createsData: writes,
      check: (ctx) => probe(ctx, null, 'no credential'),
    });

    const taken = new Set(
      operation.security.flatMap((requirement) =>
        Object.keys(requirement).flatMap((name) => {
          const scheme = schemes[name];
          return scheme ? [placeOf(scheme) ?? ''] : [];
        }),
      ),
    );
    for (const requirement of operation.security) {
      for (const name of Object.keys(requirement)) {
        const scheme = schemes[name];
        const secret = scheme && kit.secret(target, name);
        if (!scheme || secret === undefined) {
          unheld.add(name);
          continue;
        }
        // The other schemes of the requirement, sent valid: only this one is wrong.
        const others = (ctx: RuleContext): Carrier =>
          merge(
            ...Object.keys(requirement)
              .filter((other) => other !== name)
              .map((other) => {
                const otherScheme = schemes[other];
                const otherSecret = kit.secret(ctx.target, other, requirement[other]);
                if (!otherScheme || otherSecret === undefined)
                  throw new RuleSkipped(
                    kit.cannotCall(ctx.target, operation) ?? `${other} is not held`,
                  );
                return place(otherScheme, otherSecret);
              }),
          );
        const suffix = several ? ` (${name})` : '';
        for (const bad of badCredentials(scheme, secret, { label: kit.label, taken })) {
          rules.push({
            name: kit.name(operation, 'credentials', `${bad.what}${suffix} gets ${error}`),
            createsData: writes,
            async check(ctx) {
              for (const { carrier, shape } of (bad as BadCredential).probes)
                await probe(ctx, merge(others(ctx), carrier), shape);
            },
          });
        }
      }
    }

    rules.push(...otherSchemeRules(kit, operation, target, taken, probe));
    if (takesBody) rules.push(...precedenceRules(kit, operation, probe));
  }

  for (const name of unheld) {
    const scheme = schemes[name];
    const option = scheme && optionFor(scheme);
    const why = !scheme
      ? `the spec names the scheme ${name} without defining it`
      : target.refusedSchemes[name]
        ? `${describeScheme(scheme)} (${name}): ${target.refusedSchemes[name]}`
        : option
          ? `no credential was given for ${describeScheme(scheme)} (${name}): give ${option}`
          : `the suite cannot send ${describeScheme(scheme)} (${name})`;
    rules.push({
      name: `${name}: wrong and near-miss credentials get 401`,
      createsData: false,
      check: () => Promise.reject(new RuleSkipped(why)),
    });
  }
  return rules;
}

function hasPathParameter(operation: PlanOperation): boolean {
  return operation.parameters.some((parameter) => parameter.in === 'path');
}

/**
 * An operation that declares its own security takes no other: the valid credential of each
 * scheme the spec uses elsewhere but not here (the global API key on an operation behind
 * HTTP basic, say) gets 401. Schemes sent where the operation takes a credential are left
 * out: that is the near misses' part.
 */
function otherSchemeRules(
  kit: Kit,
  operation: PlanOperation,
  target: Pick<ContractTarget, 'credentials' | 'refusedSchemes'>,
  taken: ReadonlySet<string>,
  probe: (ctx: RuleContext, auth: Carrier | null, shape: string) => Promise<void>,
): Rule[] {
  const own = new Set(operation.security.flatMap(Object.keys));
  const elsewhere = new Set(kit.plan.operations.flatMap((op) => op.security.flatMap(Object.keys)));
  const rules: Rule[] = [];
  for (const name of elsewhere) {
    const scheme = kit.plan.securitySchemes[name];
    if (own.has(name) || !scheme || taken.has(placeOf(scheme) ?? '')) continue;
    if (kit.secret(target, name) === undefined) continue;
    rules.push({
      name: kit.name(
        operation,
        'credentials',
        `the valid credential of ${name}, which other operations take and this one does not, gets 401`,
      ),
      createsData: operation.method !== 'get' && operation.method !== 'head',
      check: (ctx) =>
        probe(ctx, place(scheme, kit.secret(ctx.target, name)!), `the valid ${name} credential`),
    });
  }
  return rules;
}

/** 401 wins over 400: a request without a valid credential is refused before its body is read. */
function precedenceRules(
  kit: Kit,
  operation: PlanOperation,
  probe: (ctx: RuleContext, auth: Carrier | null, shape: string, text?: string) => Promise<void>,
): Rule[] {
  const schema = kit.requestSchema(operation);
  const objectBody = allowedTypes(schema).includes('object');
  const breaking = kit.spec.acceptsRequest(operation, {}) ? '[]' : '{}';
  const rules: Rule[] = [
    {
      name: kit.name(
        operation,
        'credentials',
        'a missing credential gets 401 even with malformed JSON',
      ),
      createsData: false,
      check: (ctx) =>
        probe(
          ctx,
          null,
          'no credential and malformed JSON',
          `{"${Object.keys(kit.validBody(operation, 'x'))[0] ?? 'name'}": `,
        ),
    },
  ];
  if (objectBody)
    rules.push({
      name: kit.name(
        operation,
        'credentials',
        'a missing credential gets 401 even with a body that breaks the schema',
      ),
      createsData: false,
      check: (ctx) => probe(ctx, null, 'no credential and a body that is an array', '[]'),
    });
  rules.push({
    name: kit.name(
      operation,
      'credentials',
      'an unknown credential gets 401 even with a body that breaks the schema',
    ),
    createsData: false,
    async check(ctx) {
      const requirement = operation.security.find(
        (alternative) =>
          Object.keys(alternative).length > 0 &&
          Object.keys(alternative).every((name) => kit.secret(ctx.target, name) !== undefined),
      );
      if (!requirement)
        throw new RuleSkipped(kit.cannotCall(ctx.target, operation) ?? 'no credential held');
      const carriers = Object.keys(requirement).map((name) =>
        place(kit.plan.securitySchemes[name]!, `${kit.label}-not-a-key`),
      );
      await probe(
        ctx,
        merge(...carriers),
        `an unknown credential and the body ${breaking}`,
        breaking,
      );
    },
  });
  return rules;
}
