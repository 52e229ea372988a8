/** The deployment under test, as the suite's environment describes it. */
export interface ContractTarget {
  /** Base URL of the interface, e.g. `https://staging.example.com/v1`, without a trailing slash. */
  baseUrl: string;
  /** A valid API key of that deployment. */
  apiKey: string;
  /** Skip every check that sends a valid create, which would leave data behind. */
  readOnly: boolean;
  /** Prefix of every name the suite creates, so its data can be recognised and cleaned up. */
  namePrefix: string;
  /** Seed of the generated cases: the same seed generates the same bodies. */
  seed: number;
  /** How many bodies to generate from the spec, half valid and half invalid; 0 generates none. */
  budget: number;
  /** How long one request may take, answer body included, in milliseconds. */
  timeoutMs: number;
}

/** The environment variables that describe the target. */
export interface ContractEnv {
  BASE_URL?: string | undefined;
  API_KEY?: string | undefined;
  CONTRACT_READ_ONLY?: string | undefined;
  CONTRACT_RUN_ID?: string | undefined;
  CONTRACT_SEED?: string | undefined;
  CONTRACT_BUDGET?: string | undefined;
  CONTRACT_TIMEOUT?: string | undefined;
}

declare module 'vitest' {
  export interface ProvidedContext {
    contractEnv: ContractEnv;
  }
}

/** Defaults of the target's tunable parts. */
export const TARGET_DEFAULTS = {
  /** @default 100 generated bodies: a second or two against a nearby deployment */
  budget: 100,
  /** @default 10 s per request */
  timeoutMs: 10_000,
} as const;

/** A configuration the suite cannot run with; its message is one line. */
export class TargetError extends Error {
  override name = 'TargetError';
}

/**
 * Reads the target from `BASE_URL`, `API_KEY`, `CONTRACT_READ_ONLY`, `CONTRACT_RUN_ID`,
 * `CONTRACT_SEED` (a random one when unset), `CONTRACT_BUDGET` and `CONTRACT_TIMEOUT` (ms).
 * @throws {TargetError} when the base URL or the key is missing or unusable, or a number is not one.
 * @example targetFromEnv({ BASE_URL: 'http://127.0.0.1:4010/v1', API_KEY: 'secret' })
 */
export function targetFromEnv(env: ContractEnv): ContractTarget {
  const baseUrl = env.BASE_URL?.trim();
  if (!baseUrl) throw new TargetError('BASE_URL is not set (for example http://127.0.0.1:4010/v1)');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TargetError(`BASE_URL is not a URL: "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetError(`BASE_URL must be http or https: "${baseUrl}"`);
  }
  const apiKey = env.API_KEY;
  if (!apiKey)
    throw new TargetError('API_KEY is not set: the suite needs a valid key of the target');
  const runId =
    env.CONTRACT_RUN_ID || `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey,
    readOnly: ['1', 'true', 'yes'].includes((env.CONTRACT_READ_ONLY ?? '').toLowerCase()),
    namePrefix: `contract-${runId}`,
    seed: wholeNumber(env.CONTRACT_SEED, 'CONTRACT_SEED', 0) ?? randomSeed(),
    budget: wholeNumber(env.CONTRACT_BUDGET, 'CONTRACT_BUDGET', 0) ?? TARGET_DEFAULTS.budget,
    timeoutMs:
      wholeNumber(env.CONTRACT_TIMEOUT, 'CONTRACT_TIMEOUT', 1) ?? TARGET_DEFAULTS.timeoutMs,
  };
}

/**
 * A seed for fast-check: a 32-bit integer.
 * @example randomSeed() // 1740329213
 */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

function wholeNumber(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new TargetError(`${name} must be a whole number of at least ${min}, not "${value}"`);
  }
  return Number(value);
}
