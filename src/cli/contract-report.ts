import type { Coverage } from '../openapi/coverage-table.js';
import { coverageReport } from './coverage-report.js';

/** How one rule of a contract run ended, as the report reads it. */
export interface RuleOutcome {
  name: string;
  state: 'passed' | 'failed' | 'unjudged' | 'skipped';
  /** A failure's message: its first line says what is wrong, the rest shows it. */
  message?: string;
  /** Why a skipped rule did not run. */
  note?: string;
  /** What HTTP recommends and the target does not do: warnings, never failures. */
  advisories?: string[];
  /** The clause of the description a failure breaks: a JSON Pointer into it. */
  clause?: string | undefined;
  /** For a rule not judged because its setup step broke the contract: that finding's first line. */
  finding?: string | undefined;
}

/** A request of the run that may have changed the target, and its status. */
export interface WriteLine {
  method: string;
  path: string;
  status: number;
}

/**
 * A finding: one cause of failure, the rules it failed, the clause of the description it
 * breaks, the evidence of its first rule, and the rules not judged because of it.
 */
export interface Finding {
  /** What is wrong, in the words alike failures share. */
  cause: string;
  clause?: string | undefined;
  rules: string[];
  /** The request and answer that show it (every credential masked), and what is wrong in them. */
  evidence: string;
  /** Rules whose setup step met this cause: not judged, never failed. */
  notJudged: string[];
}

/** What the report says besides the outcomes. */
export interface ReportFacts {
  baseUrl: string;
  /** The command that runs the same run again. */
  replay: string;
  /** Where the replay takes its credentials from, e.g. `API_KEY`. */
  credentialsFrom: string;
  /** The suite's own start-up and the rules' time. */
  timing: string;
  /** A reason the run broke before or beside its rules (a file that failed to load). */
  broken?: string | undefined;
  /** What the run exercised: every operation by documented status. */
  coverage?: Coverage | undefined;
  /**
   * The floor of the coverage, in percent: below it, by documented statuses or by documented
   * (operation, scheme) pairs, the run does not conform (see {@link floorShortfall}).
   */
  minCoverage?: number | undefined;
  /** The operations no request of the run got to, and why. */
  unreached?: readonly { operation: string; why: string }[] | undefined;
  /** Every request of an unsafe method the run sent. */
  writes?: readonly WriteLine[] | undefined;
  /** What the run deleted at its end of what it created, and what it left. */
  cleanup?:
    | {
        deletes: readonly WriteLine[];
        left: readonly { collection: string; count: number; why: string }[];
      }
    | undefined;
}

/** The report of a run, and the exit code it ends with. */
export interface ContractReport {
  /**
   * For stdout: the verdict first, then (unless the target conforms) the counts, the groups
   * of failures with their evidence, rules not judged or skipped, the coverage table, how to
   * replay the run, and last the advisories, each once.
   */
  lines: string[];
  /** The verdict, the report's first line: stderr repeats it when the target does not conform. */
  verdict: string;
  exitCode: 0 | 1 | 2;
}

/** Missed (operation, scheme) pairs a floor's verdict names; the table lists them all. */
const PAIRS_NAMED = 5;

/**
 * How a run's coverage falls short of a `--min-coverage` floor, in one sentence; `undefined`
 * when it meets it. The floor holds for each of the table's two measures on its own: the
 * documented statuses exercised, and the documented (operation, scheme) pairs exercised (a
 * missed pair is a scheme whose credential the run never sent to that operation, accepted or
 * not). The missed pairs are named, the first few; the table lists every one.
 * @example floorShortfall(coverage, 100) // '100% of the documented statuses exercised (8 of 8) but 87.5% of the documented (operation, scheme) pairs (7 of 8; missed: getAuditEntry basic), below --min-coverage 100%'
 */
