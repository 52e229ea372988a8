// Replicas for the tests, each with its own connections to Redis: in the test's process
// (startReplicaHost), or a process of its own (startReplicaProcess) for one that is killed. A
// replica opens a store per prefix; stores of one prefix in different replicas are replicas of
// one mock, as behind a load balancer.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RecordId, StoredRecord } from '../../src/store/store.js';
import { replicaHost } from './replica-host.js';

export interface OpenOptions {
  /** Records the store seeds when it claims the prefix (before it marks). @default 0 */
  seedCount?: number;
  /** A pause after each seeded record, so that others open while it seeds. @default 0 */
  seedDelayMs?: number;
  /** The seeding claim's lease. @default 15_000 */
  claimLeaseMs?: number;
}

export type ReplicaRequest = { id: number } & (
  | ({ op: 'open'; prefix: string } & Required<OpenOptions>)
  | { op: 'create'; prefix: string; fields: Record<string, unknown> }
  | { op: 'get'; prefix: string; recordId: RecordId }
  | { op: 'list'; prefix: string }
  | { op: 'increment'; prefix: string; recordId: RecordId }
  | { op: 'reset'; prefix: string }
  | { op: 'close'; prefix: string }
);

export type ReplicaReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string } };

type Request = ReplicaRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** An error a replica answered with, by its name and message. */
export class ReplicaError extends Error {
  constructor(error: { name: string; message: string }) {
    super(error.message);
    this.name = error.name;
  }
}

/** A store opened by a replica on one prefix. */
export interface Replica {
  /** Whether the store found the prefix seeded by another. */
  readonly loaded: boolean;
  /** How many records the store held once open, before it seeded any. */
  readonly seenAtOpen: number;
  /** The replica's id: what the records it seeds hold in `seededBy`. */
  readonly id: number | undefined;
  create(fields: Record<string, unknown>): Promise<StoredRecord>;
  get(id: RecordId): Promise<StoredRecord | null>;
  list(): Promise<StoredRecord[]>;
  /** Adds one to the `visits` of a record, through the store's update. */
  increment(id: RecordId): Promise<StoredRecord | null>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** A replica: it opens stores on one Redis. */
export interface ReplicaHandle {
  /** What the records it seeds hold in `seededBy` (a process's: its pid). */
  readonly id: number | undefined;
  /** Opens the store on `prefix`; resolves once it is open (and seeded, when it claimed it). */
  open(prefix: string, options?: OpenOptions): Promise<Replica>;
  /** Closes its stores (and ends its process). */
  stop(): Promise<void>;
}

export interface ReplicaProcess extends ReplicaHandle {
  /** Kills the process with SIGKILL, as a crash would. */
  kill(): Promise<void>;
}

/** A replica whose requests `ask` answers, opening its stores on its first `open`. */
function handleOf(
  id: number | undefined,
  ask: <T>(request: Request) => Promise<T>,
  stop: () => Promise<void>,
): ReplicaHandle {
  return {
    id,
    async open(prefix, options = {}) {
      const { loaded, seenAtOpen } = await ask<{ loaded: boolean; seenAtOpen: number }>({
        op: 'open',
        prefix,
        seedCount: options.seedCount ?? 0,
        seedDelayMs: options.seedDelayMs ?? 0,
        claimLeaseMs: options.claimLeaseMs ?? 15_000,
      });
      return {
        loaded,
        seenAtOpen,
        id,
        create: (fields) => ask({ op: 'create', prefix, fields }),
        get: (recordId) => ask({ op: 'get', prefix, recordId }),
        list: () => ask({ op: 'list', prefix }),
        increment: (recordId) => ask({ op: 'increment', prefix, recordId }),
        reset: () => ask({ op: 'reset', prefix }),
        close: () => ask({ op: 'close', prefix }),
      };
    },
    stop,
  };
}

/**
 * A replica in this process, with connections of its own: the records it seeds hold `id`.
 * @example const replica = await startReplicaHost(url, 1).open('team:');
 */
export function startReplicaHost(url: string, id: number): ReplicaHandle {
  const host = replicaHost(url, id);
  let next = 1;
  return handleOf(
    id,
    async <T>(request: Request) => (await host.answer({ ...request, id: next++ })) as T,
    () => host.close(),
  );
}

const SCRIPT = fileURLToPath(new URL('./replica-process.ts', import.meta.url));

/**
 * Starts a process that opens Redis stores on `url` when asked: for a replica that is killed.
 * @example const replica = await (await startReplicaProcess(url)).open('team:');
 */
export function startReplicaProcess(url: string): ReplicaProcess {
  const child = fork(SCRIPT, [url], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  let next = 1;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('message', (reply: ReplicaReply) => {
    const waiter = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.ok) waiter?.resolve(reply.value);
    else waiter?.reject(new ReplicaError(reply.error));
  });
  void exited.then(() => {
    for (const waiter of waiting.values()) waiter.reject(new Error('the replica process exited'));
    waiting.clear();
  });
  const ask = <T>(request: Request): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...request, id });
    });
  const end = async (how: () => void) => {
    if (child.exitCode === null && child.signalCode === null) how();
    await exited;
  };
  return {
    ...handleOf(child.pid, ask, () => end(() => child.connected && child.disconnect())),
    kill: () => end(() => child.kill('SIGKILL')),
  };
}
