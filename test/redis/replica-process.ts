// A replica in a process of its own, for a replica that is killed: its stores (replica-host.ts)
// do what its parent asks over IPC. Started by `startReplicaProcess` (replica.ts).
import type { ReplicaReply, ReplicaRequest } from './replica.js';
import { replicaHost } from './replica-host.js';

const host = replicaHost(process.argv[2] ?? '', process.pid);
const send = (message: ReplicaReply) => process.send?.(message);

process.on('message', (request: ReplicaRequest) => {
  void host.answer(request).then(
    (value) => send({ id: request.id, ok: true, value: value ?? null }),
    (error: unknown) => send({ id: request.id, ok: false, error: describe(error) }),
  );
});
process.on('disconnect', () => {
  void host.close().finally(() => process.exit(0));
});

function describe(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}