export function floorShortfall(coverage: Coverage, floor: number): string | undefined {
  const schemesPercent =
    coverage.schemesTotal === 0
      ? 100
      : Math.round((1000 * coverage.schemesCovered) / coverage.schemesTotal) / 10;
  const statusesShort = coverage.percent < floor;
  const schemesShort = schemesPercent < floor;
  if (!statusesShort && !schemesShort) return undefined;
  const statuses = `${coverage.percent}% of the documented statuses exercised (${coverage.covered} of ${coverage.total})`;
  if (!schemesShort) return `${statuses}, below --min-coverage ${floor}%`;
  const missed = coverage.operations.flatMap(({ operationId, schemes }) =>
    schemes
      .filter((row) => row.documented && row.hits === 0)
      .map((row) => `${operationId} ${row.scheme}`),
  );
  const named =
    missed.length > PAIRS_NAMED
      ? `${missed.slice(0, PAIRS_NAMED).join(', ')} and ${missed.length - PAIRS_NAMED} more`
      : missed.join(', ');
  const pairs = `${schemesPercent}% of the documented (operation, scheme) pairs (${coverage.schemesCovered} of ${coverage.schemesTotal}; missed: ${named})`;
  return `${statuses} ${statusesShort ? 'and' : 'but'} ${pairs}, below --min-coverage ${floor}%`;
}

/** Rule names shown per group of alike failures; the rest are counted. */
const NAMES_SHOWN = 8;

/**
 * The report of a contract run. Its first line is the verdict, and says what is wrong in one
 * sentence; alike failures (the same first line) are grouped, each group with its rules and
 * the evidence of its first; then rules not judged or skipped, the coverage table, how to
 * replay the run, and the advisories, grouped once at the end: they are not failures.
 * @example contractReport(outcomes, facts).lines[0] // 'petstore-kit contract: does NOT conform: 12 of 61 rules fail; all of them: 401 answers that do not fit the Error schema'
 */
