// Judges the runs of the large corpus against known-failures.json: every failure must be
// listed there with its reason, and every listed failure must still fail, so that the list
// shrinks as fixes land and never goes stale.
import { readFile } from 'node:fs/promises';
import type { CallRecord, DocumentRun } from './probe.js';

export const KNOWN_FAILURES_PATH = new URL('./known-failures.json', import.meta.url);

/**
 * A failure of the whole document, not of one operation: it does not start, its RSS passes the
 * bound, its budget runs out; `operations`: any of its operations may fail (a document on which
 * nearly every operation fails, listed as a whole until a fix lets its operations be listed).
 */
export type DocumentFailure = 'start' | 'rss' | 'budget' | 'operations';

/** What the file lists: per document, its known failures, each with the reason. */
export interface KnownFailures {
  /** A 5xx whose body matches this is the mock's named, accepted answer, not a failure. */
  allowed5xx: { pattern: string; reason: string };
  documents: Record<
    string,
    {
      document?: Partial<Record<DocumentFailure, string>>;
      /**
       * By `METHOD /path`: what was seen (`5xx`, `hung`, ...) and why; `flaky` when it failed in
       * some runs only (then a pass is noted, not a stale entry).
       */
      operations?: Record<string, { failure: string; reason: string; flaky?: boolean }>;
    }
  >;
}

export interface Bounds {
  /** Peak RSS of the mock over a document's run, MB. */
  rssMb: number;
}

export interface Verdict {
  /** Failures the file does not list. */
  unexpected: string[];
  /** Listed failures that did not happen: the list must lose them. */
  stale: string[];
  /**
   * Listed failures still there under another class than listed, and a listed `budget` that
   * sufficed this time (worth a look, not a failure).
   */
  changed: string[];
  /** Listed failures still there. */
  known: number;
}

export async function readKnownFailures(): Promise<KnownFailures> {
  return JSON.parse(await readFile(KNOWN_FAILURES_PATH, 'utf8')) as KnownFailures;
}

/** `5xx`, `hung`, `blocked`, `closed`, `crashed` or `unsent`; undefined for a good answer. */
export function failureOf(call: CallRecord, allowed: RegExp): string | undefined {
  if (call.outcome !== 'answered') return call.outcome;
  if ((call.status ?? 0) >= 500 && !allowed.test(call.detail ?? '')) return '5xx';
  return undefined;
}

/** The document-level failures of a run. */
export function documentFailuresOf(run: DocumentRun, bounds: Bounds): DocumentFailure[] {
  const failures: DocumentFailure[] = [];
  if (run.notStarted !== undefined) failures.push('start');
  if (run.rssKilled || run.peakRssMb > bounds.rssMb) failures.push('rss');
  if (run.calls.some((call) => call.outcome === 'unsent')) failures.push('budget');
  return failures;
}

/** Whether some operation of the run failed. */
function anyOperationFailed(run: DocumentRun, allowed: RegExp): boolean {
  return run.calls.some(
    (call) => call.outcome !== 'unsent' && failureOf(call, allowed) !== undefined,
  );
}

