import type { OperationHandler } from '../handler.js';
import type { ScenarioSettings, Scenarios } from '../scenarios/settings.js';
import type { RequestLog } from './request-log.js';

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
      const limit = typeof query.limit === 'number' ? query.limit : undefined;
      return { status: 200, body: options.requests.list(limit) };
    },
    getSettings() {
      return { status: 200, body: options.scenarios.settings };
    },
    updateSettings({ body }) {
      return { status: 200, body: options.scenarios.update(body as Partial<ScenarioSettings>) };
    },
  };
}
