// The requests the target sends: an operation's callbacks and the webhooks that tell of its
// writes. With `--receiver host:port` the suite listens there, sets off each one, and checks
// that it comes after what set it off, fits its schema, and that the documented answer the
// receiver gives is accepted (not sent again).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Exchange } from '../http.js';
import type { CollectionKit, Kit } from '../kit.js';
import { jsonRequestOf, jsonResponseOf, type PlanOutgoing } from '../plan.js';
import type { Rule, RuleContext } from '../rule.js';
import { sampleValue } from '../samples.js';
import type { ContractTarget } from '../target.js';
import { RuleSkipped } from '../verdicts.js';

/** How long the receiver waits for a request when the run gives no request timeout. */
const DEFAULT_WAIT_MS = 10_000;

/** How long the receiver waits, after the documented answer, for the same request again. */
const RESENT_WAIT_MS = 500;

/** How long a write made to prepare another (a create before an update) may take to send its own webhooks. */
const SETTLE_MS = 300;

/** One request the receiver took. */
interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  text: string;
  /** performance.now() when it arrived. */
  at: number;
}

/**
 * A rule per callback and per webhook of the spec: skipped without a receiver, or for a
 * webhook no write of the spec tells of (sent on demand only), or a callback whose URL the
 * request does not name.
 */
export function outgoingRules(
  kit: Kit,
  target: Partial<Pick<ContractTarget, 'receiver' | 'timeoutMs'>>,
): Rule[] {
  return (kit.plan.outgoing ?? []).map((outgoing) => {
    const after = outgoing.after === undefined ? undefined : kit.spec.operation(outgoing.after);
    const what =
      outgoing.kind === 'callback'
        ? `callback ${outgoing.name} is sent to the URL the request names, fits its schema, and its documented answer is accepted`
        : `webhook ${outgoing.name} is sent after it, fits its schema, and its documented answer is accepted`;
    return {
      name: after ? kit.name(after, undefined, what) : `webhook ${outgoing.name} is sent`,
      createsData: true,
      async check(ctx) {
        const { receiver } = target;
        if (!receiver)
          throw new RuleSkipped(
            'give --receiver <host:port> where the target can reach the suite (and subscribe its webhooks to it) to check what it sends',
          );
        if (!after)
          throw new RuleSkipped(
            'no write of the spec tells of this webhook: it can only be sent on demand',
          );
        if (outgoing.kind === 'callback' && !outgoing.urlFrom)
          throw new RuleSkipped(
            'its URL comes from nothing the request sends ($request.body, .query or .header)',
          );
        const listening = await listen(receiver, (request) => answerOf(kit, outgoing, request));
        try {
          const waitMs = target.timeoutMs ?? DEFAULT_WAIT_MS;
          await setOff(ctx, kit, outgoing, after.operationId, listening, waitMs);
        } finally {
          await listening.close();
        }
      },
    };
  });
}

