import type { CollectionDescriptor } from '../../store/store.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { OperationHandler } from '../handler.js';
import type { ScenarioSettings, Scenarios } from '../scenarios/settings.js';
import type { RequestFilter, RequestLog } from './request-log.js';

/** A collection of the mocked API, as the admin API shows it. */
export interface AdminCollection {
  descriptor: CollectionDescriptor;
  /** Where the mocked API serves it, base path included: `/v1/categories`. */
  path: string;
}

export interface AdminOptions {
  /** Restores the start-up state of the mock: its data, its scenario settings, its request log. */
  reset(): Promise<void>;
  requests: RequestLog;
  scenarios: Scenarios;
  /** The collections inferred from the spec, in its order. */
  collections: readonly AdminCollection[];
}

/** How many records `GET /collections/{name}` shows when no limit is asked for. */
const DEFAULT_RECORDS_SHOWN = 100;

/**
 * The handlers of the admin API (spec/admin.yaml), keyed by its operationIds. The collections
 * are read from the store of the request's context: the state the request is served from.
 * @example adminHandlers({ reset: () => store.reset(), requests: log, scenarios, collections }).resetMock
 */
export function adminHandlers(options: AdminOptions): Record<string, OperationHandler> {
  const collectionNamed = (name: string): AdminCollection => {
    const found = options.collections.find(({ descriptor }) => descriptor.name === name);
    if (found) return found;
    throw errors.noCollection(
      name,
      options.collections.map(({ descriptor }) => descriptor.name),
    );
  };
  return {
    async resetMock() {
      await options.reset();
      return { status: 204 };
    },
    listRequests({ query }) {
      return { status: 200, body: options.requests.list(requestFilterOf(query)) };
    },
    getRequest({ params }) {
      const id = params.id as number;
      const entry = options.requests.get(id);
      if (!entry) throw errors.noLoggedRequest(id, options.requests.capacity);
      return { status: 200, body: entry };
    },
    getSettings() {
      return { status: 200, body: options.scenarios.settings };
    },
    updateSettings({ body }) {
      return { status: 200, body: options.scenarios.update(body as Partial<ScenarioSettings>) };
    },
    async listCollections(_request, { store }) {
      const collections = await Promise.all(
        options.collections.map(async ({ descriptor, path }) => ({
          name: descriptor.name,
          path,
          count: (await store.collection(descriptor).list()).length,
        })),
      );
      return { status: 200, body: { collections } };
    },
    async getCollection({ params, query }, { store }) {
      const { descriptor, path } = collectionNamed(params.name as string);
      const records = await store.collection(descriptor).list();
      const limit = typeof query.limit === 'number' ? query.limit : DEFAULT_RECORDS_SHOWN;
      return {
        status: 200,
        body: {
          name: descriptor.name,
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
  };
}
