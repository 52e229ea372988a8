// petstore-kit/msw on Node: the specs read from files (or given), then the shared handlers.
import { ADMIN_SPEC_PATH } from '../openapi/bundled.js';
import { specFromDocument } from '../openapi/document-spec.js';
import { loadSpec, type LoadedSpec } from '../openapi/load.js';
import { createMswMock, isLoaded, type MswMock, type MswMockOptions } from './msw-mock.js';

export type { MswMock, MswMockOptions } from './msw-mock.js';

/**
 * The mock as MSW request handlers (MSW 2 or 3): the same core and spec as the server, so the answers
 * are the server's (state kept across requests, every request and answer checked against the
 * spec, credentials, `Prefer` scenarios, `Mock-Session` sessions, errors in the spec's own
 * shape), with no port: for Vitest or Jest (`setupServer`) and for a page or Storybook
 * (`setupWorker`). Network faults are MSW's network error (`reset`, and `timeout` after
 * `faultTimeoutMs`); `malformed` sends half the JSON.
 * @throws {StartupError} for a spec it cannot serve (SpecError).
 * @example
 * import { setupServer } from 'msw/node';
 * import { mockHandlers } from 'petstore-kit/msw';
 *
 * const mock = await mockHandlers({ apiKeys: ['test-key'] });
 * const server = setupServer(...mock.handlers);
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
 * beforeEach(() => mock.mock.reset());
 * afterAll(() => server.close());
 */
export async function mockHandlers(options: MswMockOptions = {}): Promise<MswMock> {
  const { spec, ...rest } = options;
  return createMswMock(rest, {
    spec: await readSpec(spec),
    admin: await loadSpec(ADMIN_SPEC_PATH),
  });
}

/** The spec as given: read from its file, already loaded, or a document to read. */
async function readSpec(spec: MswMockOptions['spec']): Promise<LoadedSpec> {
  if (spec === undefined || typeof spec === 'string') return loadSpec(spec);
  return isLoaded(spec) ? spec : specFromDocument(spec);
}
