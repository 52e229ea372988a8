// A replica for the tests: a process of its own that opens the Redis store and does what its
// parent asks over IPC. Started by `startReplica` (replica.ts).
import { openRedisStore, type RedisStore } from '../../src/store/redis-store.js';
import type { CollectionDescriptor, RecordId } from '../../src/store/store.js';
import type { ReplicaReply, ReplicaRequest } from './replica.js';

const [url = '', prefix = '', seedCount = '0', seedDelayMs = '0', leaseMs = '15000'] =
  process.argv.slice(2);
const send = (message: ReplicaReply) => process.send?.(message);

const PETS: CollectionDescriptor = { name: 'pets', idProperty: 'id', idKind: 'integer' };

let store: RedisStore;
try {
  store = await openRedisStore(url, { prefix, timeoutMs: 1000, claimLeaseMs: Number(leaseMs) });
  // As the mock starts: only the opener that claimed the prefix seeds, then marks.
  if (!store.loaded) {
    for (let i = 0; i < Number(seedCount); i++) {
      await store.collection(PETS).create({ name: `Seed ${i}`, seededBy: process.pid });
      await new Promise((resolve) => setTimeout(resolve, Number(seedDelayMs)));
    }
    await store.markInitial();
  }
  send({ id: 0, ok: true, value: { loaded: store.loaded } });
} catch (error) {
  send({ id: 0, ok: false, error: describe(error) });
  process.exit(1);
}

process.on('message', (request: ReplicaRequest) => {
  void answer(request).then(
    (value) => send({ id: request.id, ok: true, value }),
    (error: unknown) => send({ id: request.id, ok: false, error: describe(error) }),
  );
});
process.on('disconnect', () => void store.close().finally(() => process.exit(0)));

async function answer(request: ReplicaRequest): Promise<unknown> {
  const pets = store.collection(PETS);
  switch (request.op) {
    case 'create':
      return pets.create(request.fields);
    case 'get':
      return (await pets.get(request.recordId)) ?? null;
    case 'list':
      return pets.list();
    case 'increment':
      return pets.update(request.recordId, (current) => ({
        ...current,
        visits: Number(current.visits) + 1,
      }));
    case 'mark':
      return store.markInitial();
    case 'reset':
      return store.reset();
  }
}

function describe(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}

export type { RecordId };
