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

/** Defaults of the command's tunable parts. */
export const CONTRACT_DEFAULTS = {
  /** @default 100 generated bodies, spread over the create operations */
  budget: 100,
  /** @default 10 s per request */
  timeoutMs: 10_000,
  /** @default 60 s per rule, its generated cases and their shrinking included */
  ruleTimeMs: 60_000,
} as const;
