// What a replica does when asked: opens Redis stores (one per prefix, each as a replica of a mock
// opens it) and reads and writes through them. Run in the test's process (`startReplicaHost`,
// replica.ts) or in a process of its own (replica-process.ts), for a replica that is killed.
import { openRedisStore, type RedisStore } from '../../src/store/redis-store.js';
import type { CollectionDescriptor } from '../../src/store/store.js';
import type { ReplicaRequest } from './replica.js';

const PETS: CollectionDescriptor = { name: 'pets', idProperty: 'id', idKind: 'integer' };

/** A replica's stores on one Redis, each request answered as its own connections answer it. */
export interface ReplicaHost {
  answer(request: ReplicaRequest): Promise<unknown>;
  /** Closes every store it opened. */
  close(): Promise<void>;
}

/**
 * The stores of one replica on `url`; the records it seeds hold `seededBy` (its name).
 * @example const host = replicaHost(url, process.pid); await host.answer({ id: 1, op: 'list', prefix });
 */
export function replicaHost(url: string, seededBy: number): ReplicaHost {
  const stores = new Map<string, RedisStore>();
  return {
    async answer(request) {
      if (request.op === 'open') {
        const store = await openRedisStore(url, {
          prefix: request.prefix,
          timeoutMs: 1000,
          claimLeaseMs: request.claimLeaseMs,
        });
        stores.set(request.prefix, store);
        // What a replica would serve its first request from.
        const seenAtOpen = (await store.collection(PETS).list()).length;
        // As the mock starts: only the opener that claimed the prefix seeds, then marks.
        if (!store.loaded) {
          for (let i = 0; i < request.seedCount; i++) {
            await store.collection(PETS).create({ name: `Seed ${i}`, seededBy });
            await new Promise((resolve) => setTimeout(resolve, request.seedDelayMs));
          }
          await store.markInitial();
        }
        return { loaded: store.loaded, seenAtOpen };
      }
      const store = stores.get(request.prefix);
      if (!store) throw new Error(`no store open on ${request.prefix}`);
      const pets = store.collection(PETS);
      switch (request.op) {
        case 'create':
          return pets.create(request.fields);
        case 'get':
          return pets.get(request.recordId);
        case 'list':
          return pets.list();
        case 'increment':
          return pets.update(request.recordId, (current) => ({
            ...current,
            visits: Number(current.visits) + 1,
          }));
        case 'reset':
          return store.reset();
        case 'close':
          stores.delete(request.prefix);
          return store.close();
      }
    },
    async close() {
      await Promise.all([...stores.values()].map((store) => store.close()));
      stores.clear();
    },
  };
}
