/** The annotation type of an advisory: JUnit writes it as a `warning` property of its test. */
export const ADVISORY = 'warning';

/** The annotation type of why a rule was skipped: JUnit writes it as a `skipped` property. */
export const SKIP_NOTE = 'skipped';

/**
 * The suite's console reporter prints nothing while the rules run: `petstore-kit contract`
 * prints the report once they have (src/cli/contract-report.ts), its first line saying what
 * is wrong, alike failures grouped, GitHub annotations under GitHub Actions. It takes none
 * of vitest's reporter hooks.
 */
export default class ContractReporter {
  /** Nothing while the rules run: a CI log holds the report alone. */
  readonly silent = true;
}
