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

const DOCUMENT: LargeDocument = {
  slug: 'misbehaving',
  title: 'Misbehaving',
  file: `${FIXTURES}misbehaving.yaml`,
  format: 'openapi-3.0',
  openapi: '3.0.3',
  apiVersion: '1',
  bytes: 0,
  sha256: '',
  operations: 9,
  source: { repository: 'none/none', commit: '', path: '', licencePath: '' },
  licence: {},
  licenceSha256: '',
};

const ALLOWED = 'cannot generate data valid against';

describe('the large corpus harness', () => {
  let run: DocumentRun;

  it(
    'tells answers, hangs, blocked loops, closed connections and crashes apart',
    { timeout: 180_000 },
    async () => {
      run = await probeDocument(DOCUMENT, {
        bin: `${FIXTURES}fake-mock.mjs`,
        cwd: FIXTURES,
        // A bound for what never answers at all: generous for what answers at once.
        callTimeoutMs: 4_000,
        // The fake mock, idle, answers at once: a blocked loop is told apart in a second, not three.
        aliveTimeoutMs: 1_000,
      });
      const outcomes = Object.fromEntries(
        run.calls.map((call) => [call.operation, `${call.outcome} ${call.status ?? ''}`.trim()]),
      );
      expect(outcomes).toEqual({
        'GET /ok': 'answered 200',
        'GET /stall': 'answered 200',
        'GET /fail': 'answered 500',
        'GET /unsatisfiable': 'answered 500',
        'GET /slow': 'hung',
        'GET /close': 'closed',
        'GET /block': 'blocked',
        'GET /crash': 'crashed',
        'GET /after': 'answered 404',
      });
      expect(run.calls.find((call) => call.operation === 'GET /fail')?.detail).toBe('boom');
      expect(run.calls.find((call) => call.operation === 'GET /crash')?.detail).toMatch(/code 3/);
      // Started again after the blocked loop and after the crash.
      expect(run.restarts).toBe(2);
      expect(run.cold?.ms).toBeGreaterThan(0);
      expect(run.warm?.ms).toBeGreaterThan(0);
      // The stall probe waited through much of the 2.5 s turn of GET /stall: its first request
      // within the turn may leave late on a busy machine (one at a load of 17 waited 767 ms of 1.5 s).
      expect(Math.max(...(run.stallsMs ?? []))).toBeGreaterThan(1_000);
      const table = tableOf([summarize(run, new RegExp(ALLOWED, 'i'))]);
      expect(table).toContain('| misbehaving |');
      expect(table).toContain('| 1 (+1 named) | 2 | 1 | 1 |');
      // The slow call is named, with its place in the run (others may be slow on a busy machine).
      expect(slowCallsOf([run])).toContainEqual(
        expect.stringMatching(/^misbehaving: GET \/stall \(call 2\): \d+ ms$/),
      );
    },
  );

  it('fails a failure not listed, passes one listed, and fails a listed one that now passes', () => {
    const listed = (operations: Record<string, string>): KnownFailures => ({
      allowed5xx: { pattern: ALLOWED, reason: 'named' },
      documents: {
        misbehaving: {
          operations: Object.fromEntries(
            Object.entries(operations).map(([operation, failure]) => [
              operation,
              { failure, reason: 'a reason' },
            ]),
          ),
        },
      },
    });
    const bounds = { rssMb: 1024 };
    const failing = {
      'GET /fail': '5xx',
      'GET /slow': 'hung',
      'GET /close': 'closed',
      'GET /block': 'blocked',
      'GET /crash': 'crashed',
    };
    expect(judge([run], listed(failing), bounds)).toEqual({
      unexpected: [],
      stale: [],
      changed: [],
      known: 5,
    });
    const withoutFail = Object.fromEntries(
      Object.entries(failing).filter(([operation]) => operation !== 'GET /fail'),
    );
    expect(judge([run], listed(withoutFail), bounds).unexpected).toEqual([
      'misbehaving: GET /fail: 5xx 500 boom',
    ]);
    const verdict = judge([run], listed({ ...failing, 'GET /ok': '5xx' }), bounds);
    expect(verdict.stale).toEqual(['misbehaving: GET /ok now answers 200']);
    expect(
      judge([run], listed({ ...failing, 'GET /slow': 'closed' }), bounds).changed,
    ).toHaveLength(1);
    // A flaky entry that passes is noted, not stale.
    const flaky = listed({ ...failing, 'GET /ok': '5xx' });
    const okEntry = flaky.documents.misbehaving?.operations?.['GET /ok'];
    if (okEntry) okEntry.flaky = true;
    expect(judge([run], flaky, bounds)).toMatchObject({ stale: [], unexpected: [] });
    // A document listed as a whole: any failure of its operations is known.
    const wholesale = listed({});
    wholesale.documents.misbehaving = { document: { operations: 'nearly all fail, for now' } };
    expect(judge([run], wholesale, bounds)).toMatchObject({ unexpected: [], stale: [], known: 6 });
  });
});
