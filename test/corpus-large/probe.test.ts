// The harness of `npm run test:corpus` tells each way a server can fail an operation apart,
// outlives a server that blocks its event loop or dies, and judges a run against its list of
// known failures both ways: a failure not listed fails, and so does a listed one that passes.
// A stand-in server (fixtures/fake-mock.mjs) misbehaves on purpose, one path per way.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { LargeDocument } from './documents.js';
import { judge, type KnownFailures } from './expectations.js';
import { probeDocument, type DocumentRun } from './probe.js';
import { slowCallsOf, summarize, tableOf } from './table.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

const documentOf = (slug: string, operations: number): LargeDocument => ({
  slug,
  title: slug,
  file: `${FIXTURES}${slug}.yaml`,
  format: 'openapi-3.0',
  openapi: '3.0.3',
  apiVersion: '1',
  bytes: 0,
  sha256: '',
  operations,
  source: { repository: 'none/none', commit: '', path: '', licencePath: '' },
  licence: {},
  licenceSha256: '',
});

const probe = (document: LargeDocument) =>
  probeDocument(document, {
    bin: `${FIXTURES}fake-mock.mjs`,
    cwd: FIXTURES,
    // A bound for what never answers at all: generous for what answers at once.
    callTimeoutMs: 4_000,
    // The fake mock, idle, answers at once: a blocked loop is told apart in a second, not three.
    aliveTimeoutMs: 1_000,
  });

const ALLOWED = 'cannot generate data valid against';

describe('the large corpus harness', () => {
  let runs: DocumentRun[];

  it(
    'tells answers, hangs, blocked loops, closed connections and crashes apart',
    { timeout: 180_000 },
    async () => {
      // Two documents with a fake mock each, probed at once: each waits out its own call bound
      // (the hang on a free loop, the blocked loop), and neither process sees the other.
      runs = await Promise.all([probe(documentOf('loop-free', 5)), probe(documentOf('dying', 4))]);
      const [loopFree, dying] = runs as [DocumentRun, DocumentRun];
      const outcomesOf = (run: DocumentRun) =>
        Object.fromEntries(
          run.calls.map((call) => [call.operation, `${call.outcome} ${call.status ?? ''}`.trim()]),
        );
      expect(outcomesOf(loopFree)).toEqual({
        'GET /ok': 'answered 200',
        'GET /stall': 'answered 200',
        'GET /fail': 'answered 500',
        'GET /unsatisfiable': 'answered 500',
        'GET /slow': 'hung',
      });
      expect(outcomesOf(dying)).toEqual({
        'GET /close': 'closed',
        'GET /block': 'blocked',
        'GET /crash': 'crashed',
        'GET /after': 'answered 404',
      });
      expect(loopFree.calls.find((call) => call.operation === 'GET /fail')?.detail).toBe('boom');
      expect(dying.calls.find((call) => call.operation === 'GET /crash')?.detail).toMatch(/code 3/);
      // Started again after the blocked loop and after the crash.
      expect(dying.restarts).toBe(2);
      expect(loopFree.restarts).toBe(0);
      for (const run of runs) {
        expect(run.cold?.ms).toBeGreaterThan(0);
        expect(run.warm?.ms).toBeGreaterThan(0);
      }
      // The stall probe waited through much of the 2.5 s turn of GET /stall: its first request
      // within the turn may leave late on a busy machine (one at a load of 17 waited 767 ms of 1.5 s).
      expect(Math.max(...(loopFree.stallsMs ?? []))).toBeGreaterThan(1_000);
      const table = tableOf(runs.map((run) => summarize(run, new RegExp(ALLOWED, 'i'))));
      // 5xx (named), hung (a blocked loop counts as hung), closed, crashed: a row each.
      expect(table).toMatch(/^\| loop-free \|.*\| 1 \(\+1 named\) \| 1 \| 0 \| 0 \|$/m);
      expect(table).toMatch(/^\| dying \|.*\| 0 \| 1 \| 1 \| 1 \|$/m);
      // The slow call is named, with its place in the run (others may be slow on a busy machine).
      expect(slowCallsOf(runs)).toContainEqual(
        expect.stringMatching(/^loop-free: GET \/stall \(call 2\): \d+ ms$/),
      );
    },
  );

  it('fails a failure not listed, passes one listed, and fails a listed one that now passes', () => {
    // Each operation listed under the document that has it.
    const slugOf = (operation: string) =>
      runs.find((run) => run.calls.some((call) => call.operation === operation))?.slug ?? '';
    const listed = (operations: Record<string, string>): KnownFailures => {
      const documents: KnownFailures['documents'] = Object.fromEntries(
        runs.map((run) => [run.slug, { operations: {} }]),
      );
      for (const [operation, failure] of Object.entries(operations)) {
        const entries = documents[slugOf(operation)]?.operations;
        if (entries) entries[operation] = { failure, reason: 'a reason' };
      }
      return { allowed5xx: { pattern: ALLOWED, reason: 'named' }, documents };
    };
    const bounds = { rssMb: 1024 };
    const failing = {
      'GET /fail': '5xx',
      'GET /slow': 'hung',
      'GET /close': 'closed',
      'GET /block': 'blocked',
      'GET /crash': 'crashed',
    };
    expect(judge(runs, listed(failing), bounds)).toEqual({
      unexpected: [],
      stale: [],
      changed: [],
      known: 5,
    });
    const withoutFail = Object.fromEntries(
      Object.entries(failing).filter(([operation]) => operation !== 'GET /fail'),
    );
    expect(judge(runs, listed(withoutFail), bounds).unexpected).toEqual([
      'loop-free: GET /fail: 5xx 500 boom',
    ]);
    const verdict = judge(runs, listed({ ...failing, 'GET /ok': '5xx' }), bounds);
    expect(verdict.stale).toEqual(['loop-free: GET /ok now answers 200']);
    expect(judge(runs, listed({ ...failing, 'GET /slow': 'closed' }), bounds).changed).toHaveLength(
      1,
    );
    // A flaky entry that passes is noted, not stale.
    const flaky = listed({ ...failing, 'GET /ok': '5xx' });
    const okEntry = flaky.documents['loop-free']?.operations?.['GET /ok'];
    if (okEntry) okEntry.flaky = true;
    expect(judge(runs, flaky, bounds)).toMatchObject({ stale: [], unexpected: [] });
    // A document listed as a whole: any failure of its operations is known (and the document's
    // own `operations` failure with them), while the other document's failures, not listed, fail.
    const wholesale = listed({});
    wholesale.documents.dying = { document: { operations: 'nearly all fail, for now' } };
    expect(judge(runs, wholesale, bounds)).toMatchObject({
      unexpected: [
        'loop-free: GET /fail: 5xx 500 boom',
        'loop-free: GET /slow: hung  no answer in 4000 ms',
      ],
      stale: [],
      known: 4,
    });
  });
});
