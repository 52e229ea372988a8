// The mock as startMock opens it (the same options, seeding and seed workflows), called through
// `mock.fetch` with no port: for tests of what the mock answers, where no socket is the point.
import type { Mock } from '../src/core/create-mock.js';
import type { Store } from '../src/store/store.js';
import { resolveOptions, type MockOptions } from '../src/wiring/options.js';
import { openMock } from '../src/wiring/start-mock.js';

/** The origin every in-process mock answers at: the host is never checked with no listener. */
export const IN_PROCESS_ORIGIN = 'http://mock.test';

/** A mock with no port: what a test of a RunningMock reads, with `fetch` in place of a URL's socket. */
export interface InProcessMock {
  /** Its base URL, as startMock's is, on IN_PROCESS_ORIGIN: e.g. `http://mock.test/v1`. */
  url: string;
  /** The global fetch's signature, answered by `mock.fetch`: a network fault rejects, as over a socket. */
  fetch(input: string, init?: RequestInit): Promise<Response>;
  mock: Mock;
  /** The defects of the spec it lives with, as Mock.warnings. */
  readonly warnings: readonly string[];
  store: Store;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the mock startMock would start with these options, and listens on nothing.
 * @example const mock = await inProcessMock({ apiKeys: [KEY] }); await mock.fetch(`${mock.url}/categories`, { headers: AUTH });
 */
export async function inProcessMock(options: MockOptions = {}): Promise<InProcessMock> {
  const opened = await openMock(resolveOptions(options));
  return {
    url: `${IN_PROCESS_ORIGIN}${opened.mock.basePath}`,
    async fetch(input, init) {
      const response = await opened.mock.fetch(new Request(input, init));
      // Response.error() is how the mock says the connection failed; fetch rejects for that.
      if (response.type === 'error') throw new TypeError('fetch failed');
      return response;
    },
    get mock() {
      return opened.mock;
    },
    get warnings() {
      return opened.mock.warnings;
    },
    store: opened.backend,
    reset: () => opened.mock.reset(),
    close: opened.close,
  };
}