/** Sets off one callback or webhook and judges what the receiver took. */
async function setOff(
  ctx: RuleContext,
  kit: Kit,
  outgoing: PlanOutgoing,
  afterId: string,
  listening: Listening,
  waitMs: number,
): Promise<void> {
  const after = kit.spec.operation(afterId);
  const callbackPath = `/callbacks/${encodeURIComponent(outgoing.name)}`;
  let exchange: Exchange;
  let sentAt: number;
  /** The record the write acted on, as its collection names it: its webhook names it too. */
  let record: { property: string; id: unknown } | undefined;
  if (outgoing.kind === 'callback') {
    const url = `${listening.url}${callbackPath}`;
    const from = outgoing.urlFrom;
    const body = jsonRequestOf(after) ? kit.validBody(after, 'callback') : undefined;
    const params: Record<string, unknown> = {};
    if (from?.in === 'body' && body) setAt(body, from.pointer, url);
    else if (from && from.in !== 'body') params[from.name] = url;
    // The parameters the rest of the URL names are sent, optional ones too.
    for (const [, where, name] of (from?.rest ?? '').matchAll(
      /\{\$request\.(query|header)\.([^}]+)\}/g,
    )) {
      const parameter = after.parameters.find(
        (one) => one.in === where && one.name.toLowerCase() === name?.toLowerCase(),
      );
      if (parameter && params[parameter.name] === undefined)
        params[parameter.name] = sampleValue(parameter.schema, kit.label);
    }
    sentAt = performance.now();
    exchange = await kit.call(ctx, after, {
      params,
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  } else {
    const role = kit.roleOf(after);
    if (!role) throw new RuleSkipped(`${afterId} acts on no collection the suite knows`);
    let id: unknown;
    ({ exchange, sentAt, id } = await write(
      ctx,
      kit,
      role.collection,
      role.action,
      after,
      listening,
    ));
    record = { property: role.collection.plan.idProperty, id };
  }
  kit.conforms(ctx, exchange, after, kit.success(after));
  const method = outgoing.request.method.toUpperCase();
  const fits = (request: Received) => problemsOf(kit, outgoing, request).length === 0;
  // Callbacks of one operation may share a URL: each is told by its method too.
  const first = await listening.waitFor(
    (request) =>
      request.at >= sentAt &&
      (outgoing.kind === 'webhook'
        ? fits(request)
        : request.url.startsWith(callbackPath) && request.method === method),
    waitMs,
  );
  if (!first) {
    const others = listening.received.filter((request) => request.at >= sentAt);
    kit.fail(
      `never sends its documented ${outgoing.kind}`,
      [
        `no ${method} of ${outgoing.kind} ${outgoing.name} reached the receiver (${listening.url}) within ${waitMs} ms of ${afterId}'s answer`,
        ...others
          .slice(0, 3)
          .map(
            (request) =>
              `it took ${request.method} ${request.url}: ${problemsOf(kit, outgoing, request).join('; ') || 'fits'}`,
          ),
        ...(outgoing.kind === 'webhook'
          ? [`is the target's webhook receiver ${listening.url}/ ?`]
          : []),
      ],
      exchange,
    );
  }
  // Another write's webhook may come first: one sent while nothing listened, retried since. Where
  // the payloads name their record, this write's is the one that names the record it wrote.
  let resentBy = first.at + RESENT_WAIT_MS - performance.now();
  if (record && resentBy > 0) await new Promise((resolve) => setTimeout(resolve, resentBy));
  const taken =
    (record &&
      listening.received.find(
        (request) => request.at >= sentAt && fits(request) && names(request, record),
      )) ||
    first;
  const problems = [
    ...(taken.method === method ? [] : [`it was sent with ${taken.method}, not ${method}`]),
    ...problemsOf(kit, outgoing, taken),
  ];
  if (problems.length)
    kit.fail(
      `sends a ${outgoing.kind} that breaks its schema`,
      [`${outgoing.name}: ${problems.join('; ')}`],
      exchange,
    );
  // A documented answer accepted is not sent again: an absence, seen only by waiting it out.
  resentBy = taken.at + RESENT_WAIT_MS - performance.now();
  if (resentBy > 0) await new Promise((resolve) => setTimeout(resolve, resentBy));
  const again = listening.received.filter((request) => resentOf(taken, request));
  if (again.length)
    kit.fail(
      `sends a ${outgoing.kind} again after its documented answer`,
      [
        `${outgoing.name} came ${again.length + 1} times, answered ${answerOf(kit, outgoing, taken).status} each time`,
      ],
      exchange,
    );
}

/**
 * Whether `request` is `taken` sent again although it was answered: the same URL and bytes (the
 * same `webhook-id` where the sender names its messages), after it, within the wait. A repeat
 * later than that may be a sender's retry after its own timeout, which is not a fault.
 */
function resentOf(taken: Received, request: Received): boolean {
  if (request === taken || request.at < taken.at || request.at - taken.at > RESENT_WAIT_MS)
    return false;
  if (request.url !== taken.url || request.text !== taken.text) return false;
  const id = taken.headers['webhook-id'];
  return id === undefined || request.headers['webhook-id'] === id;
}

/**
 * Whether a request's JSON body names the record: its id under the collection's id property, at
 * the top or one object down (`{id}`, `{data: {id}}`).
 */
function names(request: Received, record: { property: string; id: unknown }): boolean {
  let body: unknown;
  try {
    body = JSON.parse(request.text);
  } catch {
    return false;
  }
  const holds = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!holds(body)) return false;
  return [body, ...Object.values(body).filter(holds)].some(
    (object) => record.id !== undefined && object[record.property] === record.id,
  );
}

