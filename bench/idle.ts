// GET throughput before and after the mock sits idle, as between the files of an end-to-end
// suite: the rate after the gap must stay within 0.85 of the rate before (issue 18).
import { setTimeout as sleep } from 'node:timers/promises';
import { measure } from './paired.js';
import { startMock } from './processes.js';
import { median, round } from './stats.js';

export interface IdleRow {
  gapSeconds: number;
  beforeRps: number;
  /** The rate of each second-long run after the gap, in order. */
  afterRps: number[];
  /** The median of the runs after the gap over the rate before it. */
  ratio: number;
}

export async function idle(gapSeconds: number): Promise<IdleRow> {
  const mock = await startMock({ seedCount: 10 });
  try {
    const run = async () =>
      (await measure(mock, { method: 'GET', connections: 10, seconds: 1 })).rps;
    for (let i = 0; i < 3; i++) await run(); // warm
    const before = median([await run(), await run(), await run()]);
    console.error(`  idle: ${Math.round(before)} GET/s, then ${gapSeconds} s without traffic`);
    await sleep(gapSeconds * 1000);
    const after: number[] = [];
    for (let i = 0; i < 5; i++) after.push(Math.round(await run()));
    const row = {
      gapSeconds,
      beforeRps: Math.round(before),
      afterRps: after,
      ratio: round(median(after) / before, 2),
    };
    console.error(`  after the gap: ${after.join(', ')} GET/s; ratio ${row.ratio}`);
    return row;
  } finally {
    await mock.stop();
  }
}