export function judge(runs: readonly DocumentRun[], known: KnownFailures, bounds: Bounds): Verdict {
  const allowed = new RegExp(known.allowed5xx.pattern, 'i');
  const verdict: Verdict = { unexpected: [], stale: [], changed: [], known: 0 };
  for (const run of runs) {
    const listed = known.documents[run.slug] ?? {};
    const seen = new Set(documentFailuresOf(run, bounds));
    const wholesale = listed.document?.operations !== undefined;
    if (wholesale && anyOperationFailed(run, allowed)) seen.add('operations');
    for (const failure of seen) {
      if (listed.document?.[failure] !== undefined) verdict.known++;
      else verdict.unexpected.push(`${run.slug}: ${failure}: ${documentDetail(run, failure)}`);
    }
    for (const failure of Object.keys(listed.document ?? {}) as DocumentFailure[]) {
      if (seen.has(failure)) continue;
      // Whether the budget suffices depends on the machine as much as on the mock: noted only.
      if (failure === 'budget')
        verdict.changed.push(`${run.slug}: every operation was called within the budget this time`);
      else verdict.stale.push(`${run.slug}: ${failure} no longer fails`);
    }
    const calls = new Map(run.calls.map((call) => [call.operation, call]));
    for (const call of run.calls) {
      // Unsent calls are the document's `budget` failure, judged above.
      if (call.outcome === 'unsent') continue;
      const failure = failureOf(call, allowed);
      const entry = listed.operations?.[call.operation];
      if (failure === undefined) {
        if (entry?.flaky)
          verdict.changed.push(`${run.slug}: ${call.operation} (flaky) answered ${call.status}`);
        else if (entry)
          verdict.stale.push(`${run.slug}: ${call.operation} now answers ${call.status}`);
        continue;
      }
      const line = `${run.slug}: ${call.operation}: ${failure} ${call.status ?? ''} ${call.detail ?? ''}`;
      if (!entry && wholesale) verdict.known++;
      else if (!entry) verdict.unexpected.push(line);
      else {
        verdict.known++;
        if (entry.failure !== failure) verdict.changed.push(`${line} (listed as ${entry.failure})`);
      }
    }
    // A listed operation the document no longer has, or that went unsent, is not judged
    // stale when unsent: only when the document lost it.
    for (const operation of Object.keys(listed.operations ?? {}))
      if (!calls.has(operation) && run.notStarted === undefined)
        verdict.stale.push(`${run.slug}: ${operation} is not an operation of the document`);
  }
  return verdict;
}

function documentDetail(run: DocumentRun, failure: DocumentFailure): string {
  if (failure === 'start') return run.notStarted ?? '';
  if (failure === 'operations') return 'some operations fail';
  if (failure === 'rss')
    return run.rssKilled ? 'killed past the RSS bound' : `peak RSS ${run.peakRssMb} MB`;
  return `${run.calls.filter((call) => call.outcome === 'unsent').length} operations unsent`;
}

/**
 * The list as these runs find it: each failure seen, with the reason already written for it
 * when it was listed, else what was seen (the 5xx's message, the network error). Documents
 * not run keep their entries.
 */
export function knownFromRuns(
  runs: readonly DocumentRun[],
  previous: KnownFailures,
  bounds: Bounds,
): KnownFailures {
  const allowed = new RegExp(previous.allowed5xx.pattern, 'i');
  const documents: KnownFailures['documents'] = { ...previous.documents };
  for (const run of runs) {
    const before = previous.documents[run.slug] ?? {};
    const documentFailures: Partial<Record<DocumentFailure, string>> = {};
    const failures = documentFailuresOf(run, bounds);
    if (before.document?.operations !== undefined && anyOperationFailed(run, allowed))
      failures.push('operations');
    for (const failure of failures)
      documentFailures[failure] = before.document?.[failure] ?? documentDetail(run, failure);
    const operations: Record<string, { failure: string; reason: string; flaky?: boolean }> = {};
    for (const call of run.calls) {
      const kept = before.operations?.[call.operation];
      // Not called this time: what was known of it stays.
      if ((call.outcome === 'unsent' || kept?.flaky) && kept) operations[call.operation] = kept;
      const failure = call.outcome === 'unsent' ? undefined : failureOf(call, allowed);
      if (failure === undefined) continue;
      operations[call.operation] = {
        failure,
        reason: kept?.reason ?? `${call.status ? `${call.status}: ` : ''}${call.detail ?? failure}`,
        ...(kept?.flaky ? { flaky: true } : {}),
      };
    }
    const entry = {
      ...(Object.keys(documentFailures).length > 0 ? { document: documentFailures } : {}),
      ...(Object.keys(operations).length > 0 ? { operations } : {}),
    };
    documents[run.slug] = entry;
  }
  // A document with nothing left to list leaves the list.
  const listed = Object.entries(documents).filter(([, entry]) => Object.keys(entry).length > 0);
  return { allowed5xx: previous.allowed5xx, documents: Object.fromEntries(listed) };
}
