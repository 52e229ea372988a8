import type { Server } from 'node:http';
import type { Mock } from '../core/create-mock.js';
import { createRecorder } from '../core/proxy/recorder.js';
import { createViolationLog, type ViolationLog } from '../core/proxy/violations.js';
import { createForward } from '../core/stages/forward.js';
import { decodeBody } from '../http/decode.js';
import { createForwarder } from '../http/forward.js';
import { silentLogger } from '../http/logger.js';
import { createProxyListener } from '../http/proxy-listener.js';
import { createMockServer } from '../http/server.js';
import {
  credentialPlaces,
  redactHeaders,
  redactTarget,
  type CredentialPlaces,
} from '../core/admin/redact.js';
import { harEntryOf, type SeenExchange } from '../core/traffic/har.js';
import { ADMIN_SPEC_PATH } from '../openapi/bundled.js';
import { loadSpec, ownVersion } from '../openapi/load.js';
import { securitySchemesOf } from '../openapi/security-schemes.js';
import { openFileStore } from '../store/file-store.js';
import { createMemoryStore } from '../store/memory-store.js';
import { startupErrors } from '../vocabulary/error-catalogue.js';
import { appOf } from './create-app.js';
import { resolveOptions, serverLimitsOf, storeLimitsOf, type OptionsOf } from './options.js';
import { openHarFile } from './har-file.js';
import { listenAt } from './start-mock.js';

export { describeTotals } from '../core/proxy/violations.js';

/**
 * The options of the proxy: the table's rows that name `proxy` (its spec, host, port, admin
 * keys, bounds, logger, and its own: the target, its timeout, what it records, `enforce`; no
 * store, seed or scenarios, since the target answers). `target` is required.
 * @example const options: ProxyOptions = { target: 'https://staging.example.com/v1', targetTimeoutSeconds: 10 };
 */
export type ProxyOptions = OptionsOf<'proxy'>;

/** A running proxy. */
export interface RunningProxy {
  /** Its base URL, e.g. `http://127.0.0.1:4010/v1`. */
  url: string;
  server: Server;
  /** The mock whose stages the proxy runs: its description, resources, request log, coverage. */
  mock: Mock;
  /** What it saw break the spec (also at `GET /__mock/violations`). */
  violations: ViolationLog;
  /** Stops it: in-flight exchanges finish (bounded), the recording is closed. */
  close(): Promise<void>;
}

/**
 * Starts the validating proxy: the mock's core and HTTP adapter in proxy mode, in front of
 * `target` (see createProxyListener).
 * @throws {StartupError} for a target that is not an http(s) URL, a spec or a recording file
 * it cannot use, or an address it cannot listen on.
 * @example
 * const proxy = await startProxy({ target: 'https://staging.example.com/v1', apiKeys: ['admin-key'] });
 * await fetch(`${proxy.url}/categories`, { headers: { Authorization: 'Bearer staging-token' } });
 * proxy.violations.list(); // { count: 0, violations: [] }
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const settings = resolveOptions(options, 'proxy');
  if (settings.target === undefined)
    throw startupErrors.invalidOption(
      'target',
      'it is required: the base URL of the real API, such as https://staging.example.com/v1',
    );
  const target = new URL(settings.target);
  const timeoutMs = settings.targetTimeoutMs;
  const spec = typeof settings.spec === 'object' ? settings.spec : await loadSpec(settings.spec);
  const adminSpec = await loadSpec(ADMIN_SPEC_PATH);
  const logger = settings.logger ?? silentLogger();
  const violations = createViolationLog();
  const app = appOf(settings, {
    spec,
    adminSpec,
    store: createMemoryStore({ limits: storeLimitsOf(settings) }),
    proxy: { violations },
  });
  const recording = settings.record
    ? await openFileStore(settings.record, {
        limits: storeLimitsOf(settings),
        onWarning: (line) => logger.warn(line),
      })
    : undefined;
  const har = settings.har
    ? await openHarFile(settings.har, { name: 'petstore-kit', version: ownVersion() })
    : undefined;
  const places = schemePlaces(spec.resolved);
  const forwarder = createForwarder({ target, timeoutMs });
  const listener = createProxyListener({
    app,
    basePath: app.mock.basePath,
    forward: createForward({
      mock: app.mock,
      basePath: app.mock.basePath,
      target: forwarder,
      answerRules: app.mock.answerRules,
      streamRules: app.mock.streamRules,
      decode: decodeBody,
      violations,
      enforce: settings.enforce,
      bodyLimit: settings.bodyLimit,
      logger,
      requestLog: app.mock.states.default.requestLog,
      ...(recording ? { onWrite: createRecorder(app.mock.resources, recording) } : {}),
      ...(har
        ? {
            onExchange: (seen: SeenExchange) =>
              har.add(
                harEntryOf(seen, {
                  headers: (headers) => redactHeaders(headers, places),
                  url: (url) => redactUrl(url, places),
                }),
              ),
          }
        : {}),
    }),
    bodyLimit: settings.bodyLimit,
    logger,
    logRequests: settings.logRequests,
  });
  const { server, close } = createMockServer(listener, serverLimitsOf(settings));
  const stop = async () => {
    await forwarder.close();
    await recording?.close();
    await har?.close();
  };
  const origin = await listenAt(server, settings.host, settings.port).catch(
    async (err: unknown) => {
      await stop();
      throw err;
    },
  );
  return {
    url: `${origin}${app.mock.basePath}`,
    server,
    mock: app.mock,
    violations,
    async close() {
      await close();
      // The last answers have gone out, but may still be being checked and recorded.
      await listener.idle();
      await stop();
    },
  };
}

/** A URL with the API keys the spec's schemes put in its query redacted. */
function redactUrl(url: string, places: CredentialPlaces): string {
  const { origin } = new URL(url);
  return `${origin}${redactTarget(url.slice(origin.length), places)}`;
}

/** Where the spec's credentials travel; none known for schemes it cannot read (the mock says why). */
function schemePlaces(document: Parameters<typeof securitySchemesOf>[0]): CredentialPlaces {
  try {
    return credentialPlaces(securitySchemesOf(document));
  } catch {
    return credentialPlaces(new Map());
  }
}
