import { isDeepStrictEqual } from 'node:util';
import { validBody, writableProperties } from './bodies.js';
import { formatExchange, send, type Exchange } from './http.js';
import type { RuleContext } from './rule.js';
import type { ContractSpec, Schema, SpecOperation } from './spec.js';
import { ContractViolation } from './verdicts.js';

/** A sent body that was created: the answer, and what was sent. */
export interface Creation {
  exchange: Exchange;
  sent: Record<string, unknown>;
}

/**
 * The interface as the rules use it: its two operations over HTTP, and the judgements every
 * rule shares. Built once per run from the spec.
 */
export interface Kit {
  spec: ContractSpec;
  list: SpecOperation;
  create: SpecOperation;
  /** The request schema of createCategory. */
  newCategory: Schema;
  /** Prefix of every name the suite creates. */
  label: string;
  /** Calls an operation with the valid key, another `auth` header, or none (`null`). */
  call(
    ctx: RuleContext,
    operation: SpecOperation,
    options?: { auth?: string | null; body?: string },
  ): Promise<Exchange>;
  /** The answer has this status, is JSON, and matches the spec's schema for it. */
  conforms(ctx: RuleContext, exchange: Exchange, operation: SpecOperation, status: number): void;
  /** Throws the violation: the problems, then the exchanges that show them. */
  fail(problems: string[], ...exchanges: Exchange[]): never;
  /** The sent fields of the interface that the answer does not hold exactly as sent. */
  echoProblems(sent: Record<string, unknown>, answered: unknown, where?: string): string[];
  /** Rule 4: a 201 with a Category echoing every sent field exactly. */
  echoed(ctx: RuleContext, exchange: Exchange, sent: Record<string, unknown>): void;
  /**
   * Judges a create whose body the interface leaves open (no limits are documented): 201 with
   * a Category echoing every sent field exactly, or 400 with an Error body. Anything else,
   * a 5xx or a silently altered value, is a violation.
   */
  createdOrRefused(ctx: RuleContext, exchange: Exchange, sent: Record<string, unknown>): boolean;
  /** The next list holds every creation, each field exactly as sent. */
  listedAsSent(ctx: RuleContext, creations: Creation[]): Promise<void>;
  /** A valid body, every property given, its strings naming the suite's data and `what`. */
  validBody(what: string): Record<string, unknown>;
  /** A valid body with only the required properties. */
  requiredBody(what: string): Record<string, unknown>;
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Builds the kit for a spec. `label` prefixes what the suite creates.
 * @example const kit = createKit(await loadContractSpec(), 'contract-abc');
 */
export function createKit(spec: ContractSpec, label: string): Kit {
  const list = spec.operation('listCategories');
  const create = spec.operation('createCategory');
  const newCategory = create.requestSchema ?? {};
  const declared = Object.keys(writableProperties(newCategory));

  const kit: Kit = {
    spec,
    list,
    create,
    newCategory,
    label,

    call(ctx, operation, options = {}) {
      const headers: Record<string, string> = {};
      const auth = options.auth === undefined ? `Bearer ${ctx.target.apiKey}` : options.auth;
      if (auth !== null) headers.Authorization = auth;
      if (operation.requestSchema) headers['Content-Type'] = 'application/json';
      return send(ctx, {
        method: operation.method,
        path: operation.path,
        headers,
        body: options.body,
      });
    },

    conforms(ctx, exchange, operation, status) {
      const problems: string[] = [];
      if (exchange.status !== status)
        problems.push(`expected status ${status}, got ${exchange.status}`);
      const contentType = exchange.headers['content-type'] ?? '(none)';
      if (!JSON_TYPE.test(contentType))
        problems.push(`expected a JSON body (application/json), got ${contentType}`);
      else if (exchange.json === undefined) problems.push('the body is not valid JSON');
      if (problems.length === 0) {
        problems.push(
          ...spec
            .checkResponse(operation.operationId, exchange.status, exchange.json)
            .map((p) => `the spec's schema: ${p}`),
        );
        const reported = (exchange.json as { status?: unknown } | null)?.status;
        if (status >= 400 && typeof reported === 'number' && reported !== exchange.status) {
          problems.push(
            `the Error body says status ${reported}, the HTTP status is ${exchange.status}`,
          );
        }
      }
      if (problems.length > 0) kit.fail(problems, exchange);
      if (status === 401) adviseOnChallenge(ctx, exchange);
    },

    fail(problems, ...exchanges) {
      throw new ContractViolation([...problems, '', ...exchanges.map(formatExchange)].join('\n'));
    },

    echoProblems(sent, answered, where = 'answered') {
      const got = (answered ?? {}) as Record<string, unknown>;
      return declared
        .filter((name) => name in sent && !isDeepStrictEqual(got[name], sent[name]))
        .map(
          (name) =>
            `\`${name}\` was sent as ${JSON.stringify(sent[name])}, ${where} as ${got[name] === undefined ? '(absent)' : JSON.stringify(got[name])}`,
        );
    },

    createdOrRefused(ctx, exchange, sent) {
      if (exchange.status === 400) {
        kit.conforms(ctx, exchange, create, 400);
        return false;
      }
      if (exchange.status !== 201) {
        kit.fail(
          [
            `expected 201 echoing the body exactly, or 400 with an Error body; got ${exchange.status}`,
          ],
          exchange,
        );
      }
      kit.echoed(ctx, exchange, sent);
      return true;
    },

    echoed(ctx, exchange, sent) {
      kit.conforms(ctx, exchange, create, 201);
      const problems = kit.echoProblems(sent, exchange.json);
      if (problems.length > 0) kit.fail(problems, exchange);
    },

    async listedAsSent(ctx, creations) {
      if (creations.length === 0) return;
      const listed = await kit.call(ctx, list);
      kit.conforms(ctx, listed, list, 200);
      const byId = new Map(
        (listed.json as { id?: unknown }[]).map((category) => [category.id, category]),
      );
      for (const { exchange, sent } of creations) {
        const { id } = exchange.json as { id: unknown };
        const found = byId.get(id);
        if (!found) {
          kit.fail(
            [`the created category (id ${JSON.stringify(id)}) is not in the next list`],
            exchange,
            listed,
          );
        }
        const problems = kit.echoProblems(sent, found, `listed (id ${JSON.stringify(id)})`);
        if (problems.length > 0) kit.fail(problems, exchange, listed);
      }
    },

    validBody: (what) => validBody(newCategory, `${label} ${what}`),

    requiredBody(what) {
      const full = validBody(newCategory, `${label} ${what}`);
      return Object.fromEntries(
        Object.entries(full).filter(([name]) => newCategory.required?.includes(name)),
      );
    },
  };
  return kit;
}

/** HTTP asks every 401 to name the scheme it wants; the interface does not promise it. */
function adviseOnChallenge(ctx: RuleContext, exchange: Exchange): void {
  const challenge = exchange.headers['www-authenticate'];
  if (challenge === undefined) {
    ctx.advise(
      '401 answers carry no WWW-Authenticate header, which HTTP asks of every 401 (RFC 9110, section 11.6.1)',
    );
  } else if (!/^\s*bearer\b/i.test(challenge)) {
    ctx.advise(
      `401 answers challenge with "${challenge}", not the Bearer scheme the interface uses`,
    );
  }
}
