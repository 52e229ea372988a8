// What the states of one Redis store (its main state and its scopes) share, and how each
// names its keys. See redis-scripts.ts for what lives under them.
import type { Redis } from 'ioredis';
import type { LoadedScripts } from './redis-connection.js';
import type { Script } from './redis-scripts.js';
import type { StoreLimits } from './store.js';

/** What a failed operation tells its caller to wait: Redis is back within seconds or not soon. */
export const RETRY_AFTER_SECONDS = 1;

/** What the states of one store share: the connection and the settings. */
export interface Shared {
  readonly client: Redis;
  readonly url: string;
  readonly scripts: LoadedScripts;
  readonly limits: StoreLimits;
  readonly prefix: string;
  readonly timeoutMs: number;
  /** Names this opener's seeding claim. */
  readonly token: string;
  readonly claimLeaseMs: number;
  /** Set by `close`: operations after it are refused. */
  closed: boolean;
  /**
   * The generation of the start-up data this store serves, as Redis named it when it was
   * marked; empty until then (a store that seeds). Every guarded script refuses another.
   */
  epoch: string;
  /** The update under way for each record, so that this process's updates of one record queue. */
  readonly updating: Map<string, Promise<unknown>>;
  /** The spec served, as the prefix keeps it (empty: none to compare). */
  readonly spec: { readonly hash: string; readonly label: string };
}

export interface StateKeys {
  /** The namespace of the state's keys. */
  state: string;
  /** The namespace of the start-up mark's keys. */
  mark: string;
  /** The set of the names of the scopes that hold a state. */
  scopes: string;
  /** The seeding claim: the token of the opener that seeds, while it does. */
  claim: string;
  /** The generation of the marked start-up data. */
  epoch: string;
  /** The generations an explicit re-seed replaced: their replicas serve the new one. */
  superseded: string;
  /** The generation a replica found gone: set until someone seeds again. */
  lost: string;
  /** The hash (`hash`, `label`) of the spec the prefix serves. */
  spec: string;
  /** The namespace of the main state's keys. */
  main: string;
  /** What the scopes hold beyond the mark, all together (see redis-scripts.ts). */
  room: string;
  /** Every entry of every state's lists, oldest first (see redis-log-scripts.ts). */
  logOrder: string;
  /** How many entries, and bytes, every state's lists hold together. */
  logTotals: string;
}

export function keysOf(prefix: string, scopeName: string): StateKeys {
  return {
    state: scopeName ? `${prefix}scope:${encodeURIComponent(scopeName)}:` : `${prefix}main:`,
    mark: `${prefix}mark:`,
    scopes: `${prefix}scopes`,
    claim: `${prefix}claim`,
    epoch: `${prefix}epoch`,
    superseded: `${prefix}superseded`,
    lost: `${prefix}lost`,
    spec: `${prefix}spec`,
    main: `${prefix}main:`,
    room: `${prefix}room`,
    logOrder: `${prefix}log:order`,
    logTotals: `${prefix}log:totals`,
  };
}

/** What a state's collections and side data use of it. */
export interface StateAccess {
  /** The keys every script of this state gets. */
  readonly keys: StateKeys;
  readonly settings: Shared;
  /** Runs a script on this state, within the request's store time (see RedisState.run). */
  run(script: Script, args: readonly (string | number)[], kind: 'read' | 'write'): Promise<unknown>;
  /** Runs plain commands, their failures told as a script's are. */
  command<T>(kind: 'read' | 'write', run: (client: Redis) => Promise<T>): Promise<T>;
}
