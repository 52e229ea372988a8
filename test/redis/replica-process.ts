// Replicas for the tests: a process of its own that opens Redis stores (one per prefix, each
// as a replica of a mock opens it) and does what its parent asks over IPC. Started by
// `startReplicaProcess` (replica.ts).
import { openRedisStore, type RedisStore } from '../../src/store/redis-store.js';
import type { CollectionDescriptor } from '../../src/store/store.js';
import type { ReplicaReply, ReplicaRequest } from './replica.js';

const url = process.argv[2] ?? '';
const send = (message: ReplicaReply) => process.send?.(message);
const stores = new Map<string, RedisStore>();

const PETS: CollectionDescriptor = { name: 'pets', idProperty: 'id', idKind: 'integer' };

process.on('message', (request: ReplicaRequest) => {
  void answer(request).then(
    (value) => send({ id: request.id, ok: true, value: value ?? null }),
    (error: unknown) => send({ id: request.id, ok: false, error: describe(error) }),
  );
});
process.on('disconnect', () => {
  void Promise.all([...stores.values()].map((store) => store.close())).finally(() =>
    process.exit(0),
  );
});

async function answer(request: ReplicaRequest): Promise<unknown> {
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
        await store.collection(PETS).create({ name: `Seed ${i}`, seededBy: process.pid });
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
}

function describe(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}
