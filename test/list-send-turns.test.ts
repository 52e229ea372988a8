import { stat } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTurnBudget } from '../src/core/turn-budget.js';

/** Calls `asked` from an I/O callback (the poll phase, where a client's drain wakes a list). */
function fromIo(asked: () => void): Promise<void> {
  return new Promise((resolve, reject) =>
    stat('.', (err) => {
      if (err) return reject(err);
      asked();
      resolve();
    }),
  );
}

describe('the turn budget that lists are sent in', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs a slice woken by I/O after that I/O, in the check phase, even with budget left', async () => {
    // Run at once, in the poll phase, it came ahead of the requests read in the same phase, on
    // top of the check phase's own budget: a turn held twice the budget of slices.
    const budget = createTurnBudget(1_000);
    const order: string[] = [];
    let ran!: Promise<void>;
    await fromIo(() => {
      ran = budget.slice().then((done) => {
        order.push('slice');
        done();
      });
      // The microtasks of this I/O callback: what a request read in the same phase runs in.
      queueMicrotask(() => order.push('the I/O callback and its microtasks'));
    });
    await ran;
    expect(order).toEqual(['the I/O callback and its microtasks', 'slice']);
  });

  it('gives each turn its whole budget once, and the slices it has no time for to the next, in order', async () => {
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    const budget = createTurnBudget(10);
    const runs: { name: string; turn: number }[] = [];
    let turn = 0;
    // Counts the check phases: queued before any slice is asked for, it runs ahead of them.
    let counting = true;
    const count = (): void => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const work = async (name: string, cost: number, times: number) => {
      for (let i = 0; i < times; i++) {
        await new Promise<void>((resolve) => void fromIo(resolve));
        const done = await budget.slice();
        runs.push({ name, turn });
        clock += cost;
        done();
      }
    };
    await Promise.all([work('a', 6, 5), work('b', 6, 5), work('c', 6, 5)]);
    counting = false;
    expect(runs).toHaveLength(15);
    const perTurn = new Map<number, number>();
    for (const run of runs) perTurn.set(run.turn, (perTurn.get(run.turn) ?? 0) + 6);
    // At most the budget, and the slice that crossed it: two slices of 6 for a budget of 10.
    for (const used of perTurn.values()) expect(used).toBeLessThanOrEqual(12);
    // Every consumer was served, none starved by the others.
    for (const name of ['a', 'b', 'c'])
      expect(runs.filter((run) => run.name === name)).toHaveLength(5);
  });
});
