// The requests the mock sends: an operation's callbacks after it succeeds, the webhooks that
// follow a collection's writes, and a webhook on demand. Each is sent apart from the answer
// that caused it (never delaying or failing it), logged in the request log of the state it
// belongs to, and its answer checked against the description.
import { setTimeout as sleep } from 'node:timers/promises';
import type { OpenApiDocument } from '../../openapi/load.js';
import type { Operation } from '../../openapi/operations.js';
import {
  callbacksOf,
  matchWebhooks,
  payloadSchemaOf,
  webhooksOf,
  type CallbackRequest,
  type RecordChange,
  type WebhookTrigger,
} from '../../openapi/outgoing.js';
import type { Resource, ResourceAction } from '../../openapi/resources.js';
import { expandTemplate, type ExpressionContext } from '../../openapi/runtime-expression.js';
import type { DataGenerator } from '../../openapi/sample.js';
import { CheckedJson, CheckedList, type CheckedAnswer } from '../../vocabulary/answer.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { MockRequest } from '../../vocabulary/request.js';
import { withKeyIn } from '../../vocabulary/record.js';
import type { WebhookControl } from '../admin/handlers.js';
import type { AnsweredRequest } from '../admin/request-log.js';
import type { MockState } from '../state.js';
import { refusal } from './allowed-hosts.js';
import { deliver, refused, type Outgoing } from './delivery.js';
import { payloadFor } from './payload.js';
import { signedHeaders } from './signature.js';
import { isJsonObject } from '../../vocabulary/record.js';

