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
}

/** The environment variables that describe the target. */
export interface ContractEnv {
  BASE_URL?: string | undefined;
  API_KEY?: string | undefined;
  CONTRACT_READ_ONLY?: string | undefined;
  CONTRACT_RUN_ID?: string | undefined;
}

declare module 'vitest' {
  export interface ProvidedContext {
    contractEnv: ContractEnv;
  }
}

/** A configuration the suite cannot run with; its message is one line. */
export class TargetError extends Error {
  override name = 'TargetError';
}

/**
 * Reads the target from `BASE_URL`, `API_KEY`, `CONTRACT_READ_ONLY` and `CONTRACT_RUN_ID`.
 * @throws {TargetError} when the base URL or the key is missing or unusable.
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
  };
}
