// Small requests sent on a fixed schedule (an open loop): a request that waits behind a long
// list counts from when it was due, so a stalled server cannot hide its stall by delaying the
// next request, as a closed loop of back-to-back requests would let it.
import { keepAlive, send } from './http-client.js';
import { latencyOf, type Latency } from './stats.js';

export interface Target {
  name: string;
  method: 'GET' | 'POST';
  /** Under the server's base URL. */
  path: string;
  body?: string;
  /** The status every answer must have. */
  status: number;
}

export type TargetLatency = Latency & { failed: number };

/** Sends one request every `intervalMs`, cycling through `targets`, for `seconds`. */
export async function openLoop(
  url: string,
  targets: readonly Target[],
  seconds: number,
  intervalMs = 10,
): Promise<Record<string, TargetLatency>> {
  const agent = keepAlive();
  const samples = targets.map((): number[] => []);
  const failed = targets.map(() => 0);
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i * intervalMs < seconds * 1000; i++) {
    const due = start + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const k = i % targets.length;
    const target = targets[k]!;
    inFlight.push(
      send(agent, `${url}${target.path}`, target).then(
        ({ status }) => {
          if (status === target.status) samples[k]!.push(performance.now() - due);
          else failed[k]!++;
        },
        () => void failed[k]!++,
      ),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  return Object.fromEntries(
    targets.map((target, k) => [target.name, { ...latencyOf(samples[k]!), failed: failed[k]! }]),
  );
}
