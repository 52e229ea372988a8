import type { SentPlaces } from './coverage-hits.js';
import type { HttpContext } from './http.js';
import type { Ledger } from './ledger.js';
import type { ContractTarget } from './target.js';

/** What a rule runs with: the target, where its advice goes, and what the run shares. */
export interface RuleContext extends HttpContext {
  target: ContractTarget;
  /** What rules of one run share (a record to read, a listed id), by what it is. */
  memo: Map<string, Promise<unknown>>;
  /** The run's writes and the records it created, for its clean-up and its report. */
  ledger?: Ledger;
  /** Told of every answer an operation gave, and where its request put credentials: the run's coverage table counts them. */
  seen?: (operationId: string, status: number, sent?: SentPlaces) => void;
}

/** One rule of the interface, checked over HTTP. */
export interface Rule {
  /** Reads like the interface document: which operation, which rule, what must happen. */
  name: string;
  /** It writes (creates, replaces, updates or deletes), which leaves traces: skipped in read-only mode. */
  createsData: boolean;
  /**
   * Resolves when the deployment keeps the rule.
   * @throws {ContractViolation} when it breaks the rule, showing the exchange that proves it.
   * @throws {TargetUnavailable} when the rule could not be judged.
   * @throws {RuleSkipped} when the rule cannot run against this target (a credential not given).
   */
  check(ctx: RuleContext): Promise<void>;
}
