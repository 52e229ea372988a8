// Issue 17's HTTP-level rows: creates and lists per second with --redis, on one replica and on
// two behind one load generator (its connections spread over both), against the memory store.
// On this 2-core machine Redis, the replicas and the load generator share the cores: the rows
// tell what Redis costs per request, not what a team's deployment on several machines does.
import { checked, load } from './load.js';
import { ROUNDS, SECONDS } from './paired.js';
import { startMock, type ServerProcess } from './processes.js';
import { median } from './stats.js';
import { findRedisServer } from '../test/redis/find-redis.js';
import { startRedisServer } from '../test/redis/redis-server.js';

export interface ReplicaRow {
  scenario: string;
  /** Requests per second, the median of the rounds. */
  memory: number;
  redisOne: number;
  redisTwo: number;
}

export type ReplicasBench = { skipped: string } | { rows: ReplicaRow[] };

const CONNECTIONS = 20;

export async function replicas(): Promise<ReplicasBench> {
  const lookup = findRedisServer(process.env);
  if (!lookup.found) return { skipped: `redis-server not found (${lookup.why})` };
  const redis = await startRedisServer();
  const rows: ReplicaRow[] = [];
  try {
    for (const method of ['POST', 'GET'] as const) {
      const prefix = `bench-${method}:`;
      const args = ['--redis', redis.url, '--redis-prefix', prefix];
      const memory = await startMock({ seedCount: 10, pinned: false });
      const one = await startMock({ seedCount: 10, pinned: false, args });
      const other = await startMock({ seedCount: 10, pinned: false, args });
      const targets: Record<'memory' | 'redisOne' | 'redisTwo', ServerProcess[]> = {
        memory: [memory],
        redisOne: [one],
        redisTwo: [one, other],
      };
      const rates: Record<keyof typeof targets, number[]> = {
        memory: [],
        redisOne: [],
        redisTwo: [],
      };
      for (let round = 0; round < ROUNDS; round++) {
        const order = Object.keys(targets) as (keyof typeof targets)[];
        if (round % 2) order.reverse();
        for (const kind of order) {
          const result = checked(
            await load({
              url: targets[kind].map((server) => server.url),
              method,
              connections: CONNECTIONS,
              seconds: SECONDS,
            }),
          );
          rates[kind].push(result.rps);
        }
      }
      await Promise.all([memory.stop(), one.stop(), other.stop()]);
      const row = {
        scenario: method === 'POST' ? 'create' : 'list (10 categories, growing)',
        memory: Math.round(median(rates.memory)),
        redisOne: Math.round(median(rates.redisOne)),
        redisTwo: Math.round(median(rates.redisTwo)),
      };
      console.error(
        `  ${row.scenario}: memory ${row.memory}/s, redis ${row.redisOne}/s (1 replica), ${row.redisTwo}/s (2)`,
      );
      rows.push(row);
    }
  } finally {
    await redis.stop();
  }
  return { rows };
}