/** Where and how the mock sends callbacks and webhooks (MockSettings.outgoing). */
export interface OutgoingSettings {
  /** The hosts a callback may go to; `*`: any. */
  callbackHosts: readonly string[];
  /** The receivers every webhook goes to. */
  webhookUrls: readonly string[];
  /** The key webhooks are signed with (a `whsec_` secret's bytes); none: unsigned. */
  webhookKey?: Uint8Array | undefined;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** A request the mock answered with a 2xx, as the callbacks and webhooks it sets off read it. */
export interface AnsweredExchange {
  operation: Operation;
  request: MockRequest;
  /** The path parameters and the query string (without `?`). */
  params: Readonly<Record<string, unknown>>;
  search: string;
  /** The request's body, as read. */
  body: unknown;
  answer: CheckedAnswer;
  state: MockState;
  /** `Prefer: callback-delay=<ms>`. */
  callbackDelayMs?: number | undefined;
}

/** The callbacks and webhooks of a spec, ready to send. */
export interface OutgoingRequests {
  /** Sends what an answered request sets off, in the background; never throws. */
  afterAnswer(exchange: AnsweredExchange): void;
  /** The admin API's `/webhooks`; none when the spec declares no webhook. */
  readonly webhooks: WebhookControl | undefined;
  /** Whether any operation declares callbacks or any webhook follows a write: else afterAnswer does nothing. */
  readonly active: boolean;
  /** Settles once everything sent so far has been answered (or given up on). */
  idle(): Promise<void>;
}

/**
 * The most callbacks and webhooks being sent at once: past it, what a request sets off is
 * dropped (and logged), so that a slow receiver under a burst of writes holds no more than
 * this many sockets and bodies.
 * @internal for its tests: no part of the package's surface
 */
export const MAX_IN_FLIGHT = 64;

/** The change a write of each kind makes. */
const CHANGE_OF: Partial<Record<ResourceAction, RecordChange>> = {
  create: 'created',
  replace: 'updated',
  update: 'updated',
  delete: 'deleted',
};

/**
 * The callbacks and webhooks of a document, and what the mock sends of them.
 * @param warn told at start-up of the webhooks no write can set off (one line), and of a
 * callback refused or failed as it happens.
 * @example const outgoing = createOutgoing({ document, operations, resources, generator, settings, warn });
 */
export function createOutgoing(from: {
  document: OpenApiDocument;
  operations: readonly Operation[];
  resources: readonly Resource[];
  generator: DataGenerator;
  settings: OutgoingSettings;
  warn: (line: string) => void;
}): OutgoingRequests {
  const { document, generator, settings, warn } = from;
  const send = settings.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const callbacks = new Map<Operation, CallbackRequest[]>();
  for (const operation of from.operations) {
    const found = callbacksOf(operation, document);
    if (found.length) callbacks.set(operation, found);
    for (const callback of found)
      if (callback.problem)
        warn(
          `callback ${callback.name} of ${operation.operationId} is never sent: ${callback.problem}`,
        );
  }
  const webhooks = webhooksOf(document);
  const { triggers, unmatched } = matchWebhooks(webhooks, from.resources);
  if (unmatched.length)
    warn(
      `webhooks sent on demand only (POST /__mock/webhooks/{name}), no write matched: ${unmatched
        .map(({ webhook, reason }) => `${webhook.path} (${reason})`)
        .join('; ')}`,
    );
  const following = new Map<string, WebhookTrigger[]>();
  for (const trigger of triggers) {
    const key = `${trigger.resource.name} ${trigger.change}`;
    following.set(key, [...(following.get(key) ?? []), trigger]);
  }
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(promise: Promise<T>): Promise<T> => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => undefined);
    return promise;
  };

  /** Sends one request and logs it; never throws. */
  async function sendLogged(outgoing: Outgoing, state: MockState): Promise<AnsweredRequest> {
    const entry = await deliver(outgoing, {
      fetch: send,
      compiler: generator.compiler,
      session: state.session,
    });
    if (entry.outgoing?.error)
      warn(
        `${entry.outgoing.kind} ${entry.outgoing.name} to ${outgoing.url}: ${entry.outgoing.error}`,
      );
    await logged(entry, state);
    return entry;
  }

  async function logged(entry: AnsweredRequest, state: MockState): Promise<void> {
    try {
      await state.requestLog.add(entry);
    } catch {
      // A shared log that is down loses the line, never the sending.
    }
  }

  /** A webhook's request to one receiver, signed when a key is given. */
  function webhookRequest(
    webhook: Operation,
    url: string,
    payload: unknown,
    cause?: string,
  ): Outgoing {
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    const headers: Record<string, string> = {
      'user-agent': 'petstore-kit',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(settings.webhookKey ? signedHeaders(settings.webhookKey, body ?? '', new Date()) : {}),
    };
    const schema = payloadSchemaOf(webhook);
    const problems =
      schema && payload !== undefined
        ? generator.compiler
            .response(schema)(payload, 'payload')
            .map((p) => `the payload sent: ${p}`)
        : [];
    return {
      url,
      operation: webhook,
      headers,
      body,
      note: { kind: 'webhook', name: webhook.path, ...(cause ? { cause } : {}), problems },
    };
  }

  async function sendCallbacks(
    exchange: AnsweredExchange,
    found: CallbackRequest[],
  ): Promise<void> {
    if (exchange.callbackDelayMs) await sleep(exchange.callbackDelayMs);
    const context = contextOf(exchange);
    const { state, operation } = exchange;
    await Promise.all(
      found.map(async (callback) => {
        const note = {
          kind: 'callback' as const,
          name: callback.name,
          cause: operation.operationId,
        };
        if (!callback.url) return;
        const expanded = expandTemplate(callback.url, context);
        if ('missing' in expanded) {
          const error = `its URL (${callback.expression}) names nothing in this exchange: ${expanded.missing} is absent`;
          warn(`callback ${callback.name} of ${operation.operationId} not sent: ${error}`);
          return logged(
            refused(callback.expression, callback.operation, { ...note, error }, state.session),
            state,
          );
        }
        const url = expanded.text;
        const why = refusal(url, settings.callbackHosts);
        if (why) {
          warn(`callback ${callback.name} of ${operation.operationId} not sent to ${url}: ${why}`);
          return logged(
            refused(url, callback.operation, { ...note, error: why }, state.session),
            state,
          );
        }
        const schema = payloadSchemaOf(callback.operation);
        let payload: unknown;
        try {
          payload = payloadFor(schema, [context.response?.body, exchange.body], generator);
        } catch (err) {
          const error = `no body could be made for it: ${err instanceof Error ? err.message : String(err)}`;
          return logged(refused(url, callback.operation, { ...note, error }, state.session), state);
        }
        const body = payload === undefined ? undefined : JSON.stringify(payload);
        const problems =
          schema && payload !== undefined
            ? generator.compiler
                .response(schema)(payload, 'body')
                .map((p) => `the body sent: ${p}`)
            : [];
        await sendLogged(
          {
            url,
            operation: callback.operation,
            headers: {
              'user-agent': 'petstore-kit',
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            body,
            note: { ...note, problems },
          },
          state,
        );
      }),
    );
  }

  async function sendFollowing(exchange: AnsweredExchange, found: WebhookTrigger[]): Promise<void> {
    const context = contextOf(exchange);
    await Promise.all(
      found.flatMap((trigger) => {
        const { resource, webhook, change } = trigger;
        const record = context.response?.body;
        const id =
          resource.itemParameter === undefined
            ? undefined
            : exchange.params[resource.itemParameter];
        const sources = [
          record,
          ...(isJsonObject(record) ? Object.values(record).filter(isJsonObject) : []),
          exchange.body,
          ...(id === undefined ? [] : [withKeyIn({}, resource, id)]),
        ];
        let payload: unknown;
        try {
          payload = payloadFor(payloadSchemaOf(webhook), sources, generator);
        } catch (err) {
          warn(
            `webhook ${webhook.path} not sent: ${err instanceof Error ? err.message : String(err)}`,
          );
          return [];
        }
        const cause = `${exchange.operation.operationId}: ${resource.name} ${change}`;
        return settings.webhookUrls.map((url) =>
          sendLogged(webhookRequest(webhook, url, payload, cause), exchange.state),
        );
      }),
    );
  }

  const control: WebhookControl | undefined = webhooks.length
    ? {
        list: () => ({
          webhooks: webhooks.map((webhook) => {
            const trigger = triggers.find((one) => one.webhook === webhook);
            const reason = unmatched.find((one) => one.webhook === webhook)?.reason;
            return {
              name: webhook.path,
              method: webhook.method.toUpperCase(),
              ...(trigger
                ? { follows: { collection: trigger.resource.name, change: trigger.change } }
                : {}),
              ...(reason ? { unmatched: reason } : {}),
            };
          }),
          receivers: settings.webhookUrls,
          signed: settings.webhookKey !== undefined,
        }),
        async send(name, given, state) {
          const named = webhooks.filter((webhook) => webhook.path === name);
          const webhook = named[0];
          if (!webhook) throw errors.noWebhook(name, [...new Set(webhooks.map((one) => one.path))]);
          if (settings.webhookUrls.length === 0) throw errors.noWebhookReceiver();
          const payload =
            given === undefined ? payloadFor(payloadSchemaOf(webhook), [], generator) : given;
          const entries = await track(
            Promise.all(
              settings.webhookUrls.map((url) =>
                sendLogged(webhookRequest(webhook, url, payload, 'on demand'), state),
              ),
            ),
          );
          return { deliveries: entries.map(shownEntry) };
        },
      }
    : undefined;

  return {
    active: callbacks.size > 0 || (triggers.length > 0 && settings.webhookUrls.length > 0),
    webhooks: control,
    afterAnswer(exchange) {
      const work: (() => Promise<void>)[] = [];
      const found = callbacks.get(exchange.operation);
      if (found) work.push(() => sendCallbacks(exchange, found));
      if (settings.webhookUrls.length > 0)
        for (const resource of from.resources) {
          const action = resource.actions.get(exchange.operation);
          const change = action && CHANGE_OF[action];
          const list = change && following.get(`${resource.name} ${change}`);
          if (list) work.push(() => sendFollowing(exchange, list));
        }
      if (work.length === 0) return;
      if (inFlight.size >= MAX_IN_FLIGHT) {
        warn(
          `${exchange.operation.operationId}: its callbacks and webhooks are not sent: ${MAX_IN_FLIGHT} are being sent already (a receiver is slow to answer)`,
        );
        return;
      }
      for (const job of work) void track(job().catch(() => undefined));
    },
    async idle() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
  };
}

