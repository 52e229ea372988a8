// What the contract command and its flags share: its exit codes and its defaults, in a module
// of their own, so that declaring the flags does not load the suite with it.

/** Exit codes of `petstore-kit contract`. */
export const ContractExit = {
  /** The target conforms: every rule that ran passed. */
  conforms: 0,
  /** At least one rule is violated. */
  violated: 1,
  /** The run could not judge: a bad option or spec, an unreachable or unavailable target, a refused credential, or no rule ran. */
  unusable: 2,
} as const;

/**
 * The command's tunable bounds, each declared once: cli.ts makes their flags from this table,
 * the command falls back to their defaults, and test/contract-runner.test.ts holds the table
 * of options in docs/contract-suite.md to it.
 */
export const CONTRACT_TUNABLES = {
  budget: {
    flag: '--budget <count>',
    env: 'CONTRACT_BUDGET',
    /** Generated bodies, spread over the create operations. */
    default: 100,
    help: 'bodies generated from the spec in all, half valid (0: none)',
  },
  timeout: {
    flag: '--timeout <ms>',
    env: 'CONTRACT_TIMEOUT',
    /** Milliseconds per request. */
    default: 10_000,
    help: 'milliseconds one request may take, for slow networks',
  },
  ruleTimeout: {
    flag: '--rule-timeout <ms>',
    env: 'CONTRACT_RULE_TIMEOUT',
    /** Milliseconds per rule, its generated cases and their shrinking included. */
    default: 60_000,
    help: 'milliseconds one rule may take, its generated cases included; past it the rule is not judged',
  },
} as const;

/** The defaults of the tunable bounds, by the names the run's settings give them. */
export const CONTRACT_DEFAULTS = {
  budget: CONTRACT_TUNABLES.budget.default,
  timeoutMs: CONTRACT_TUNABLES.timeout.default,
  ruleTimeMs: CONTRACT_TUNABLES.ruleTimeout.default,
} as const;
