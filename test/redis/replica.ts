// Replicas for the tests: real processes, each with its own connection to Redis, sharing one
// prefix as replicas of a mock do.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RecordId, StoredRecord } from '../../src/store/store.js';

export type ReplicaRequest = { id: number } & (
  | { op: 'create'; fields: Record<string, unknown> }
  | { op: 'get'; recordId: RecordId }
  | { op: 'list' }
  | { op: 'increment'; recordId: RecordId }
  | { op: 'mark' }
  | { op: 'reset' }
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

export interface ReplicaOptions {
  /** Records the replica seeds when it claims the prefix (before it marks). @default 0 */
  seedCount?: number;
  /** A pause after each seeded record, so that others open while it seeds. @default 0 */
  seedDelayMs?: number;
  /** The seeding claim's lease. @default the store's */
  claimLeaseMs?: number;
}

export interface Replica {
  /** Whether its store found the prefix seeded by another. */
  readonly loaded: boolean;
  readonly pid: number | undefined;
  create(fields: Record<string, unknown>): Promise<StoredRecord>;
  get(id: RecordId): Promise<StoredRecord | null>;
  list(): Promise<StoredRecord[]>;
  /** Adds one to the `visits` of a record, through the store's update. */
  increment(id: RecordId): Promise<StoredRecord | undefined>;
  mark(): Promise<void>;
  reset(): Promise<void>;
  /** Kills the process with SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** Closes its store and ends it. */
  stop(): Promise<void>;
}

const SCRIPT = fileURLToPath(new URL('./replica-process.ts', import.meta.url));

/**
 * Starts a replica on the store under `prefix`; resolves once its store is open (and seeded,
 * when it claimed the prefix and `seedCount` asks for records).
 * @example const replica = await startReplica(redis.url, 'team:'); await replica.create({ name: 'Rex' });
 */
export async function startReplica(
  url: string,
  prefix: string,
  options: ReplicaOptions = {},
): Promise<Replica> {
  const child = fork(
    SCRIPT,
    [
      url,
      prefix,
      String(options.seedCount ?? 0),
      String(options.seedDelayMs ?? 0),
      String(options.claimLeaseMs ?? 15_000),
    ],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
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
    for (const waiter of waiting.values()) waiter.reject(new Error('the replica exited'));
    waiting.clear();
  });
  const opened = (await new Promise<unknown>((resolve, reject) =>
    waiting.set(0, { resolve, reject }),
  )) as { loaded: boolean };
  const ask = <T>(request: Request): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...request, id });
    });
  return {
    loaded: opened.loaded,
    pid: child.pid,
    create: (fields) => ask({ op: 'create', fields }),
    get: (recordId) => ask({ op: 'get', recordId }),
    list: () => ask({ op: 'list' }),
    increment: (recordId) => ask({ op: 'increment', recordId }),
    mark: () => ask({ op: 'mark' }),
    reset: () => ask({ op: 'reset' }),
    kill: () => end(child, exited, () => child.kill('SIGKILL')),
    stop: () => end(child, exited, () => child.connected && child.disconnect()),
  };
}

async function end(child: ChildProcess, exited: Promise<void>, how: () => void): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) how();
  await exited;
}
