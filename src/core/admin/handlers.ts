import { errors } from '../../vocabulary/error-catalogue.js';
import type { OperationHandler } from '../handler.js';
import type { ScenarioSettings } from '../scenarios/settings.js';
import type { MockStates } from '../state.js';
import type { RequestFilter } from './request-log.js';

/**
 * The handlers of the admin API (spec/admin.yaml), keyed by its operationIds. Each acts on the
 * state of the request's session (its `Mock-Session` header), else on the default state.
 * @example adminHandlers(states).resetMock
 */
export function adminHandlers(states: MockStates): Record<string, OperationHandler> {
  return {
    async resetMock(_request, { state }) {
      await states.reset(state);
      return { status: 204 };
    },
    async listRequests({ query }, { state }) {
      const filter = requestFilterOf(query);
      // `session` reads that session's own log; without it, the log of the request's state.
      const asked = filter.session ? await states.existing(filter.session) : state;
      if (!asked) return { status: 200, body: { count: 0, requests: [] } };
      return { status: 200, body: await asked.requestLog.list(filter) };
    },
    async getSettings(_request, { state }) {
      return { status: 200, body: await state.scenarios.settings() };
    },
    async updateSettings({ body }, { state }) {
      return {
        status: 200,
        body: await state.scenarios.update(body as Partial<ScenarioSettings>),
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
