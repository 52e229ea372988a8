import type { Logger } from '../http/logger.js';
import { DEFAULT_API_KEY, type MockOptions } from '../wiring/options.js';
import { startMock, type RunningMock } from '../wiring/start-mock.js';

/**
 * Starts the mock as the CLI asks, hands it to `onListening`, and announces it in one log
 * line (with the default key when no credential was given, so that `npm start` tells how to
 * call it), then one line per security scheme of the spec saying what it accepts.
 * @param options the flags' options, checked (see validateOptions).
 * @example await runMock(validateOptions({ port: '4010' }), createLogger()); // {"msg":"petstore-kit mock listening on http://127.0.0.1:4010/v1 ..."}
 */
export async function runMock(
  options: MockOptions,
  logger: Logger,
  onListening: (mock: RunningMock) => void = () => {},
): Promise<RunningMock> {
  const mock = await startMock({ ...options, logger });
  // Before the announcement: whoever acts on it (a signal, a request) finds the mock ready.
  onListening(mock);
  const defaults = !options.apiKeys?.length && !options.basic?.length;
  logger.info(
    {
      url: mock.url,
      records: await mock.mock.store.count(),
      keys: defaults ? 1 : (options.apiKeys?.length ?? 0),
    },
    `petstore-kit mock listening on ${mock.url}` +
      (defaults ? ` (API key: ${DEFAULT_API_KEY})` : ''),
  );
  for (const { line, warning } of mock.mock.security) {
    if (warning) logger.warn(`security: ${line}`);
    else logger.info(`security: ${line}`);
  }
  return mock;
}
