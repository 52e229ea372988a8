// Classes of problem the largest public descriptions showed (issue 28's corpus run), each
// reproduced on a small document of the same shape under test/fixtures/corpus-classes/.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../src/index.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`fixtures/corpus-classes/${name}`, import.meta.url));

const started: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

async function mock(name: string): Promise<RunningMock> {
  const running = await startMock({ spec: fixture(name), seedCount: 0 });
  started.push(running);
  return running;
}

describe('an error schema no value satisfies (Cloudflare: 181 operations)', () => {
  // Its 4XX is the allOf of the success envelope (`success: enum [true]`) and the failure
  // one (`success: enum [false]`): the error could not be shaped, and the connection was
  // closed with nothing sent, the log saying 200.
  it('still answers the error, with our own body, and keeps the connection', async () => {
    const api = await mock('contradictory-error.yaml');
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${api.url}/things/nope`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({
        code: 'not_found',
        message: expect.stringContaining('nope'),
        status: 404,
      });
    }
  });
});
