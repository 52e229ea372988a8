import type { Logger } from '../http/logger.js';
import { DEFAULT_API_KEY, type OptionsOf } from '../wiring/options.js';
import type { FlagsOf } from './command-options.js';
import type { LOG_OPTIONS, PROXY_OPTIONS } from './command-tables.js';
import { describeTotals, startProxy, type RunningProxy } from '../wiring/start-proxy.js';

/** The `proxy` command's own flags and its log flags, as commander parses them. */
export type ProxyFlags = FlagsOf<typeof PROXY_OPTIONS> & FlagsOf<typeof LOG_OPTIONS>;

/**
 * Starts the proxy as the CLI asks and announces it in one log line. Its `close` (a signal)
 * logs the summary of the violations seen, one count per side and rule, and with
 * `--fail-on-violation` tells `onExitCode` of a 1 when there was any.
 * @example await runProxy(flags, { port: 4010 }, createLogger()); // {"msg":"petstore-kit proxy listening on http://127.0.0.1:4010/v1, forwarding to https://staging.example.com/v1"}
 */
export async function runProxy(
  flags: ProxyFlags,
  shared: OptionsOf<'proxy'>,
  logger: Logger,
  onListening: (proxy: RunningProxy) => void = () => {},
  onExitCode: (code: number) => void = () => {},
): Promise<RunningProxy> {
  const started = await startProxy({ ...shared, logger });
  const proxy: RunningProxy = {
    ...started,
    async close() {
      await started.close();
      const totals = started.violations.totals();
      const summary = `petstore-kit proxy stopped: ${describeTotals(totals)}`;
      if (totals.size > 0) logger.warn({ violations: Object.fromEntries(totals) }, summary);
      else logger.info({ violations: {} }, summary);
      if (flags.failOnViolation && totals.size > 0) onExitCode(1);
    },
  };
  onListening(proxy);
  const defaults = !shared.apiKeys?.length;
  logger.info(
    { url: proxy.url, target: shared.target },
    `petstore-kit proxy listening on ${proxy.url}, forwarding to ${shared.target}` +
      (defaults ? ` (admin API key: ${DEFAULT_API_KEY})` : ''),
  );
  return proxy;
}
