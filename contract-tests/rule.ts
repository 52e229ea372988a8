import type { HttpContext } from './http.js';
import type { ContractTarget } from './target.js';

/** What a rule runs with: the target, and where its advice goes. */
export interface RuleContext extends HttpContext {
  target: ContractTarget;
}

/** One rule of the interface document, checked over HTTP. */
export interface Rule {
  /** Reads like the interface document: which operation, which rule, what must happen. */
  name: string;
  /** It sends a valid create, which leaves a category behind: skipped in read-only mode. */
  createsData: boolean;
  /**
   * Resolves when the deployment keeps the rule.
   * @throws {ContractViolation} when it breaks the rule, showing the exchange that proves it.
   * @throws {TargetUnavailable} when the rule could not be judged.
   */
  check(ctx: RuleContext): Promise<void>;
}
