import {
  StoreLostError,
  StoreNoScopesError,
  type StateBackend,
  type Store,
} from '../store/store.js';
import { errors } from '../vocabulary/error-catalogue.js';
import { createCoverageTally, type CoverageTally } from './admin/coverage.js';
import { createRequestLog, type LogBounds, type RequestLog } from './admin/request-log.js';
import { Scenarios, storedSettings, type ScenarioSettings } from './scenarios/settings.js';

/** What one state of the mock is: its records, its scenario settings and its request log. */
export interface MockState {
  store: Store;
  scenarios: Scenarios;
  requestLog: RequestLog;
  /**
   * How many requests each operation answered with each status since the last reset. Kept by
   * this process: on a store replicas share, each replica counts the requests it answered.
   */
  coverage: CoverageTally;
  /** The session it belongs to; undefined for the default state. */
  session?: string;
}

/** A session as the admin API lists it. */
interface SessionInfo {
  id: string;
  /** ISO 8601 times. */
  createdAt: string;
  lastUsedAt: string;
}

/** The bounds of sessions: how many at once, and how long an idle one is kept. */
export interface SessionLimits {
  /** The most sessions at once; past it, a new one is refused (503) until one is dropped or expires. */
  maxSessions: number;
  /** A session unused this long (milliseconds) is dropped to make room for a new one. */
  sessionTtl: number;
}

/**
 * The states of the mock: the default one, and one per session (a `Mock-Session` header), each
 * made on first use as a copy of the start-up data (the same records and ids), with scenario
 * settings and a request log of its own. All of it lives in the state backend (the store): on a
 * store several replicas share, a session is the same on every replica.
 */
export interface MockStates {
  readonly default: MockState;
  /** The coverage of every request of every state since the mock started: no reset clears it. */
  readonly run: CoverageTally;
  /**
   * The state of a session, made on first use.
   * @throws {ApiError} 503 when the mock holds its limit of sessions and none has expired.
   */
  session(id: string): Promise<MockState>;
  /** The state of a session that exists (on any replica), without making one. */
  existing(id: string): Promise<MockState | undefined>;
  list(): Promise<SessionInfo[]>;
  /** Forgets a session: its next use starts again from the start-up data. */
  drop(id: string): Promise<boolean>;
  /** Back to the start-up state: the records, the settings and an empty log. */
  reset(state: MockState): Promise<void>;
  /**
   * Runs `seed`, the seeding of one collection of `store`, unless one is under way, which it
   * then waits for: two first requests seed once, on either mock of a `--watch` reload (the
   * next mock takes these states over).
   */
  seedOnce(store: Store, collection: string, seed: () => Promise<void>): Promise<void>;
}

/** The sessions' usage is written to the store at most this often per session. */
const TOUCH_EVERY_MS = 1000;

/**
 * @param store the state backend: the default state's records, the sessions (its scopes) and
 * every state's settings and request log.
 */
export function createStates(options: {
  store: StateBackend;
  scenarios: ScenarioSettings;
  seed: number;
  limits: SessionLimits;
  /**
   * Seeds the start-up data again when a reset of the default state finds it lost from a
   * shared store (Redis restarted empty): a reset is the explicit act that may do so.
   */
  reseed?: () => Promise<void>;
  /**
   * The most the request logs of every state hold together.
   * @default DEFAULT_LOG_BOUNDS
   */
  logBounds?: LogBounds;
}): MockStates {
  const { store, limits } = options;
  const logOptions = options.logBounds ? { bounds: options.logBounds } : {};
  const run = createCoverageTally();
  const stateOf = (records: Store, session: string | undefined): MockState => {
    const side = store.sideData(session);
    return {
      store: records,
      scenarios: new Scenarios(storedSettings(side, options.scenarios), options.seed),
      requestLog: createRequestLog(side, logOptions),
      coverage: createCoverageTally(run),
      ...(session === undefined ? {} : { session }),
    };
  };
  const fallback: MockState = stateOf(store, undefined);
  const sessions = new Map<string, MockState>();
  /** The seedings under way, by store (the default state's or a session's) and collection. */
  const seedings = new WeakMap<Store, Map<string, Promise<void>>>();
  /** The sessions this process used, and when it last told the store so (at most every TOUCH_EVERY_MS). */
  const usage = new Map<string, { createdAt: number; lastUsedAt: number; touched: number }>();

  /** Makes room for a new session: expired ones are dropped; if none is, the new one is refused. */
  async function admit(id: string): Promise<void> {
    const known = await store.scopeUsage();
    if (known.some(({ name }) => name === id) || known.length < limits.maxSessions) return;
    const now = Date.now();
    const expired = known.filter(({ lastUsedAt }) => now - lastUsedAt >= limits.sessionTtl);
    for (const { name } of expired) await drop(name);
    if (known.length - expired.length < limits.maxSessions) return;
    const oldest = Math.min(...known.map(({ lastUsedAt }) => lastUsedAt));
    const wait = Math.max(1, Math.ceil((oldest + limits.sessionTtl - now) / 1000));
    throw errors.tooManySessions(limits.maxSessions, Math.round(limits.sessionTtl / 1000), wait);
  }

  async function touch(id: string): Promise<void> {
    const now = Date.now();
    const seen = usage.get(id);
    if (seen && now - seen.touched < TOUCH_EVERY_MS) {
      seen.lastUsedAt = now;
      return;
    }
    usage.set(id, { createdAt: seen?.createdAt ?? now, lastUsedAt: now, touched: now });
    await store.touchScope(id);
  }

  async function drop(id: string): Promise<boolean> {
    usage.delete(id);
    const state = sessions.get(id);
    sessions.delete(id);
    // The store forgets the scope's records, settings and log together.
    const held = await store.dropScope(id);
    state?.coverage.clear();
    return held;
  }

  async function session(id: string): Promise<MockState> {
    let state = sessions.get(id);
    if (!state || !usage.has(id)) {
      await admit(id);
      state = stateOf(store.scope(id), id);
      sessions.set(id, state);
    }
    await touch(id);
    return state;
  }

  return {
    default: fallback,
    run,
    async session(id) {
      try {
        return await session(id);
      } catch (error) {
        if (error instanceof StoreNoScopesError) throw errors.noSessions();
        throw error;
      }
    },
    async existing(id) {
      const known = sessions.get(id);
      if (known && usage.has(id)) return known;
      if (!(await store.scopeUsage()).some(({ name }) => name === id)) return undefined;
      const state = stateOf(store.scope(id), id);
      sessions.set(id, state);
      return state;
    },
    async list() {
      return (await store.scopeUsage())
        .sort((a, b) => a.createdAt - b.createdAt)
        .map(({ name, createdAt, lastUsedAt }) => ({
          id: name,
          createdAt: new Date(createdAt).toISOString(),
          lastUsedAt: new Date(lastUsedAt).toISOString(),
        }));
    },
    drop,
    async reset(state) {
      try {
        await state.store.reset();
      } catch (error) {
        if (!(error instanceof StoreLostError && options.reseed && state.session === undefined))
          throw error;
        await options.reseed();
      }
      await state.scenarios.reset();
      await state.requestLog.clear();
      state.coverage.clear();
    },
    seedOnce(records, collection, seed) {
      let underway = seedings.get(records);
      if (!underway) seedings.set(records, (underway = new Map()));
      let seeding = underway.get(collection);
      if (!seeding) {
        seeding = seed().finally(() => underway.delete(collection));
        underway.set(collection, seeding);
      }
      return seeding;
    },
  };
}
