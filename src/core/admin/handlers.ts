import type { OperationHandler } from '../handler.js';
import type { ScenarioSettings, Scenarios } from '../scenarios/settings.js';
import type { RequestFilter, RequestLog } from './request-log.js';

export interface AdminOptions {
  /** Restores the start-up state of the mock: its data, its scenario settings, its request log. */
  reset(): Promise<void>;
  requests: RequestLog;
  scenarios: Scenarios;
}

/**
 * The handlers of the admin API (spec/admin.yaml), keyed by its operationIds.
 * @example adminHandlers({ reset: () => store.reset(), requests: log }).resetMock
 */
export function adminHandlers(options: AdminOptions): Record<string, OperationHandler> {
  return {
    async resetMock() {
      await options.reset();
      return { status: 204 };
    },
    listRequests({ query }) {
      return { status: 200, body: options.requests.list(requestFilterOf(query)) };
    },
    getSettings() {
      return { status: 200, body: options.scenarios.settings };
    },
    updateSettings({ body }) {
      return { status: 200, body: options.scenarios.update(body as Partial<ScenarioSettings>) };
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
  };
}
