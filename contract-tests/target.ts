import type { Dispatcher } from 'undici';
import type { Credentials, SuiteCredential } from './credentials.js';
import type { ContractPlan } from './plan.js';

/** The deployment under test, and how to test it. */
export interface ContractTarget {
  /** Base URL of the interface, e.g. `https://staging.example.com/v1`, without a trailing slash. */
  baseUrl: string;
  /** The credentials the user gave, for every scheme the spec uses. */
  credentials: Credentials;
  /** Schemes the suite does not use, by name, and why (the target refused the credential for them). */
  refusedSchemes: Record<string, string>;
  /** Skip every check that writes (creates, replaces, updates, deletes), which would leave traces. */
  readOnly: boolean;
  /** Prefix of every text the suite creates, so its data can be recognised and cleaned up. */
  namePrefix: string;
  /** Seed of the generated cases: the same seed generates the same bodies. */
  seed: number;
  /** How many bodies to generate from the spec in all, half valid and half invalid; 0: none. */
  budget: number;
  /** How long one request may take, answer body included, in milliseconds. */
  timeoutMs: number;
  /**
   * How long one rule may take, its generated cases and their shrinking included, in
   * milliseconds: a rule that reaches it is reported not judged (exit 2), never runs on.
   */
  ruleTimeMs: number;
  /** The command that runs this run again, the same cases included. */
  replay: string;
  /** Where the suite listens for the callbacks and webhooks the target sends; none: not checked. */
  receiver?: { host: string; port: number };
  /** How requests reach the target; unset, through the environment's proxy (a test's answers in process). */
  dispatcher?: Dispatcher;
}

/** What `petstore-kit contract` hands the suite (contract-tests/suite.ts). */
export interface ContractRun {
  plan: ContractPlan;
  settings: ContractSettings;
}

/** The run's settings, as the CLI checked them. */
export interface ContractSettings {
  baseUrl: string;
  /** The bearer token or API key. */
  token?: string | undefined;
  /** `user:password` for HTTP basic. */
  basic?: string | undefined;
  /** Values given for one scheme each (`--credential`), with the scopes each holds. */
  credentials?: { scheme: string; scopes?: string[] | undefined; value: string }[] | undefined;
  refusedSchemes?: Record<string, string>;
  readOnly?: boolean;
  /** Names what the suite creates (`contract-<runId> ...`); a random one when unset. */
  runId?: string | undefined;
  seed: number;
  budget: number;
  timeoutMs: number;
  /** @default TARGET_DEFAULTS.ruleTimeMs */
  ruleTimeMs?: number | undefined;
  replay: string;
  /** `host:port` to receive callbacks and webhooks on. */
  receiver?: string;
}

/** Defaults of the target's tunable parts. */
const TARGET_DEFAULTS = {
  /** @default 100 generated bodies: a second or two against a nearby deployment */
  budget: 100,
  /** @default 10 s per request */
  timeoutMs: 10_000,
  /** @default 60 s per rule, its generated cases and their shrinking included */
  ruleTimeMs: 60_000,
} as const;

/**
 * A configuration the suite cannot run with; its message is one line.
 * @internal for its tests: no part of the package's surface
 */
export class TargetError extends Error {
  override name = 'TargetError';
}

/**
 * The target of a run's settings.
 * @throws {TargetError} when the base URL is not an http(s) URL, or a basic credential lacks its colon.
 * @example targetFromSettings({ baseUrl: 'http://127.0.0.1:4010/v1', token: 'secret', seed: 1, budget: 10, timeoutMs: 5000, replay: '' })
 */
export function targetFromSettings(settings: ContractSettings): ContractTarget {
  const baseUrl = settings.baseUrl.trim();
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TargetError(`the base URL is not a URL: "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TargetError(`the base URL must be http or https: "${baseUrl}"`);
  const runId =
    settings.runId || `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    credentials: {
      ...(settings.token ? { token: settings.token } : {}),
      ...(settings.basic ? { basic: parseBasic(settings.basic) } : {}),
      ...(settings.credentials?.length ? { byScheme: byScheme(settings.credentials) } : {}),
    },
    refusedSchemes: settings.refusedSchemes ?? {},
    readOnly: settings.readOnly ?? false,
    namePrefix: `contract-${runId}`,
    seed: settings.seed,
    budget: settings.budget,
    timeoutMs: settings.timeoutMs,
    ruleTimeMs: settings.ruleTimeMs ?? TARGET_DEFAULTS.ruleTimeMs,
    replay: settings.replay,
    ...(settings.receiver ? { receiver: parseReceiver(settings.receiver) } : {}),
  };
}

/** The values given for one scheme each, grouped by scheme, in the order given. */
function byScheme(
  given: NonNullable<ContractSettings['credentials']>,
): Record<string, SuiteCredential[]> {
  const grouped: Record<string, SuiteCredential[]> = {};
  for (const { scheme, scopes, value } of given)
    (grouped[scheme] ??= []).push(scopes === undefined ? { value } : { value, scopes });
  return grouped;
}

/**
 * `host:port` as its parts (`[::1]:9400` for an IPv6 address).
 * @throws {TargetError} for anything else.
 * @example parseReceiver('127.0.0.1:9400') // { host: '127.0.0.1', port: 9400 }
 * @internal for its tests: no part of the package's surface
 */
export function parseReceiver(text: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[2]);
  if (!match?.[1] || !(port > 0 && port < 65536))
    throw new TargetError(`--receiver must be host:port, such as 127.0.0.1:9400, not "${text}"`);
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
}

/**
 * `user:password` as its two parts; the password may hold colons, the user may not (RFC 7617).
 * @throws {TargetError} without a colon.
 * @example parseBasic('ada:s3:cret') // { user: 'ada', password: 's3:cret' }
 * @internal for its tests: no part of the package's surface
 */
export function parseBasic(text: string): { user: string; password: string } {
  const at = text.indexOf(':');
  if (at < 0) throw new TargetError('--basic takes user:password (BASIC_AUTH too)');
  return { user: text.slice(0, at), password: text.slice(at + 1) };
}
