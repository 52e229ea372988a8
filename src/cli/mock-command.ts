import type { Logger } from '../http/logger.js';
import type { FaultKind } from '../vocabulary/answer.js';
import type { StabilityLevel } from '../openapi/stability.js';
import type { MockOptions } from '../wiring/options.js';
import { startMock, type RunningMock } from '../wiring/start-mock.js';

/** The `mock` command's flags, as commander parses them (sizes in bytes, times in ms). */
export interface MockFlags {
  port: number;
  host: string;
  apiKey?: string[];
  basic?: string[];
  seedCount: number;
  seed: number;
  spec: string;
  data?: string;
  redis?: string;
  redisPrefix: string;
  redisReseed?: boolean;
  redisAllowEviction?: boolean;
  maxSessions: number;
  sessionTtl: number;
  quiet?: boolean;
  bodyLimit: number;
  maxHeaderSize: number;
  requestTimeout: number;
  headersTimeout: number;
  keepAliveTimeout: number;
  shutdownTimeout: number;
  sendTimeout: number;
  maxRecords: number;
  maxStoreSize: number;
  /** false with --no-cors. */
  cors: boolean;
  corsOrigin?: string[];
  allowedHost?: string[];
  delay: { min: number; max: number };
  faultRate: number;
  faultKinds: FaultKind[];
  faultTimeout: number;
  stability: StabilityLevel;
  watch?: boolean;
  logFormat: 'auto' | 'pretty' | 'json';
}

/**
 * The mock's options as the flags give them.
 * @example mockOptionsOf(flags).storeLimits // { maxRecords: 1000000, maxBytes: 268435456 }
 */
export function mockOptionsOf(flags: MockFlags, logger: Logger): MockOptions {
  return {
    port: flags.port,
    host: flags.host,
    ...(flags.apiKey?.length ? { apiKeys: flags.apiKey } : {}),
    ...(flags.basic?.length ? { basic: flags.basic } : {}),
    spec: flags.spec,
    ...(flags.data ? { data: flags.data } : {}),
    ...(flags.redis ? { redis: flags.redis } : {}),
    redisPrefix: flags.redisPrefix,
    ...(flags.redisReseed ? { redisReseed: true } : {}),
    ...(flags.redisAllowEviction ? { redisAllowEviction: true } : {}),
    maxSessions: flags.maxSessions,
    sessionTtl: flags.sessionTtl,
    seedCount: flags.seedCount,
    seed: flags.seed,
    storeLimits: { maxRecords: flags.maxRecords, maxBytes: flags.maxStoreSize },
    bodyLimit: flags.bodyLimit,
    limits: {
      maxHeaderSize: flags.maxHeaderSize,
      requestTimeout: flags.requestTimeout,
      headersTimeout: flags.headersTimeout,
      keepAliveTimeout: flags.keepAliveTimeout,
      shutdownTimeout: flags.shutdownTimeout,
      sendTimeout: flags.sendTimeout,
    },
    logger,
    logRequests: !flags.quiet,
    ...(flags.allowedHost?.length ? { allowedHosts: flags.allowedHost } : {}),
    cors: flags.cors && (flags.corsOrigin?.length ? { origins: flags.corsOrigin } : {}),
    scenarios: { delay: flags.delay, faultRate: flags.faultRate, faultKinds: flags.faultKinds },
    faultTimeoutMs: flags.faultTimeout,
    stability: flags.stability,
    watch: flags.watch ?? false,
  };
}

/**
 * Starts the mock as the CLI asks, hands it to `onListening`, and announces it in one log
 * line (with the default key when no credential was given, so that `npm start` tells how to
 * call it), then one line per security scheme of the spec saying what it accepts.
 * @example await runMock(flags, createLogger()); // {"msg":"petstore-kit mock listening on http://127.0.0.1:4010/v1 ..."}
 */
export async function runMock(
  flags: MockFlags,
  logger: Logger,
  onListening: (mock: RunningMock) => void = () => {},
): Promise<RunningMock> {
  const mock = await startMock(mockOptionsOf(flags, logger));
  // Before the announcement: whoever acts on it (a signal, a request) finds the mock ready.
  onListening(mock);
  const defaults = !flags.apiKey?.length && !flags.basic?.length;
  logger.info(
    { url: mock.url, records: await mock.store.count(), keys: mock.apiKeys.length },
    `petstore-kit mock listening on ${mock.url}` +
      (defaults ? ` (API key: ${mock.apiKeys[0]})` : ''),
  );
  for (const { line, warning } of mock.security) {
    if (warning) logger.warn(`security: ${line}`);
    else logger.info(`security: ${line}`);
  }
  return mock;
}
