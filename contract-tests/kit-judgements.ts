// How the suite judges an answer: its status, its fit to the spec, and that it holds what
// was sent. A judgement that does not hold throws the violation with its evidence.
import { isDeepStrictEqual } from 'node:util';
import { answersRecord } from './answer-shapes.js';
import { clauseOf } from './clauses.js';
import { formatExchange, type Exchange } from './http.js';
import { kindOf } from './credentials.js';
import { article } from './bodies.js';
import type { Expectation, Kit, KitBase } from './kit.js';
import { echoSchema } from './kit-records.js';
import {
  documented4xx,
  jsonResponseOf,
  responseFor,
  type ContractPlan,
  type PlanOperation,
  type Schema,
} from './plan.js';
import type { RuleContext } from './rule.js';
import { propertiesOf, textKeyword, writableProperties } from './schema-parts.js';
import { carries, schemaName } from './spec.js';
import { notJudgedIfRefused } from './refusals.js';
import { ContractViolation } from './verdicts.js';
import { isJsonObject } from '../src/vocabulary/record.js';

/** The kit's judgements: `kit` is the whole kit, for what they ask of its other parts. */
export function kitJudgements(
  { spec, plan, roles }: KitBase,
  kit: Kit,
): Pick<
  Kit,
  | 'conforms'
  | 'fail'
  | 'success'
  | 'created'
  | 'clientError'
  | 'errorText'
  | 'echoProblems'
  | 'shownSchema'
  | 'echoed'
  | 'acceptedOrRefused'