/** An exchange as runtime expressions read it. */
function contextOf(exchange: AnsweredExchange): ExpressionContext {
  const { request, answer } = exchange;
  const host = typeof request.headers.host === 'string' ? request.headers.host : 'localhost';
  const target = request.target.startsWith('/')
    ? `http://${host}${request.target}`
    : request.target;
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(exchange.search))
    if (!(name in query)) query[name] = value;
  return {
    url: target,
    method: request.method.toUpperCase(),
    statusCode: answer.status,
    request: { headers: request.headers, query, path: exchange.params, body: exchange.body },
    response: { headers: answer.headers, body: bodyOf(answer) },
  };
}

/** A checked answer's JSON body, parsed again (only for an operation that sends something). */
function bodyOf(answer: CheckedAnswer): unknown {
  const { body } = answer;
  if (body === undefined) return undefined;
  try {
    const bytes =
      body instanceof CheckedJson
        ? body.bytes
        : body instanceof CheckedList
          ? body.joined()
          : undefined;
    return bytes && JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** An entry as the admin API shows it: spec/admin.yaml's RecordedRequest, without an id. */
function shownEntry(entry: AnsweredRequest): object {
  const { response } = entry;
  let answered: object | undefined;
  if (response) {
    const body =
      response.body instanceof CheckedJson
        ? (JSON.parse(response.body.bytes.toString('utf8')) as unknown)
        : undefined;
    answered = {
      headers: response.headers,
      ...(body === undefined ? {} : { body }),
      ...(response.start
        ? { bodyStart: response.start.toString('utf8'), bodyBytes: response.bytes }
        : {}),
    };
  }
  return {
    method: entry.method,
    path: entry.path,
    ...(entry.status === undefined ? {} : { status: entry.status }),
    durationMs: entry.durationMs,
    time: new Date(entry.at).toISOString(),
    ...(entry.headers ? { headers: entry.headers } : {}),
    ...(entry.body === undefined ? {} : { body: entry.body }),
    ...(answered ? { response: answered } : {}),
    ...(entry.outgoing ? { outgoing: entry.outgoing } : {}),
  };
}
