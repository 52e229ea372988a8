// The requests a description says the API itself sends: an operation's callbacks and the
// document's webhooks (3.1), each read as an Operation, so that its body and its answers are
// checked and generated as any operation's are.
import {
  RuntimeExpressionError,
  parseTemplate,
  type ExpressionTemplate,
} from './runtime-expression.js';
import type { OpenApiDocument, SchemaObject } from './load.js';
import { jsonSchemaOf, listOperations, type Operation } from './operations.js';
import type { Resource } from './resources.js';

/** One request a callback of an operation sends: its name, the URL's expression, its operation. */
export interface CallbackRequest {
  /** The callback's name (`onEvent`). */
  readonly name: string;
  /** Its key as written (`{$request.body#/callbackUrl}`). */
  readonly expression: string;
  /** The key parsed; undefined with `problem` when it does not parse. */
  readonly url: ExpressionTemplate | undefined;
  readonly problem?: string;
  /** The request sent (`method`, `requestBody`) and the answers documented for it. */
  readonly operation: Operation;
}

/**
 * The requests an operation's `callbacks` send, in the document's order.
 * @example callbacksOf(operation, document)[0]?.expression // '{$request.body#/callbackUrl}'
 */
export function callbacksOf(operation: Operation, document: OpenApiDocument): CallbackRequest[] {
  const callbacks = operation.definition.callbacks as
    Record<string, Record<string, unknown> | undefined> | undefined;
  const found: CallbackRequest[] = [];
  for (const [name, callback] of Object.entries(callbacks ?? {})) {
    for (const [expression, item] of Object.entries(callback ?? {})) {
      if (typeof item !== 'object' || item === null) continue;
      let url: ExpressionTemplate | undefined;
      let problem: string | undefined;
      try {
        url = parseTemplate(expression);
      } catch (err) {
        if (!(err instanceof RuntimeExpressionError)) throw err;
        problem = err.message;
      }
      for (const sent of pathItemOperations(document, expression, item, name))
        found.push({ name, expression, url, ...(problem ? { problem } : {}), operation: sent });
    }
  }
  return found;
}

/**
 * The webhooks of a document (3.1's top-level `webhooks`), each as an Operation whose `path`
 * is the webhook's name and whose `operationId` is its own, else its name.
 * @example webhooksOf(document).map((w) => w.path) // ['newPet']
 */
export function webhooksOf(document: OpenApiDocument): Operation[] {
  const webhooks = (document as { webhooks?: Record<string, unknown> }).webhooks ?? {};
  return Object.entries(webhooks).flatMap(([name, item]) =>
    typeof item === 'object' && item !== null ? pathItemOperations(document, name, item, name) : [],
  );
}

/** The change to a collection's records a webhook tells of. */
export type RecordChange = 'created' | 'updated' | 'deleted';

/** A webhook sent after a write: the collection it follows and the change. */
export interface WebhookTrigger {
  readonly webhook: Operation;
  readonly resource: Resource;
  readonly change: RecordChange;
}

/** The words of a webhook's name, operationId or summary that say which change it tells of. */
const CHANGE_WORDS: readonly [RecordChange, RegExp][] = [
  ['created', /^(create|created|creation|new|add|added)$/],
  ['updated', /^(update|updated|change|changed|modified|modification|edit|edited)$/],
  ['deleted', /^(delete|deleted|deletion|remove|removed|removal|destroy|destroyed)$/],
];

/**
 * Which webhooks follow which writes, and which cannot be matched (and why). A webhook
 * follows the writes of a collection when (1) a word of its name, operationId or summary says
 * created, updated or deleted (camelCase, `pet.created` and `pet_created` split into words),
 * and (2) its payload is that collection's record: the payload's schema, or one of its
 * properties' (an envelope's `data`), is a schema the collection's operations answer with
 * (the same schema the document's `$ref`s name), else the collection's name, singular or
 * plural, is the word of the webhook's name next to the change (`newPet`, `pet.deleted`;
 * not `wallet_transaction_created`, which is a transaction's).
 * @example matchWebhooks(webhooksOf(doc), resources).triggers[0] // { webhook, resource: pets, change: 'created' }
 */
export function matchWebhooks(
  webhooks: readonly Operation[],
  resources: readonly Resource[],
): { triggers: WebhookTrigger[]; unmatched: { webhook: Operation; reason: string }[] } {
  const triggers: WebhookTrigger[] = [];
  const unmatched: { webhook: Operation; reason: string }[] = [];
  const answered = resources.map((resource) => ({ resource, schemas: answerSchemas(resource) }));
  for (const webhook of webhooks) {
    const named = wordsOf(`${webhook.path} ${webhook.operationId}`);
    const all = [...named, ...wordsOf(webhook.definition.summary ?? '')];
    const change = CHANGE_WORDS.find(([, pattern]) => all.some((word) => pattern.test(word)))?.[0];
    if (!change) {
      unmatched.push({
        webhook,
        reason: 'its name and summary say neither created, updated nor deleted',
      });
      continue;
    }
    const payload = payloadSchemaOf(webhook);
    const parts = payload ? [payload, ...Object.values(payload.properties ?? {})] : [];
    const pattern = CHANGE_WORDS.find(([one]) => one === change)?.[1];
    const beside = new Set(
      named.flatMap((word, i) => (pattern?.test(word) ? [named[i - 1], named[i + 1]] : [])),
    );
    const found =
      answered.find(({ schemas }) => parts.some((part) => schemas.has(part))) ??
      answered.find(({ resource }) => namesOf(resource).some((name) => beside.has(name)));
    if (!found) {
      unmatched.push({ webhook, reason: 'its payload is no collection’s record' });
      continue;
    }
    triggers.push({ webhook, resource: found.resource, change });
  }
  return { triggers, unmatched };
}

/** The JSON schema of what a webhook or callback sends, when it documents one. */
export function payloadSchemaOf(operation: Operation): SchemaObject | undefined {
  const content = operation.requestBody?.content;
  if (!content) return undefined;
  for (const [type, schema] of content) if (/json/.test(type)) return schema;
  return undefined;
}

/** The operations of a path item that is not under `paths` (a callback's, a webhook's). */
function pathItemOperations(
  document: OpenApiDocument,
  path: string,
  item: object,
  name: string,
): Operation[] {
  const operations = listOperations({
    ...document,
    paths: { [path]: item },
  } as OpenApiDocument);
  return operations.map((operation) =>
    operation.definition.operationId ? operation : { ...operation, operationId: name },
  );
}

/** The schemas a collection's operations answer with, and their properties' and items'. */
function answerSchemas(resource: Resource): Set<unknown> {
  const schemas = new Set<unknown>();
  for (const operation of resource.actions.keys()) {
    const schema = jsonSchemaOf(operation.responses[String(operation.successStatus)]);
    if (!schema) continue;
    schemas.add(schema);
    if ('items' in schema) schemas.add(schema.items);
    for (const property of Object.values(schema.properties ?? {})) {
      schemas.add(property);
      if (typeof property === 'object' && 'items' in property) schemas.add(property.items);
    }
  }
  schemas.add(resource.schema);
  return schemas;
}

/** Lower-case words: `newPet` and `pet.created` alike. */
function wordsOf(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The words a collection goes by: the last segment of its name, plural and singular. */
function namesOf(resource: Resource): string[] {
  const last =
    resource.name
      .split('/')
      .filter((part) => !part.startsWith('{'))
      .pop() ?? '';
  const name = wordsOf(last).at(-1);
  if (!name) return [];
  const singular = name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.replace(/s$/, '');
  return [...new Set([name, singular])];
}
