// Credentials never in the mock's own output (issue 30): a key sent in the query, right or
// wrong, is redacted in the request lines, JSON and pretty alike, as the admin log does.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { capturedLogger, QUICK_SHUTDOWN } from './helpers.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';

const SECURITY = fileURLToPath(new URL('./fixtures/specs/security.yaml', import.meta.url));
const started: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

/** A mock whose every log line is collected as text. */
async function logged(pretty: boolean): Promise<{ url: string; text: () => string }> {
  const { logger, text } = capturedLogger({ pretty });
  const mock = await startMock({
    ...QUICK_SHUTDOWN,
    spec: SECURITY,
    apiKeys: ['K-SECRET-1'],
    logger,
    logRequests: true,
  });
  started.push(mock);
  return { url: mock.url, text };
}

describe.each([
  { format: 'JSON', pretty: false },
  { format: 'pretty', pretty: true },
])('$format request lines', ({ pretty }) => {
  it('redact a key sent in the query, the accepted one and a wrong one', async () => {
    const { url, text } = await logged(pretty);
    expect((await fetch(`${url}/query?api_key=K-SECRET-1&limit=2`)).status).toBe(200);
    expect((await fetch(`${url}/query?limit=3&api_key=K-WRONG-2`)).status).toBe(401);
    // An operation that takes no key in the query, and a path the spec does not have.
    await fetch(`${url}/alternatives?api_key=K-SECRET-3`);
    await fetch(`${url.replace(/\/api$/, '')}/nowhere?api_key=K-SECRET-4`);
    await expect
      .poll(() => text().split('\n').filter(Boolean).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(4);
    expect(text()).not.toMatch(/K-SECRET|K-WRONG/);
    expect(text()).toContain('/query?api_key=***&limit=2');
    expect(text()).toContain('/query?limit=3&api_key=***');
  });
});
