// The scenario stage: what the request's `Prefer` header and its state's settings ask the mock
// to play (a forced answer, a delay, a network fault).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Operation } from '../../openapi/operations.js';
import type { Reply } from '../../vocabulary/answer.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { MockRequest } from '../../vocabulary/request.js';
import type { Exchange, OperationRoute, ScenarioHooks } from '../mock-core.js';
import { readPreferences, type FaultKind, type Preferences } from '../scenarios/prefer.js';
import type { MockState } from '../state.js';
import type { ScenarioSettings } from '../scenarios/settings.js';

/** The preferences of a request that asks for nothing, on a state that forces nothing. */
export const NO_PREFERENCES: Preferences = Object.freeze({});

/**
 * The scenario stage: the stream the request asks for, of those its operation documents, then
 * the scenarios it and its state ask its API to play (see settle). A promise only when the API
 * plays scenarios (the admin API plays none).
 * @throws {ApiError} 501 for an operation with no handler.
 * @returns the fault to play instead of an answer, after the delay; undefined to go on.
 */
export function playScenarios(
  request: MockRequest,
  { api, operation }: OperationRoute,
  exchange: Exchange,
): Promise<Reply | undefined> | undefined {
  // An operation with no handler is a 501 before any scenario plays, as it always was.
  if (!api.handlers.has(operation)) throw errors.notImplemented(operation.operationId);
  // An API whose operations document no stream has nothing to ask here.
  exchange.streamed = api.streams?.asked(request, operation, exchange.valid?.body);
  const hooks = api.scenarios;
  const { state } = exchange;
  return hooks && state
    ? settle(request, operation, hooks, state, !!exchange.streamed, exchange)
    : undefined;
}

/**
 * Settles the request's preferences (its own, and the state's force over them), delay and
 * any stream cut on `exchange`.
 * @param streamed whether the answer is a stream, which a fault with `after` cuts, not replaces.
 * @returns the fault to play instead of an answer, after the delay; undefined to go on.
 */
function settle(
  request: MockRequest,
  operation: Operation,
  hooks: ScenarioHooks,
  state: MockState,
  streamed: boolean,
  exchange: Exchange,
): Promise<Reply | undefined> | undefined {
  const preferences =
    request.headers.prefer === undefined ? NO_PREFERENCES : readPreferences(request, operation);
  exchange.preferences = preferences;
  // The request's own, not a force's: a test's force does not delay its client's callbacks.
  exchange.callbackDelay = preferences.callbackDelay;
  // Settings known at once and no force to take: nothing awaited (an await per request saved).
  const known = state.scenarios.knownSettings();
  if (!known || known.force)
    return settled(request, operation, hooks, state, streamed, exchange, preferences);
  return drawn(known, operation, hooks, state, streamed, exchange, preferences);
}

/** settle, its settings read from the store (a shared one's), the state's force taken. */
async function settled(
  request: MockRequest,
  operation: Operation,
  hooks: ScenarioHooks,
  state: MockState,
  streamed: boolean,
  exchange: Exchange,
  asked: Preferences,
): Promise<Reply | undefined> {
  let preferences = asked;
  const settings = await state.scenarios.settings();
  // The state's force is what a Prefer header would ask, over the request's own.
  const forced = settings.force && (await state.scenarios.takeForced(operation));
  if (forced) preferences = { ...preferences, ...forced };
  exchange.preferences = preferences;
  return drawn(settings, operation, hooks, state, streamed, exchange, preferences);
}

/** The delay and the fault the settings draw for the request, the fault then played. */
function drawn(
  settings: ScenarioSettings,
  operation: Operation,
  hooks: ScenarioHooks,
  state: MockState,
  streamed: boolean,
  exchange: Exchange,
  preferences: Preferences,
): Promise<Reply | undefined> | undefined {
  exchange.delayMs = state.scenarios.delayFor(settings, preferences);
  const fault = state.scenarios.faultFor(settings, preferences);
  return fault ? played(operation, hooks, streamed, exchange, preferences, fault) : undefined;
}

/** The fault settled on, after the delay; undefined when it cuts the stream asked for instead. */
async function played(
  operation: Operation,
  hooks: ScenarioHooks,
  streamed: boolean,
  exchange: Exchange,
  preferences: Preferences,
  fault: FaultKind,
): Promise<Reply | undefined> {
  // `Prefer: fault=reset; after=2` breaks a stream after its second event, not before it.
  if (streamed && preferences.after !== undefined) {
    exchange.cut = { kind: fault, after: preferences.after, holdMs: hooks.faultTimeoutMs };
    return undefined;
  }
  const delay = exchange.delayMs ?? 0;
  if (delay > 0) await sleep(delay);
  return {
    fault: {
      kind: fault,
      holdMs: hooks.faultTimeoutMs,
      status: operation.successStatus,
      body: hooks.sample(operation),
    },
  };
}
