// Loaded into a server under test with `--import tsx --import bench/probe.ts`: it answers the
// bench over the IPC channel with what only the process itself can see (its heap, how late its
// event loop runs, a CPU profile of one phase), so that src/ needs no hook for the bench.
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ProbeAnswers, ProbeRequest } from './probe-messages.js';

if (process.send) {
  // The channel must not keep a server alive that was asked to stop.
  process.channel?.unref();
  // 1 ms: a request that waits behind a list waits at least as long as the loop is late.
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let session: Session | undefined;
  const gc = (globalThis as { gc?: () => void }).gc;
  const ms = (nanoseconds: number) => Math.round(nanoseconds / 1e4) / 100;

  // The main thread's time on a core and time waiting for one, in ns, from the scheduler:
  // it tells a loop held by the server's own work from a server that had no core to run on.
  const schedstat = `/proc/self/task/${process.pid}/schedstat`;
  const sched = (): [number, number] | undefined => {
    try {
      const [onCpu, waiting] = readFileSync(schedstat, 'utf8').split(' ').map(Number);
      return [onCpu!, waiting!];
    } catch {
      return undefined;
    }
  };
  let turns:
    | {
        timer: NodeJS.Timeout;
        first: [number, number];
        last: [number, number];
        started: number;
        cpu: NodeJS.CpuUsage;
        longest: number;
      }
    | undefined;
  const startTurns = () => {
    const first = sched();
    if (!first) return;
    turns = {
      first,
      last: first,
      started: performance.now(),
      cpu: process.cpuUsage(),
      longest: 0,
      timer: setInterval(() => {
        const now = sched();
        if (!now || !turns) return;
        turns.longest = Math.max(turns.longest, now[0] - turns.last[0]);
        turns.last = now;
      }, 1),
    };
  };
  const stopTurns = () => {
    if (!turns) return {};
    clearInterval(turns.timer);
    const last = sched() ?? turns.last;
    const { user, system } = process.cpuUsage(turns.cpu);
    const wall = (performance.now() - turns.started) * 1e6;
    const share = (nanoseconds: number) => Math.round((nanoseconds / wall) * 1000) / 1000;
    const main = last[0] - turns.first[0];
    const report = {
      longestTurnCpu: ms(turns.longest),
      runQueueShare: share(last[1] - turns.first[1]),
      mainThreadShare: share(main),
      // GC helpers above all: with the server pinned to one core, they take it from the loop.
      otherThreadsShare: share(Math.max(0, (user + system) * 1000 - main)),
    };
    turns = undefined;
    return report;
  };

  const answer = async (request: ProbeRequest): Promise<ProbeAnswers[ProbeRequest['type']]> => {
    switch (request.type) {
      case 'memory': {
        if (request.gc && gc) {
          gc();
          gc();
        }
        const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
        const spaces = Object.fromEntries(
          getHeapSpaceStatistics().map((space) => [
            space.space_name,
            { size: space.space_size, used: space.space_used_size },
          ]),
        );
        return { rss, heapUsed, heapTotal, external, arrayBuffers, spaces };
      }
      case 'delay-start':
        delay.reset();
        delay.enable();
        startTurns();
        return null;
      case 'delay-stop':
        delay.disable();
        return {
          p50: ms(delay.percentile(50)),
          p99: ms(delay.percentile(99)),
          max: ms(delay.max),
          ...stopTurns(),
        };
      case 'profile-start':
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
        return null;
      case 'profile-stop': {
        if (!session) throw new Error('no profile was started');
        const { profile } = await session.post('Profiler.stop');
        session.disconnect();
        session = undefined;
        await writeFile(request.path, JSON.stringify(profile));
        return null;
      }
    }
  };

  process.on('message', (message: { id: number } & ProbeRequest) => {
    void answer(message).then(
      (value) => process.send?.({ id: message.id, value }),
      (err: unknown) => process.send?.({ id: message.id, error: String(err) }),
    );
  });
}