/** The write a webhook tells of, on a record the suite makes first where it needs one. */
async function write(
  ctx: RuleContext,
  kit: Kit,
  collection: CollectionKit,
  action: string,
  operation: ReturnType<Kit['spec']['operation']>,
  listening: Listening,
): Promise<{ exchange: Exchange; sentAt: number; id: unknown }> {
  const createdAt = performance.now();
  if (action === 'create') {
    const created = await kit.create(ctx, collection, 'webhook');
    return { exchange: created.exchange, sentAt: createdAt, id: created.id };
  }
  const { id } = await kit.create(ctx, collection, 'webhook');
  // The create's own webhooks come before the write's.
  await createWebhooks(kit, collection, listening, createdAt);
  const body = jsonRequestOf(operation) ? kit.validBody(operation, 'webhook') : undefined;
  const sentAt = performance.now();
  const exchange = await kit.call(ctx, operation, {
    params: kit.itemParams(collection, id),
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { exchange, sentAt, id };
}

/**
 * Resolves once each webhook the spec documents after the collection's create has reached the
 * receiver since `since`, or after SETTLE_MS for those that have not (a target may send none).
 */
async function createWebhooks(
  kit: Kit,
  collection: CollectionKit,
  listening: Listening,
  since: number,
): Promise<void> {
  const create = collection.create?.operationId;
  const documented = (kit.plan.outgoing ?? []).filter(
    (outgoing) => outgoing.kind === 'webhook' && create !== undefined && outgoing.after === create,
  );
  await Promise.all(
    documented.map((outgoing) =>
      listening.waitFor(
        (request) => request.at >= since && problemsOf(kit, outgoing, request).length === 0,
        SETTLE_MS,
      ),
    ),
  );
}

/** What a request the receiver took breaks of the documented one: its body's schema. */
function problemsOf(kit: Kit, outgoing: PlanOutgoing, request: Received): string[] {
  const json = jsonRequestOf(outgoing.request);
  if (!json) return [];
  let body: unknown;
  try {
    body = JSON.parse(request.text);
  } catch {
    return ['its body is not JSON'];
  }
  // The API writes it, as it writes its answers: a record's readOnly fields belong in it.
  return kit.spec.validate(json.schema, body, 'response');
}

/** The receiver's answer: the lowest 2xx the callback or webhook documents, its body sampled. */
function answerOf(
  kit: Kit,
  outgoing: PlanOutgoing,
  _request: Received,
): { status: number; body?: string } {
  const status =
    Object.keys(outgoing.request.responses)
      .filter((key) => /^2\d\d$/.test(key))
      .map(Number)
      .sort((a, b) => a - b)[0] ?? 200;
  const response = outgoing.request.responses[String(status)];
  const schema = jsonResponseOf(response);
  if (!schema || status === 204) return { status };
  return { status, body: JSON.stringify(sampleValue(schema, kit.label)) };
}

/** Sets a value at a JSON Pointer's place in a body, making the objects on the way. */
function setAt(body: Record<string, unknown>, pointer: readonly string[], value: unknown): void {
  let at: Record<string, unknown> = body;
  pointer.forEach((token, index) => {
    if (index === pointer.length - 1) at[token] = value;
    else {
      const next = at[token];
      at =
        typeof next === 'object' && next !== null
          ? (next as Record<string, unknown>)
          : (at[token] = {});
    }
  });
}

interface Listening {
  /** `http://host:port` */
  url: string;
  received: Received[];
  /** The first request taken (or to come within `ms`) that `matches`; undefined after `ms`. */
  waitFor(matches: (request: Received) => boolean, ms: number): Promise<Received | undefined>;
  close(): Promise<void>;
}

/** Listens on the receiver's address, answering each request with `answer`. */
async function listen(
  at: { host: string; port: number },
  answer: (request: Received) => { status: number; body?: string },
): Promise<Listening> {
  const received: Received[] = [];
  const waiting = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        text: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      };
      received.push(request);
      const { status, body } = answer(request);
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(body);
      for (const wake of waiting) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => resolve());
  });
  const host = at.host.includes(':') ? `[${at.host}]` : at.host;
  return {
    url: `http://${host}:${at.port}`,
    received,
    waitFor(matches, ms) {
      return new Promise((resolve) => {
        const check = () => {
          const found = received.find(matches);
          if (!found) return;
          done(found);
        };
        const timer = setTimeout(() => done(undefined), ms);
        const done = (found: Received | undefined) => {
          clearTimeout(timer);
          waiting.delete(check);
          resolve(found);
        };
        waiting.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
