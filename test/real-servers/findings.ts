// The findings of a contract run on a real server, and how they compare with the committed
// table (findings.json): one finding per root cause, the request that showed it and what was
// wrong with its answer, so that 92 rules failed by one refused setup step are one line.

/** How a finding of the table was judged by a person who read its evidence. */
export type Verdict = 'true defect' | 'description defect' | 'false alarm';

export const VERDICTS: readonly Verdict[] = ['true defect', 'description defect', 'false alarm'];

/** A row of the table: a finding of one server, its verdict and why, in one line. */
export interface TableRow {
  finding: string;
  verdict: Verdict;
  reason: string;
}

/** The committed table: per server (by its name in the run), its findings. */
export type FindingsTable = Record<string, TableRow[]>;

/** What the contract command's JSON report (`--reporter json --output FILE`) holds that is read here. */
export interface JsonReport {
  exitCode: number;
  rules: { name: string; state: string; message?: string; note?: string }[];
  coverage: { operations: { method: string; path: string }[] };
}

/** A root cause of a run: the failing request's operation and what was wrong, with the rules it failed. */
export interface Finding {
  /** `POST /api/v2/silences: 400 answers where the spec wants 200`. */
  finding: string;
  rules: string[];
}

/**
 * The findings of a run: its failed rules grouped by the request whose answer failed them
 * (method and path template, the base URL's path included) and the first line of the failure.
 * A failure that shows no request keeps the rule's operation (the name's start).
 * @example findingsOf(report)[0] // { finding: 'POST /api/sessions: 501 answers where the spec wants 201', rules: [...] }
 */
export function findingsOf(report: JsonReport): Finding[] {
  const templates = report.coverage.operations.map(({ method, path }) => ({
    method,
    path,
    pattern: new RegExp(
      `^${path
        .split('/')
        .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : escape(part)))
        .join('/')}/?$`,
    ),
  }));
  const byFinding = new Map<string, string[]>();
  for (const rule of report.rules) {
    if (rule.state !== 'failed') continue;
    const message = rule.message ?? 'failed';
    const what = message.split('\n')[0]?.trim() || 'failed';
    const request = /^\s*Request:\s+([A-Z]+) (\S+)/m.exec(message);
    let where = rule.name.split(':')[0]?.trim() ?? rule.name;
    if (request) {
      const method = request[1]!;
      const path = new URL(request[2]!).pathname;
      const template = templates.find(
        (candidate) => candidate.method === method && candidate.pattern.test(path),
      );
      where = `${method} ${template?.path ?? path}`;
    }
    const finding = `${where}: ${what}`;
    byFinding.set(finding, [...(byFinding.get(finding) ?? []), rule.name]);
  }
  return [...byFinding].map(([finding, rules]) => ({ finding, rules }));
}

/** A run's findings held against the table's rows of its server. */
export interface Comparison {
  /** Findings of the table, with their row. */
  known: { finding: Finding; row: TableRow }[];
  /** Findings the table does not hold: each fails the run until someone judges it. */
  unknown: Finding[];
  /** Rows of the table this run did not find (fixed, or not reached this time). */
  unseen: TableRow[];
}

export function compare(findings: readonly Finding[], rows: readonly TableRow[]): Comparison {
  const byFinding = new Map(rows.map((row) => [row.finding, row]));
  const known: Comparison['known'] = [];
  const unknown: Finding[] = [];
  for (const finding of findings) {
    const row = byFinding.get(finding.finding);
    if (row) known.push({ finding, row });
    else unknown.push(finding);
  }
  const found = new Set(findings.map((finding) => finding.finding));
  return { known, unknown, unseen: rows.filter((row) => !found.has(row.finding)) };
}

/** Per verdict, how many root causes and how many failed rules. */
export type Counts = Record<Verdict, { findings: number; rules: number }>;

export function countsOf(known: Comparison['known']): Counts {
  const counts = Object.fromEntries(
    VERDICTS.map((verdict) => [verdict, { findings: 0, rules: 0 }]),
  ) as Counts;
  for (const { finding, row } of known) {
    counts[row.verdict].findings += 1;
    counts[row.verdict].rules += finding.rules.length;
  }
  return counts;
}

/**
 * The share of root causes that are right (a true defect of the server or of its
 * description), in percent; `undefined` for none.
 * @example precision(countsOf(known), 'findings') // 100
 */
export function precision(counts: Counts, by: 'findings' | 'rules'): number | undefined {
  const right = counts['true defect'][by] + counts['description defect'][by];
  const all = right + counts['false alarm'][by];
  return all === 0 ? undefined : (100 * right) / all;
}

/**
 * The table, checked: every row of a known verdict with a reason, no finding twice.
 * @throws {Error} naming the first row that is not
 */
export function checkTable(table: unknown): FindingsTable {
  if (typeof table !== 'object' || table === null) throw new Error('the table is not an object');
  for (const [server, rows] of Object.entries(table)) {
    if (!Array.isArray(rows)) throw new Error(`${server}: its findings are not a list`);
    const seen = new Set<string>();
    for (const row of rows as Partial<TableRow>[]) {
      if (typeof row.finding !== 'string' || row.finding === '')
        throw new Error(`${server}: a row without its finding`);
      if (!VERDICTS.includes(row.verdict as Verdict))
        throw new Error(
          `${server}: "${row.finding}" has verdict ${JSON.stringify(row.verdict)}, not one of ${VERDICTS.join(', ')}`,
        );
      if (typeof row.reason !== 'string' || row.reason.trim() === '')
        throw new Error(`${server}: "${row.finding}" gives no reason`);
      if (seen.has(row.finding)) throw new Error(`${server}: "${row.finding}" is listed twice`);
      seen.add(row.finding);
    }
  }
  return table as FindingsTable;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
