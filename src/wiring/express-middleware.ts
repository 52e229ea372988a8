import type { Mock } from '../core/create-mock.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolveOptions, type OptionsOf } from './options.js';
import { openMock } from './start-mock.js';

/** How express (4 and 5), connect and Vite's `server.middlewares` hand a request on. */
export type NextFunction = (err?: unknown) => void;

/**
 * The options of mockMiddleware: the table's rows that name `express` (docs/options.md); where
 * it listens, and Node's bounds of a server, are your server's.
 */
export type MockMiddlewareOptions = OptionsOf<'express'>;

/** The mock as a middleware: the one mock, and the function and `close` mounting adds. */
export interface MockMiddleware {
  /**
   * Answers every request under the mocked API's base path (`/v1`) and the admin API's
   * (`/__mock`), whatever its method; hands every other request to `next()`.
   */
  (req: IncomingMessage, res: ServerResponse, next: NextFunction): void;
  /**
   * The mock serving now (`watch` swaps it): its base path, store, state, security, `seed`
   * and `reset`, and `fetch` and `handle` to call it with no socket.
   */
  readonly mock: Mock;
  /** Closes the store (and stops watching the spec); your server is yours to close. */
  close(): Promise<void>;
}

/**
 * The mock as express middleware, to mount in an app of your own with your routes in front:
 * the spec is loaded, checked and seeded before it resolves, so a broken spec fails your
 * start-up, not a request. The mock answers the paths the spec's servers give (`/v1/...`) and
 * its admin API (`/__mock/...`), with everything it does as a server of its own (validation,
 * state, errors in the spec's shape, scenarios, CORS, the request log); any other request goes
 * on to the next middleware. Mount it before any body parser: a body read by another
 * middleware cannot be read again (the mock answers 500 `body_already_read`). Mounted under a
 * path, it serves below it (`/mock/v1/...`), but the paths it writes (`Location`) are the spec's.
 * @throws {StartupError} for a spec, a data file or data it cannot serve (SpecError, DataFileError).
 * @example
 * import express from 'express';
 * import { mockMiddleware } from 'petstore-kit/express';
 *
 * const app = express();
 * app.get('/health', (_req, res) => { res.json({ ok: true }); }); // yours, in front
 * app.use(await mockMiddleware({ apiKeys: ['dev-key'] }));         // the mock, behind
 * app.listen(3000);
 */
export async function mockMiddleware(options: MockMiddlewareOptions = {}): Promise<MockMiddleware> {
  const mock = await openMock(resolveOptions(options, 'express'));
  function petstoreKitMock(req: IncomingMessage, res: ServerResponse, next: NextFunction): void {
    // Mounted under a path (`app.use('/mock', ...)`), express and connect take it off `url`:
    // the mock then serves its paths below that one, as any mounted middleware does.
    const route = mock.mock.route(req.method ?? 'GET', req.url ?? '/');
    if (route.api === undefined) return next();
    mock.routed(req, res, route);
  }
  // The mock serving now, read when asked: `watch` swaps it.
  const middleware = Object.defineProperty(petstoreKitMock, 'mock', {
    get: () => mock.mock,
    enumerable: true,
  }) as typeof petstoreKitMock & { readonly mock: Mock };
  return Object.assign(middleware, { close: mock.close });
}