export function contractReport(
  outcomes: readonly RuleOutcome[],
  facts: ReportFacts,
): ContractReport {
  const by = (state: RuleOutcome['state']) => outcomes.filter((outcome) => outcome.state === state);
  const failed = by('failed');
  const unjudged = by('unjudged');
  const skipped = by('skipped');
  const passed = by('passed');
  const ran = passed.length + failed.length + unjudged.length;
  const grouped = groupFindings(outcomes);
  const failures = grouped.map(({ finding, failed: rules }): [string, RuleOutcome[]] => [
    finding.cause,
    rules,
  ]);
  const attached = new Set(grouped.flatMap(({ finding }) => finding.notJudged));
  const notJudged = groups(
    unjudged.filter((outcome) => !attached.has(outcome.name)),
    (outcome) => firstLine(outcome.message),
  );
  const { coverage, minCoverage } = facts;
  const shortfall =
    coverage !== undefined && minCoverage !== undefined
      ? floorShortfall(coverage, minCoverage)
      : undefined;
  const belowFloor = shortfall !== undefined;

  const counts = `${passed.length} rules passed, ${failed.length} failed, ${skipped.length} skipped`;
  const notJudgedCount = unjudged.length > 0 ? `, ${unjudged.length} could not be judged` : '';
  const summary = `${counts}${notJudgedCount} against ${facts.baseUrl} (${facts.timing})`;
  const floor = shortfall ?? '';

  let verdict: string;
  let exitCode: ContractReport['exitCode'];
  const [commonest] = failures;
  const [firstReason] = notJudged;
  if (commonest) {
    const [what, rules] = commonest;
    const head = `${failed.length} of ${ran} rules fail`;
    verdict = `petstore-kit contract: does NOT conform: ${
      failed.length === 1
        ? `1 of ${ran} rules fails: ${what}`
        : failures.length === 1
          ? `${head}; all of them: ${what}`
          : `${head}, in ${failures.length} ways; the commonest (${rules.length} rules): ${what}`
    }`;
    exitCode = 1;
  } else if (belowFloor) {
    verdict = `petstore-kit contract: does NOT conform: ${floor}`;
    exitCode = 1;
  } else if (firstReason) {
    verdict = `petstore-kit contract: could not judge ${unjudged.length} of ${ran} rules: ${firstReason[0]}`;
    exitCode = 2;
  } else if (facts.broken) {
    verdict = `petstore-kit contract: could not run the suite: ${facts.broken}`;
    exitCode = 2;
  } else if (passed.length === 0) {
    verdict = `petstore-kit contract: no contract rule ran against ${facts.baseUrl}`;
    exitCode = 2;
  } else {
    verdict = `petstore-kit contract: conforms: ${summary}`;
    exitCode = 0;
  }

  const lines: string[] = [verdict];
  if (exitCode !== 0) lines.push(summary);
  if (belowFloor && commonest) lines.push(`and ${floor}`);

  for (const { finding, failed: rules } of grouped) {
    const [first, ...others] = rules;
    const what = finding.cause;
    if (!first) continue;
    lines.push('', `FAIL  ${count(others.length + 1)}: ${what}`);
    if (finding.clause) lines.push(`      breaks: ${finding.clause}`);
    lines.push(...names([first, ...others]));
    if (finding.notJudged.length > 0)
      lines.push(
        `      and ${count(finding.notJudged.length)} not judged because of it (a setup step they need met it):`,
        ...names(
          finding.notJudged.map((name) => ({ name, state: 'unjudged' as const })),
          3,
        ),
      );
    lines.push(`      The first of them, ${first.name}:`);
    lines.push(...rest(first.message).map((line) => (line === '' ? '' : `      ${line}`)));
  }
  for (const [reason, rules] of notJudged)
    lines.push('', `NOT JUDGED  ${count(rules.length)}: ${reason}`, ...names(rules));
  for (const [note, rules] of groups(skipped, (outcome) => outcome.note ?? 'skipped'))
    lines.push('', `SKIPPED  ${count(rules.length)}: ${note}`, ...names(rules, 3));

  if (facts.unreached && facts.unreached.length > 0) {
    lines.push(
      '',
      `NOT REACHED  ${facts.unreached.length} operation${facts.unreached.length === 1 ? '' : 's'}: no valid request of the run got a 2xx from them`,
    );
    for (const { operation, why } of facts.unreached) lines.push(`      ${operation}: ${why}`);
  }
  lines.push(...writeLines(facts));
  if (coverage !== undefined)
    lines.push('', ...coverageReport(coverage, 'text').trimEnd().split('\n'));

  if (failed.length > 0 || unjudged.length > 0)
    lines.push(
      '',
      `Replay: ${facts.replay}   (credentials from ${facts.credentialsFrom}, as in this run)`,
    );

  const advisories = new Map<string, number>();
  for (const outcome of outcomes)
    for (const text of new Set(outcome.advisories ?? []))
      advisories.set(text, (advisories.get(text) ?? 0) + 1);
  if (advisories.size > 0) {
    lines.push(
      '',
      'Advisories: what HTTP recommends and the interface does not promise (not failures)',
    );
    for (const [text, rules] of advisories) lines.push(`  warning: ${text} (${count(rules)})`);
  }
  return { lines, verdict, exitCode };
}

/**
 * The findings of a run: its failures grouped by cause (their first line) and the clause of
 * the description they break, the largest first, each with the rules not judged because a
 * setup step they need met that cause.
 * @example findings(outcomes)[0] // { cause: '500 answers where the spec wants 201', clause: '#/paths/~1books/post/responses', rules: [...], evidence: '...', notJudged: [...] }
 */
export function findings(outcomes: readonly RuleOutcome[]): Finding[] {
  return groupFindings(outcomes).map(({ finding }) => finding);
}

/** The findings of a run, each with the outcomes of the rules it failed. */
function groupFindings(
  outcomes: readonly RuleOutcome[],
): { finding: Finding; failed: RuleOutcome[] }[] {
  const failed = outcomes.filter((outcome) => outcome.state === 'failed');
  const grouped = groups(
    failed,
    (outcome) => `${firstLine(outcome.message)}\n${outcome.clause ?? ''}`,
  );
  const dependents = outcomes.filter(
    (outcome) => outcome.state === 'unjudged' && outcome.finding !== undefined,
  );
  const claimed = new Set<string>();
  return grouped.flatMap(([, rules]) => {
    const [first] = rules;
    if (!first) return [];
    const cause = firstLine(first.message);
    const notJudged = dependents
      .filter(
        (outcome) =>
          outcome.finding === cause &&
          (outcome.clause === undefined || outcome.clause === first.clause) &&
          !claimed.has(outcome.name),
      )
      .map((outcome) => outcome.name);
    for (const name of notJudged) claimed.add(name);
    const finding = {
      cause,
      ...(first.clause === undefined ? {} : { clause: first.clause }),
      rules: rules.map((rule) => rule.name),
      evidence: rest(first.message).join('\n').trim(),
      notJudged,
    };
    return [{ finding, failed: rules }];
  });
}

