// Replicas for the tests: real processes, each with its own connections to Redis. A process
// opens a store per prefix; stores of one prefix in different processes are replicas of one
// mock, as behind a load balancer.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RecordId, StoredRecord } from '../../src/store/store.js';

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

/** A store opened by a replica process on one prefix. */
export interface Replica {
  /** Whether the store found the prefix seeded by another. */
  readonly loaded: boolean;
  /** How many records the store held once open, before it seeded any. */
  readonly seenAtOpen: number;
  /** The process's id: what the records it seeds hold in `seededBy`. */
  readonly pid: number | undefined;
  create(fields: Record<string, unknown>): Promise<StoredRecord>;
  get(id: RecordId): Promise<StoredRecord | null>;
  list(): Promise<StoredRecord[]>;
  /** Adds one to the `visits` of a record, through the store's update. */
  increment(id: RecordId): Promise<StoredRecord | null>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface ReplicaProcess {
  readonly pid: number | undefined;
  /** Opens the store on `prefix`; resolves once it is open (and seeded, when it claimed it). */
  open(prefix: string, options?: OpenOptions): Promise<Replica>;
  /** Kills the process with SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** Closes its stores and ends it. */
  stop(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL('./replica-process.ts', import.meta.url));

/**
 * Starts a process that opens Redis stores on `url` when asked.
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
    pid: child.pid,
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
        pid: child.pid,
        create: (fields) => ask({ op: 'create', prefix, fields }),
        get: (recordId) => ask({ op: 'get', prefix, recordId }),
        list: () => ask({ op: 'list', prefix }),
        increment: (recordId) => ask({ op: 'increment', prefix, recordId }),
        reset: () => ask({ op: 'reset', prefix }),
        close: () => ask({ op: 'close', prefix }),
      };
    },
    kill: () => end(() => child.kill('SIGKILL')),
    stop: () => end(() => child.connected && child.disconnect()),
  };
}