> {
  return {
    conforms(ctx, exchange, operation, expected) {
      if (isTooLargeRefused(exchange) && !expected.accepts(413)) {
        // A body past a megabyte (10,000 items where `maxItems` allows them): a server may
        // refuse it for its size before reading it, whatever the spec says of its content.
        ctx.advise(
          `${operation.operationId} refused a body of ${exchange.request.body!.length} bytes with 413: the spec documents no size limit for its bodies, which a client needs to know`,
        );
        return;
      }
      if (!expected.accepts(exchange.status)) {
        kit.fail(
          `${exchange.status} answers where the spec wants ${expected.label}`,
          [`expected status ${expected.label}, got ${exchange.status}`],
          exchange,
        );
      }
      if (expected.accepts(exchange.status) && isUndocumentedRefusal(operation, exchange.status)) {
        // The refusal the rule asked for, which the spec never wrote down (Scalar's Galaxy
        // documents 403 and no 401 on its writes): every correct server answers so. The
        // description's gap, told once, not the deployment's fault.
        ctx.advise(
          `the spec documents no ${exchange.status} answer for ${operation.operationId}, which a correct server answers to the requests it must refuse: document it`,
        );
        if (exchange.status === 401) adviseOnChallenge(ctx, exchange, operation, plan);
        return;
      }
      if (expected.accepts(exchange.status) && isUndocumentedSuccess(operation, exchange.status)) {
        // An operation that documents no success at all (the classic Petstore's addPet: only
        // 405): whatever 2xx a correct server answers is undocumented. The description's gap.
        ctx.advise(
          `the spec documents no success answer for ${operation.operationId} (no 2xx, 2XX or default), so its ${exchange.status} cannot be checked: document it`,
        );
        return;
      }
      const problems = spec.checkAnswer(operation, exchange);
      if (problems.length > 0)
        kit.fail(
          problems[0]!.what,
          problems.flatMap((problem) => problem.details),
          exchange,
        );
      if (exchange.status === 401) adviseOnChallenge(ctx, exchange, operation, plan);
    },

    fail(summary, details, ...exchanges) {
      throw new ContractViolation(
        [summary, ...details, '', ...exchanges.map(formatExchange)].join('\n'),
        clauseOf(plan, summary, exchanges[0]),
      );
    },

    success(operation) {
      const keys = Object.keys(operation.responses);
      const exact = keys.filter((key) => /^2\d\d$/.test(key)).map(Number);
      if (exact.length > 0 && !keys.some((key) => /^2xx$/i.test(key)))
        return { label: exact.join(' or '), accepts: (status) => exact.includes(status) };
      const success = (status: number) => status >= 200 && status < 300;
      if (documentsSuccess(operation)) return { label: '2xx', accepts: success };
      // No success documented: a redirect (a login answering only 302), else a refusal (an
      // endpoint documenting only 401), is the answer the description expects. A 2xx stays
      // the description's gap, advised by conforms.
      const onlyAnswers = documentedOnly(keys, '3') ?? documentedOnly(keys, '4');
      if (!onlyAnswers) return { label: '2xx', accepts: success };
      return {
        label: `${onlyAnswers.label} (the only answer documented)`,
        accepts: (status) => onlyAnswers.accepts(status) || success(status),
      };
    },

    created(operation) {
      const role = roles.get(operation.operationId);
      return role?.action === 'create' && role.collection.upsert
        ? { label: '201', accepts: (status) => status === 201 }
        : kit.success(operation);
    },

    clientError(operation) {
      const documented: number[] = documented4xx(operation).filter(
        (status) => status === 400 || status === 422,
      );
      if (documented.length > 0)
        return { label: documented.join(' or '), accepts: (status) => documented.includes(status) };
      // Not an answer about the body: the credential, the path, the method, the rate.
      const unrelated = [401, 403, 404, 405, 429];
      return {
        label: '4xx',
        accepts: (status) => status >= 400 && status < 500 && !unrelated.includes(status),
      };
    },

    errorText(operation, expected) {
      const status = Number(/^\d{3}/.exec(expected.label)?.[0] ?? 400);
      const schema = jsonResponseOf(responseFor(operation, status)?.response);
      const name = schema ? schemaName(schema) : undefined;
      return name && name !== 'documented'
        ? `${expected.label} with ${article(name)} body`
        : `${expected.label} in the spec's error shape`;
    },

    echoProblems(schema, sent, answered, where = 'answered', shown) {
      const got = (typeof answered === 'object' && answered !== null ? answered : {}) as Record<
        string,
        unknown
      >;
      const declared = writableProperties(schema);
      const answers = shownProperties(shown);
      return Object.keys(sent)
        .filter(
          (name) =>
            name in declared &&
            !carries(declared[name]!, 'writeOnly') &&
            (answers === undefined || name in answers) &&
            !sameValue(declared[name]!, sent[name], got[name], 0, answers?.[name]),
        )
        .map(
          (name) =>
            `\`${name}\` was sent as ${JSON.stringify(sent[name])}, ${where} as ${got[name] === undefined ? '(absent)' : JSON.stringify(got[name])}`,
        );
    },

    shownSchema(operation, status) {
      const schema = jsonResponseOf(responseFor(operation, status)?.response);
      const role = roles.get(operation.operationId);
      const property = role && role.collection.plan.envelopes[role.action];
      const inner = schema && property !== undefined ? propertiesOf(schema)[property] : schema;
      return role?.action === 'list' ? inner?.items : inner;
    },

    echoed(ctx, exchange, operation, sent, expected = kit.success(operation)) {
      notJudgedIfRefused(operation, exchange, expected);
      kit.conforms(ctx, exchange, operation, expected);
      // A redirect or a refusal documented as the only answer holds no record to echo.
      if (exchange.status >= 300) return;
      // A write the spec answers without a body (201 and a Location) has nothing to echo: its
      // record is judged where it is read.
      if (!answersRecord(operation, exchange.status)) return;
      const schema = echoSchema(roles, operation);
      const problems = kit.echoProblems(
        schema,
        sent,
        kit.recordOf(operation, exchange),
        'answered',
        kit.shownSchema(operation, exchange.status),
      );
      if (problems.length > 0) kit.fail('sent values answered altered', problems, exchange);
    },

    acceptedOrRefused(ctx, exchange, operation, sent) {
      const invalid = kit.clientError(operation);
      // A key the client chose that a record holds already: 409 Conflict, as HTTP names it.
      const key = roles.get(operation.operationId)?.collection.plan.idProperty;
      // Or a conflict with the state the operation documents (a unique field, a balance).
      const conflict =
        exchange.status === 409 &&
        ((key !== undefined && key in sent) || operation.responses['409'] !== undefined);
      const refused = conflict
        ? { label: '409', accepts: (status: number) => status === 409 }
        : invalid;
      if (refused.accepts(exchange.status)) {
        kit.conforms(ctx, exchange, operation, refused);
        return false;
      }
      const success = kit.success(operation);
      notJudgedIfRefused(operation, exchange, {
        label: `${success.label} or ${refused.label}`,
        accepts: (status) => success.accepts(status),
      });
      if (!success.accepts(exchange.status))
        kit.fail(
          `${exchange.status} answers where the spec wants ${success.label} or ${refused.label}`,
          [
            `expected ${success.label} echoing the body exactly, or ${kit.errorText(operation, refused)}; got ${exchange.status}`,
          ],
          exchange,
        );
      kit.echoed(ctx, exchange, operation, sent, success);
      return true;
    },
  };
}

/** Nested deeper than this, values must come back exactly as sent. */
const ECHO_DEPTH = 32;

/**
 * Whether a value came back as sent: exactly, or as the same instant for a date-time, or, for
 * an object, each field sent (but a `writeOnly` one, which a server takes and never shows: a
 * planet's `creator.password`) came back the same, at any depth, as at the top, the server free
 * to add the fields it sets (`creator.id`).
 */
