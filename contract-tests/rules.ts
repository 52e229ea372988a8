import { invalidBodies, validBody } from './bodies.js';
import { formatExchange, send, type Exchange } from './http.js';
import type { ContractSpec } from './spec.js';
import type { ContractTarget } from './target.js';

/** A deployment broke a rule of the interface. The message shows the exchange that proves it. */
export class ContractViolation extends Error {
  override name = 'ContractViolation';

  constructor(message: string) {
    super(message);
    // The frames would point into the suite, not at the deployment: the message is the evidence.
    this.stack = `${this.name}: ${message}`;
  }
}

/** One rule of the interface document, checked over HTTP. */
export interface Rule {
  /** Reads like the interface document: which operation, which rule, what must happen. */
  name: string;
  /** It sends a valid create, which leaves a category behind: skipped in read-only mode. */
  createsData: boolean;
  check(target: ContractTarget): Promise<void>;
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * The rules of the categories interface, as a table. Negative cases are generated from the
 * spec's request schema, so they follow it when it changes.
 * @example for (const rule of contractRules(spec, target)) await rule.check(target);
 */
export function contractRules(
  spec: ContractSpec,
  target: Pick<ContractTarget, 'namePrefix'>,
): Rule[] {
  const list = spec.operation('listCategories');
  const create = spec.operation('createCategory');
  const newCategory = create.requestSchema ?? {};
  const label = target.namePrefix;

  async function call(
    t: ContractTarget,
    operationId: string,
    options: { auth?: string | null; body?: string } = {},
  ) {
    const operation = spec.operation(operationId);
    const headers: Record<string, string> = {};
    const auth = options.auth === undefined ? `Bearer ${t.apiKey}` : options.auth;
    if (auth !== null) headers.Authorization = auth;
    if (operation.requestSchema) headers['Content-Type'] = 'application/json';
    return send(t, { method: operation.method, path: operation.path, headers, body: options.body });
  }

  /** The answer has the expected status, is JSON, and matches the spec's schema for it. */
  function conforms(exchange: Exchange, operationId: string, status: number): void {
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
          .checkResponse(operationId, exchange.status, exchange.json)
          .map((p) => `the spec's schema: ${p}`),
      );
      const reported = (exchange.json as { status?: unknown } | null)?.status;
      if (status >= 400 && typeof reported === 'number' && reported !== exchange.status) {
        problems.push(
          `the Error body says status ${reported}, the HTTP status is ${exchange.status}`,
        );
      }
    }
    if (problems.length > 0) fail(problems, exchange);
  }

  function fail(problems: string[], ...exchanges: Exchange[]): never {
    throw new ContractViolation([...problems, '', ...exchanges.map(formatExchange)].join('\n'));
  }

  /** Creates from `body`: 201, a Category (so an integer `id`), every sent field echoed. */
  async function createsEcho(t: ContractTarget, body: string): Promise<void> {
    const exchange = await call(t, create.operationId, { body });
    conforms(exchange, create.operationId, 201);
    const created = exchange.json as Record<string, unknown>;
    const problems = Object.entries(JSON.parse(body) as Record<string, unknown>)
      .filter(([name, value]) => created[name] !== value)
      .map(
        ([name, value]) =>
          `\`${name}\` was sent as ${JSON.stringify(value)}, answered as ${JSON.stringify(created[name])}`,
      );
    if (problems.length > 0) fail(problems, exchange);
  }

  const createBody = (what: string) => JSON.stringify(validBody(newCategory, `${label} ${what}`));
  const requiredOnly = (what: string) => {
    const full = validBody(newCategory, `${label} ${what}`);
    return JSON.stringify(
      Object.fromEntries(
        Object.entries(full).filter(([name]) => newCategory.required?.includes(name)),
      ),
    );
  };

  const rules: Rule[] = [
    {
      name: 'listCategories: answers 200 with a JSON array of Category objects',
      createsData: false,
      async check(t) {
        conforms(await call(t, list.operationId), list.operationId, 200);
      },
    },
    {
      name: 'createCategory rule 4: a valid body gets 201 and a Category echoing every submitted field, with a new integer id',
      createsData: true,
      check: (t) => createsEcho(t, createBody('echo')),
    },
    {
      name: 'createCategory rule 4: a body with only the required fields gets 201 echoing them',
      createsData: true,
      check: (t) => createsEcho(t, requiredOnly('required-only')),
    },
    {
      name: 'createCategory rule 4: each create gets a new id (two creates, two ids)',
      createsData: true,
      async check(t) {
        const first = await call(t, create.operationId, { body: createBody('first') });
        const second = await call(t, create.operationId, { body: createBody('second') });
        conforms(first, create.operationId, 201);
        conforms(second, create.operationId, 201);
        const ids = [first, second].map((exchange) => (exchange.json as { id?: unknown }).id);
        if (ids[0] === ids[1])
          fail([`both creates got id ${JSON.stringify(ids[0])}`], first, second);
      },
    },
    {
      name: 'listCategories: the list holds all categories, one just created included',
      createsData: true,
      async check(t) {
        const created = await call(t, create.operationId, { body: createBody('listed') });
        conforms(created, create.operationId, 201);
        const listed = await call(t, list.operationId);
        conforms(listed, list.operationId, 200);
        const { id, name } = created.json as { id: unknown; name: unknown };
        const found = (listed.json as { id?: unknown; name?: unknown }[]).find(
          (category) => category.id === id,
        );
        if (!found)
          fail(
            [`the created category (id ${JSON.stringify(id)}) is not in the list`],
            created,
            listed,
          );
        if (found.name !== name)
          fail([`the listed category ${JSON.stringify(id)} has another name`], created, listed);
      },
    },
  ];

  for (const body of invalidBodies(newCategory, label)) {
    rules.push({
      name: `createCategory rule ${body.rule}: ${body.what} gets 400 with an Error body`,
      createsData: false,
      async check(t) {
        conforms(await call(t, create.operationId, { body: body.text }), create.operationId, 400);
      },
    });
  }

  const badCredentials = [
    { what: 'a missing credential', auth: null },
    { what: 'an invalid API key', auth: `Bearer ${label}-not-a-key` },
    {
      what: 'the valid key under the Basic scheme',
      auth: (t: ContractTarget) => `Basic ${t.apiKey}`,
    },
    { what: 'the valid key without the Bearer scheme', auth: (t: ContractTarget) => t.apiKey },
  ];
  for (const operation of [list, create]) {
    for (const credential of badCredentials) {
      rules.push({
        name: `${operation.operationId} rule 3: ${credential.what} gets 401 with an Error body`,
        // A server that wrongly accepts the credential would store this valid create.
        createsData: Boolean(operation.requestSchema),
        async check(t) {
          const auth = typeof credential.auth === 'function' ? credential.auth(t) : credential.auth;
          const body = operation.requestSchema ? createBody('unauthorized') : undefined;
          conforms(
            await call(t, operation.operationId, { auth, body }),
            operation.operationId,
            401,
          );
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
      async check(t) {
        conforms(await call(t, create.operationId, { auth, body }), create.operationId, 401);
      },
    });
  }

  return rules;
}
