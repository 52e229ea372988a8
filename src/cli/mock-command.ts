import type { Logger } from '../http/logger.js';
import type { FaultKind } from '../core/scenarios/prefer.js';
import type { StabilityLevel } from '../openapi/stability.js';
import { startMock, type RunningMock } from '../wiring/start-mock.js';

/** The `mock` command's options, as commander parses them (sizes in bytes, times in ms). */
export interface MockCommandOptions {
  port: number;
  host: string;
  apiKey?: string[];
  seedCount: number;
  seed: number;
  spec: string;
  data?: string;
  quiet?: boolean;
  bodyLimit: number;
  maxHeaderSize: number;
  requestTimeout: number;
  headersTimeout: number;
  keepAliveTimeout: number;
  shutdownTimeout: number;
  maxRecords: number;
  maxStoreSize: number;
  /** false with --no-cors. */
  cors: boolean;
  corsOrigin?: string[];
  delay: { min: number; max: number };
  faultRate: number;
  faultKinds: FaultKind[];
  faultTimeout: number;
  stability: StabilityLevel;
  watch?: boolean;
  logFormat: 'auto' | 'pretty' | 'json';
}

/**
 * Starts the mock as the CLI asks, hands it to `onListening`, and announces it in one log line (with the default key
 * when no key was given, so that `npm start` tells how to call it).
 * @example await runMock(options, createLogger()); // {"msg":"petstore-kit mock listening on http://127.0.0.1:4010/v1 ..."}
 */
export async function runMock(
  options: MockCommandOptions,
  logger: Logger,
  onListening: (mock: RunningMock) => void = () => {},
): Promise<RunningMock> {
  const storeLimits = { maxRecords: options.maxRecords, maxBytes: options.maxStoreSize };
  const mock = await startMock({
    port: options.port,
    host: options.host,
    ...(options.apiKey?.length ? { apiKeys: options.apiKey } : {}),
    spec: options.spec,
    ...(options.data ? { data: options.data } : {}),
    seedCount: options.seedCount,
    seed: options.seed,
    storeLimits,
    bodyLimit: options.bodyLimit,
    limits: {
      maxHeaderSize: options.maxHeaderSize,
      requestTimeout: options.requestTimeout,
      headersTimeout: options.headersTimeout,
      keepAliveTimeout: options.keepAliveTimeout,
      shutdownTimeout: options.shutdownTimeout,
    },
    logger,
    logRequests: !options.quiet,
    cors: options.cors && (options.corsOrigin?.length ? { origins: options.corsOrigin } : {}),
    scenarios: {
      delay: options.delay,
      faultRate: options.faultRate,
      faultKinds: options.faultKinds,
    },
    faultTimeoutMs: options.faultTimeout,
    stability: options.stability,
    ...(options.watch ? { watch: true } : {}),
  });
  // Before the announcement: whoever acts on it (a signal, a request) finds the mock ready.
  onListening(mock);
  logger.info(
    { url: mock.url, records: await mock.store.count(), keys: mock.apiKeys.length },
    `petstore-kit mock listening on ${mock.url}` +
      (options.apiKey?.length ? '' : ` (API key: ${mock.apiKeys[0]})`),
  );
  return mock;
}