function sameValue(
  schema: Schema,
  sent: unknown,
  got: unknown,
  depth = 0,
  shown?: Schema,
): boolean {
  if (isDeepStrictEqual(sent, got)) return true;
  if (
    textKeyword(schema, 'format') === 'date-time' &&
    typeof sent === 'string' &&
    typeof got === 'string'
  )
    return !Number.isNaN(Date.parse(sent)) && Date.parse(sent) === Date.parse(got);
  if (depth >= ECHO_DEPTH) return false;
  if (Array.isArray(sent))
    return (
      Array.isArray(got) &&
      sent.length === got.length &&
      sent.every((item, i) => sameValue(schema.items ?? {}, item, got[i], depth + 1, shown?.items))
    );
  if (!isJsonObject(sent) || !isJsonObject(got)) return false;
  const properties = propertiesOf(schema);
  const answers = shownProperties(shown);
  return Object.keys(sent).every((name) => {
    const property = properties[name];
    if (property && carries(property, 'writeOnly')) return true;
    // A field the answer's own schema leaves out, a correct server leaves out too.
    if (answers !== undefined && !(name in answers)) return true;
    return sameValue(property ?? {}, sent[name], got[name], depth + 1, answers?.[name]);
  });
}

/**
 * The properties an answer's schema declares; `undefined` when it declares none (open, or
 * one of several shapes): then every sent field is looked for.
 */
function shownProperties(shown: Schema | undefined): Record<string, Schema> | undefined {
  if (!shown) return undefined;
  const properties = propertiesOf(shown);
  return Object.keys(properties).length > 0 ? properties : undefined;
}

/** A 4xx status the operation documents nothing for: neither itself, nor `4XX`, nor `default`. */
function isUndocumentedRefusal(operation: PlanOperation, status: number): boolean {
  return status >= 400 && status < 500 && responseFor(operation, status) === undefined;
}

/** Bodies larger than this may be refused for their size alone (413), whatever they hold. */
const SIZE_REFUSED_OVER = 1_000_000;

function isTooLargeRefused(exchange: Exchange): boolean {
  return exchange.status === 413 && (exchange.request.body?.length ?? 0) > SIZE_REFUSED_OVER;
}

/** A 2xx of an operation that documents no success: neither a 2xx, nor `2XX`, nor `default`. */
function isUndocumentedSuccess(operation: PlanOperation, status: number): boolean {
  return status >= 200 && status < 300 && !documentsSuccess(operation);
}

/**
 * The statuses of one class (`3` or `4`) the operation documents, exact or as a range.
 * @example documentedOnly(['302', '5XX'], '3') // { label: '302', accepts: (status) => status === 302 }
 */
function documentedOnly(keys: readonly string[], digit: '3' | '4'): Expectation | undefined {
  const exact = keys.filter((key) => new RegExp(`^${digit}\\d\\d$`).test(key)).map(Number);
  const range = keys.some((key) => key.toLowerCase() === `${digit}xx`);
  if (exact.length === 0 && !range) return undefined;
  return {
    label: range ? `${digit}xx` : exact.join(' or '),
    accepts: (status) =>
      exact.includes(status) || (range && Math.floor(status / 100) === Number(digit)),
  };
}

/** The operation documents some success answer: a 2xx, `2XX` or `default`. */
function documentsSuccess(operation: PlanOperation): boolean {
  return Object.keys(operation.responses).some((key) => /^(2\d\d|2xx|default)$/i.test(key));
}

/** HTTP asks every 401 to name the scheme it wants; specs seldom promise it. */
function adviseOnChallenge(
  ctx: RuleContext,
  exchange: Exchange,
  operation: PlanOperation,
  plan: ContractPlan,
): void {
  const challenge = exchange.headers['www-authenticate'];
  if (challenge === undefined) {
    ctx.advise(
      '401 answers carry no WWW-Authenticate header, which HTTP asks of every 401 (RFC 9110, section 11.6.1)',
    );
    return;
  }
  const wanted = new Set(
    operation.security.flatMap((requirement) =>
      Object.keys(requirement).flatMap((name) => {
        const scheme = plan.securitySchemes[name];
        const kind = scheme && kindOf(scheme);
        return kind === 'bearer' ? ['bearer'] : kind === 'basic' ? ['basic'] : [];
      }),
    ),
  );
  const offered = challenge.toLowerCase();
  if (
    wanted.size > 0 &&
    ![...wanted].some((scheme) => new RegExp(`(^|[\\s,])${scheme}\\b`).test(offered))
  )
    ctx.advise(
      `401 answers challenge with "${challenge}", not the ${[...wanted].map((s) => s[0]!.toUpperCase() + s.slice(1)).join(' or ')} scheme the interface uses`,
    );
}
