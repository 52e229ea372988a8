// The exit codes of the contract command, in a module of their own, so that declaring its
// command does not load the suite with it (its options: contract-options.ts).

/** Exit codes of `petstore-kit contract`. */
export const ContractExit = {
  /** The target conforms: every rule that ran passed. */
  conforms: 0,
  /** At least one rule is violated. */
  violated: 1,
  /** The run could not judge: a bad option or spec, an unreachable or unavailable target, a refused credential, or no rule ran. */
  unusable: 2,
} as const;
