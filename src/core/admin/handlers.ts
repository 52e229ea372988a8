import type { Operation } from '../../openapi/operations.js';
import type { SecurityScheme } from '../../openapi/security-schemes.js';
import type { Store } from '../../store/store.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { OperationHandler } from '../handler.js';
import type { ViolationLog } from '../proxy/violations.js';
import type { SettingsChange } from '../scenarios/settings.js';
import type { MockState, MockStates } from '../state.js';
import type { CollectionPart } from './collection-parts.js';
import { tallied } from './coverage.js';
import { LOG_CAPACITY, type RequestFilter } from './request-log.js';

/** A collection of the mocked API, as the admin API shows it. */
export interface AdminCollection {
  name: string;
  /** Where the mocked API serves it, base path included: `/v1/categories`. */
  path: string;
  /** Whether it is served under a parent's records (`/v1/owners/{ownerId}/pets`). */
  nested: boolean;
  /** Its records in a store: one part, or one per parent (collection-parts.ts). */
  parts(store: Store): Promise<CollectionPart[]>;
}

/** The mocked API whose coverage `GET /coverage` tells: its operations, under its base path. */
export interface CoveredApi {
  operations: readonly Operation[];
  basePath: string;
  /** The security schemes its spec declares: the table's rows by scheme. */
  schemes: ReadonlyMap<string, SecurityScheme>;
}

/** The webhooks the admin API lists and sends on demand (`/webhooks`). */
export interface WebhookControl {
  /** spec/admin.yaml's WebhookList. */
  list(): object;
  /**
   * Sends webhook `name` to every receiver now (`payload`, else one generated), logged in
   * `state`'s request log; spec/admin.yaml's Deliveries.
   * @throws {ApiError} 404 for a name the spec lacks, 409 when no receiver is subscribed.
   */
  send(name: string, payload: unknown, state: MockState): Promise<object>;
}

/** How many records `GET /collections/{name}` shows when no limit is asked for. */
const DEFAULT_RECORDS_SHOWN = 100;

/**
 * The handlers of the admin API (spec/admin.yaml), keyed by its operationIds. Each acts on the
 * state of the request's session (its `Mock-Session` header), else on the default state.
 * @param collections the collections inferred from the spec, in its order.
 * @param covered the mocked API's operations, for `GET /coverage`.
 * @example adminHandlers(states, collections).resetMock
 */
export function adminHandlers(
  states: MockStates,
  collections: readonly AdminCollection[] = [],
  covered: CoveredApi = { operations: [], basePath: '', schemes: new Map() },
  /** What a proxy saw break the spec; a mock has none to list. */
  violations?: ViolationLog,
  /** The webhooks of the spec; none: the spec declares none to send. */
  webhooks?: WebhookControl,
): Record<string, OperationHandler> {
  /** `session` reads that session's own log; without it, the log of the request's state. */
  const logOf = async (session: unknown, state: MockState) =>
    typeof session === 'string' ? (await states.existing(session))?.requestLog : state.requestLog;
  const collectionNamed = (name: string): AdminCollection => {
    const found = collections.find((collection) => collection.name === name);
    if (found) return found;
    throw errors.noCollection(
      name,
      collections.map((collection) => collection.name),
    );
  };
  return {
    async resetMock(_request, { state }) {
      await states.reset(state);
      return { status: 204 };
    },
    async listRequests({ query }, { state }) {
      const filter = requestFilterOf(query);
      const log = await logOf(filter.session, state);
      if (!log) return { status: 200, body: { count: 0, requests: [] } };
      return { status: 200, body: await log.list(filter) };
    },
    async getRequest({ params, query }, { state }) {
      const id = params.id as number;
      const entry = await (await logOf(query.session, state))?.get(id);
      if (!entry) throw errors.noLoggedRequest(id, LOG_CAPACITY);
      return { status: 200, body: entry };
    },
    async getSettings(_request, { state }) {
      return { status: 200, body: await state.scenarios.settings() };
    },
    async updateSettings({ body }, { state }) {
      return {
        status: 200,
        body: await state.scenarios.update(body as SettingsChange),
      };
    },
    getCoverage({ query }, { state }) {
      const tally = query.scope === 'run' ? states.run : state.coverage;
      return {
        status: 200,
        body: tallied(covered.operations, covered.basePath, covered.schemes, tally),
      };
    },
    async listSessions() {
      return { status: 200, body: { sessions: await states.list() } };
    },
    async dropSession({ params }) {
      const id = String(params.sessionId);
      if (!(await states.drop(id))) throw errors.noSuchSession(id);
      return { status: 204 };
    },
    async listCollections(_request, { store }) {
      const counted = await Promise.all(
        collections.map(async ({ name, path, nested, parts }) => {
          const held = (await parts(store)).filter(({ records }) => records.length > 0);
          const count = held.reduce((sum, { records }) => sum + records.length, 0);
          if (!nested) return { name, path, count };
          const parents = held.map((part) => ({ path: part.path, count: part.records.length }));
          return { name, path, count, parents };
        }),
      );
      return { status: 200, body: { collections: counted } };
    },
    listViolations() {
      return { status: 200, body: violations?.list() ?? { count: 0, violations: [] } };
    },
    listWebhooks() {
      return { status: 200, body: webhooks?.list() ?? { webhooks: [], receivers: [] } };
    },
    async sendWebhook({ params, body }, { state }) {
      const name = String(params.name);
      if (!webhooks) throw errors.noWebhook(name, []);
      return { status: 200, body: await webhooks.send(name, body, state) };
    },
    clearViolations() {
      violations?.clear();
      return { status: 204 };
    },
    async getCollection({ params, query }, { store }) {
      const { name, path, parts } = collectionNamed(params.name as string);
      const records = (await parts(store)).flatMap((part) => part.records);
      const limit = typeof query.limit === 'number' ? query.limit : DEFAULT_RECORDS_SHOWN;
      return {
        status: 200,
        body: {
          name,
          path,
          count: records.length,
          // The newest first: what a person watching their app just made.
          records: records.slice(-limit).reverse(),
        },
      };
    },
  };
}

/** The filter of `GET /__mock/requests` from its query, checked by the admin spec already. */
function requestFilterOf(query: Record<string, unknown>): RequestFilter {
  const text = (name: string) =>
    typeof query[name] === 'string' ? (query[name] as string) : undefined;
  const since = text('since');
  return {
    ...(typeof query.limit === 'number' ? { limit: query.limit } : {}),
    ...(text('method') ? { method: text('method') } : {}),
    ...(text('path') ? { path: text('path') } : {}),
    ...(query.status !== undefined ? { status: String(query.status) } : {}),
    ...(text('session') ? { session: text('session') } : {}),
    ...(since ? { since: Date.parse(since) } : {}),
    ...(query.view === 'summary' ? { view: 'summary' as const } : {}),
    ...(query.direction === 'incoming' || query.direction === 'outgoing'
      ? { direction: query.direction }
      : {}),
  };
}
