// petstore-kit/msw in a browser (the "browser" condition of its exports, or
// petstore-kit/msw/browser): the handlers for MSW's setupWorker, for Storybook and a dev app.
// Built into one file by scripts/build-browser.mjs, Node's modules replaced by src/browser/.
import adminDocument from '../spec/admin.yaml';
import bundledDocument from '../spec/openapi.yaml';
import { browserMockHandlers } from './wiring/msw-browser-handlers.js';
import type { MswMock, MswMockOptions } from './wiring/msw-mock.js';

export type { MswMock, MswMockOptions } from './wiring/msw-mock.js';

/**
 * The mock as MSW request handlers (MSW 2 or 3) in a page: the server's core and answers (state,
 * validation, credentials, `Prefer` scenarios, sessions, the spec's error shapes), with the
 * spec given as a parsed document. Multipart bodies are answered 415 here.
 * @example
 * import { setupWorker } from 'msw/browser';
 * import { mockHandlers } from 'petstore-kit/msw';
 * import spec from './openapi.json';
 *
 * const mock = await mockHandlers({ spec, apiKeys: ['dev-key'] });
 * await setupWorker(...mock.handlers).start({ onUnhandledRequest: 'bypass' });
 */
export function mockHandlers(options: MswMockOptions = {}): Promise<MswMock> {
  return browserMockHandlers(options, { spec: bundledDocument, admin: adminDocument });
}