/** The writes of a run, alike ones counted, and what its clean-up deleted and left. */
function writeLines(facts: ReportFacts): string[] {
  const { writes = [], cleanup } = facts;
  if (writes.length === 0) return [];
  const tally = (list: readonly WriteLine[]) => {
    const counted = new Map<string, number>();
    for (const { method, path, status } of list) {
      const line = `${method} ${path} ${status}`;
      counted.set(line, (counted.get(line) ?? 0) + 1);
    }
    return [...counted].map(([line, n]) => `      ${line}${n > 1 ? ` ×${n}` : ''}`);
  };
  const lines = [
    '',
    `WRITES  ${writes.length} request${writes.length === 1 ? '' : 's'} that may change the target (method, path, status):`,
    ...tally(writes),
  ];
  if (!cleanup) return lines;
  const { deletes, left } = cleanup;
  lines.push(
    '',
    deletes.length === 0
      ? 'CLEANED UP  nothing: the run deleted nothing at its end'
      : `CLEANED UP  ${deletes.length} record${deletes.length === 1 ? '' : 's'} the run created, deleted at its end:`,
    ...tally(deletes),
  );
  for (const { collection, count: n, why } of left)
    lines.push(`      left ${n} record${n === 1 ? '' : 's'} of ${collection}: ${why}`);
  return lines;
}

/** Outcomes grouped by a key, the largest group first (then the first met). */
function groups(
  outcomes: readonly RuleOutcome[],
  keyOf: (outcome: RuleOutcome) => string,
): [string, RuleOutcome[]][] {
  const grouped = new Map<string, RuleOutcome[]>();
  for (const outcome of outcomes) {
    const key = keyOf(outcome);
    grouped.set(key, [...(grouped.get(key) ?? []), outcome]);
  }
  return [...grouped].sort((a, b) => b[1].length - a[1].length);
}

function names(rules: readonly RuleOutcome[], shown = NAMES_SHOWN): string[] {
  const listed = rules.slice(0, shown).map((rule) => `      ${rule.name}`);
  return rules.length > shown ? [...listed, `      ... and ${rules.length - shown} more`] : listed;
}

function count(rules: number): string {
  return `${rules} rule${rules === 1 ? '' : 's'}`;
}

function firstLine(message: string | undefined): string {
  return (message ?? 'failed').split('\n')[0]?.trim() || 'failed';
}

function rest(message: string | undefined): string[] {
  return (message ?? '').split('\n').slice(1);
}

/**
 * GitHub Actions workflow commands for a run: each failure an error annotation titled with
 * its rule, each advisory once a warning annotation.
 */
export function githubAnnotations(outcomes: readonly RuleOutcome[]): string[] {
  const lines = outcomes
    .filter((outcome) => outcome.state === 'failed')
    .map((outcome) => githubCommand('error', outcome.name, outcome.message ?? 'failed'));
  const advisories = new Set(outcomes.flatMap((outcome) => outcome.advisories ?? []));
  for (const text of advisories) lines.push(githubCommand('warning', 'contract advisory', text));
  return lines;
}

/**
 * A GitHub Actions workflow command, escaped as its toolkit escapes it.
 * @example githubCommand('error', 'rule 3', 'expected 401\ngot 200') // '::error title=rule 3::expected 401%0Agot 200'
 * @internal for its tests: no part of the package's surface
 */
export function githubCommand(
  command: 'error' | 'warning',
  title: string,
  message: string,
): string {
  const data = (text: string) =>
    text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const property = (text: string) => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
  return `::${command} title=${property(title)}::${data(message)}`;
}
