/**
 * A deployment broke a rule of the interface. The message's first line says what is wrong
 * in words that alike failures share (the report groups by it); the rest shows the exchange
 * that proves it.
 */
export class ContractViolation extends Error {
  override name = 'ContractViolation';

  /**
   * The clause of the description the deployment breaks, as a JSON Pointer into it
   * (`#/paths/~1books/post/responses/201/content`); none where the suite cannot name one.
   */
  readonly clause: string | undefined;

  constructor(message: string, clause?: string) {
    super(message);
    this.clause = clause;
    // The frames would point into the suite, not at the deployment: the message is the evidence.
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * The suite could not judge a rule: the deployment stayed rate-limited or unavailable past
 * the suite's bounds, or did not answer in time. Not a violation: `petstore-kit contract`
 * exits 2 for it, not 1.
 */
export class TargetUnavailable extends Error {
  override name = 'TargetUnavailable';

  constructor(message: string) {
    super(message);
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * The suite could not judge a rule, for a reason it tells: the server refused, as the
 * operation documents, every request the suite could compose for it (a kernel name the
 * server does not have), so what the rule checks was never reached. Not a violation:
 * `petstore-kit contract` reports it under NOT JUDGED, and exits 2 unless another rule failed.
 */
export class NotJudged extends Error {
  override name = 'NotJudged';

  constructor(message: string) {
    super(message);
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * A rule that cannot run against this target, for a reason that is no fault of the target:
 * it needs a credential the user did not give, or the spec gives nothing to build its
 * request from. Reported as skipped, with the reason.
 */
export class RuleSkipped extends Error {
  override name = 'RuleSkipped';

  constructor(message: string) {
    super(message);
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * What the note of every rule skipped for a value the suite could not make starts with (a
 * record to name in a path or a body, a body of a media type it cannot write): the report's
 * NOT REACHED list gives it as the reason an operation was not reached.
 */
const NOT_MADE = 'a required value it could not make';

/**
 * The skip of a rule that needs a value the suite could not make.
 * @example throw valueNotMade('`ownerId` names a record of owners, and there is none')
 */
export function valueNotMade(what: string): RuleSkipped {
  return new RuleSkipped(`${NOT_MADE}: ${what}`);
}

/**
 * A rule reached its bound (its time, or the cases it may generate) before it could judge
 * all it set out to: what it checked held, but the rest was not checked. `petstore-kit
 * contract` reports it as not judged, with the bound, and exits 2 unless another rule failed.
 */
export class BudgetReached extends Error {
  override name = 'BudgetReached';

  constructor(message: string) {
    super(message);
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * A rule's setup step (a record it creates or reads to work on) broke the contract: the rule
 * is not judged, never failed. The step's own rule reports the violation, once, as a finding;
 * the report lists this rule under it. `petstore-kit contract` exits 1 for the finding, and
 * 2 when no rule of the run reports it.
 */
export class SetupFailed extends Error {
  override name = 'SetupFailed';

  /** The first line of the violation the step met: the finding this rule depends on. */
  readonly finding: string;

  readonly clause: string | undefined;

  constructor(step: string, violation: ContractViolation) {
    const finding = violation.message.split('\n')[0] ?? '';
    super(`not judged: its setup step (${step}) broke the contract: ${finding}`);
    this.finding = finding;
    this.clause = violation.clause;
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * Runs a rule's setup step: a violation it meets makes the rule not judged (SetupFailed), so
 * that one broken create is one finding, not a failure of every rule that needs a record.
 * @example const { id } = await asSetup('createBook', () => kit.create(ctx, books, 'to replace'));
 */
export async function asSetup<T>(step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ContractViolation) throw new SetupFailed(step, err);
    throw err;
  }
}
