// How today's mock does on the corpus: for each document of test/fixtures/corpus/manifest.json,
// start the mock in-process on it, and if it starts, drive it over HTTP (test/corpus/drive.ts):
// each collection through create, list, read, update and delete, every other operation once.
//
//   npx tsx scripts/corpus-report.ts                 # a table, then the reasons
//   npx tsx scripts/corpus-report.ts --json          # the results as JSON
//   npx tsx scripts/corpus-report.ts petstore-openapi31 readme   # only these slugs
import { relative } from 'node:path';
import { startMock, type RunningMock } from '../src/index.js';
import { findCollections, type Collection } from '../test/corpus/collections.js';
import { loadDocument } from '../test/corpus/document.js';
import { credentialsFor, driveApi, type DriveResult } from '../test/corpus/drive.js';
import { readManifest, rootPathOf, type CorpusEntry } from '../test/corpus/manifest.js';
import { operationsOf } from '../test/corpus/operations.js';

const API_KEY = 'k';
/** The HTTP basic credential the mock accepts, and the driver sends where only basic lets in. */
const BASIC = 'corpus:k';
/** A start-up that takes longer is given up (the mock is left to finish on its own). */
const START_TIMEOUT_MS = 120_000;

export interface DocumentReport {
  slug: string;
  format: string;
  operations: number;
  /** Collections the driver reads in the description (the mock does not list its own). */
  collections: number;
  /** The CRUD steps those collections offer: what a mock that serves them all would pass. */
  plannedSteps: number;
  started: boolean;
  /** Why the mock did not start: its one-line message. */
  reason?: string;
  startMs?: number;
  drive?: DriveResult;
  /** The driver could not read the document (a corpus problem, not the mock's). */
  readError?: string;
}

/** The first line of an error, paths shown relative to the working folder. */
function firstLine(err: unknown): string {
  const text = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
  return text.replaceAll(`${process.cwd()}/`, '');
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function reportOn(entry: CorpusEntry): Promise<DocumentReport> {
  const base = { slug: entry.slug, format: entry.format, operations: entry.operations };
  let loaded;
  try {
    loaded = await loadDocument(rootPathOf(entry));
  } catch (err) {
    return { ...base, collections: 0, plannedSteps: 0, started: false, readError: firstLine(err) };
  }
  const found = findCollections(operationsOf(loaded.resolved));
  const collections = found.length;
  const plannedSteps = found.reduce((sum, collection) => sum + stepsOf(collection), 0);
  const started = Date.now();
  let mock: RunningMock;
  try {
    mock = await withTimeout(
      // Relative, so that messages naming the file read the same on any machine.
      startMock({
        spec: relative(process.cwd(), rootPathOf(entry)),
        port: 0,
        apiKeys: [API_KEY],
        basic: [BASIC],
      }),
      START_TIMEOUT_MS,
      'start-up',
    );
  } catch (err) {
    return { ...base, collections, plannedSteps, started: false, reason: firstLine(err) };
  }
  const startMs = Date.now() - started;
  try {
    const drive = await driveApi({
      baseUrl: mock.url,
      document: loaded.resolved,
      credentials: credentialsFor(loaded.resolved, API_KEY, BASIC),
    });
    return { ...base, collections, plannedSteps, started: true, startMs, drive };
  } finally {
    await mock.close();
  }
}

function stepsOf(collection: Collection): number {
  const { create, list, read, replace, update, remove } = collection;
  return [create, list, read, replace, update, remove].filter(Boolean).length;
}

function pad(text: string | number, width: number, left = false): string {
  const value = String(text);
  return left ? value.padEnd(width) : value.padStart(width);
}

function table(reports: DocumentReport[]): string {
  const header = [
    pad('document', 18, true),
    pad('format', 11, true),
    pad('ops', 4),
    pad('started', 8, true),
    pad('colls', 5),
    pad('steps', 5),
    pad('crud pass/sent', 14),
    pad('blocked', 7),
    pad('calls', 5),
    pad('2xx', 4),
    pad('4xx', 4),
    pad('5xx', 4),
    pad('no ans', 6),
  ].join(' ');
  const rows = reports.map((report) => {
    const s = report.drive?.summary;
    return [
      pad(report.slug, 18, true),
      pad(report.format, 11, true),
      pad(report.operations, 4),
      pad(report.started ? `yes ${((report.startMs ?? 0) / 1000).toFixed(1)}s` : 'no', 8, true),
      pad(report.collections, 5),
      pad(report.plannedSteps, 5),
      pad(s ? `${s.crudPassed}/${s.crudAttempted}` : '-', 14),
      pad(s ? s.crudBlocked : '-', 7),
      pad(s ? s.requests : '-', 5),
      pad(s ? s.status2xx : '-', 4),
      pad(s ? s.status4xx : '-', 4),
      pad(s ? s.status5xx : '-', 4),
      pad(s ? s.noAnswer : '-', 6),
    ].join(' ');
  });
  return [header, '-'.repeat(header.length), ...rows].join('\n');
}

function totals(reports: DocumentReport[]): string {
  const started = reports.filter((report) => report.started);
  const sum = (pick: (report: DocumentReport) => number): number =>
    reports.reduce((total, report) => total + pick(report), 0);
  const crudSent = sum((r) => r.drive?.summary.crudAttempted ?? 0);
  const crudPassed = sum((r) => r.drive?.summary.crudPassed ?? 0);
  return [
    `documents: ${reports.length}, started: ${started.length}`,
    `collections (driver's reading): ${sum((r) => r.collections)} in all documents (${sum((r) => r.plannedSteps)} CRUD steps), ${started.reduce((t, r) => t + r.collections, 0)} in started ones`,
    `CRUD steps passed: ${crudPassed}/${crudSent} sent (${sum((r) => r.drive?.summary.crudBlocked ?? 0)} blocked for want of an id)`,
    `requests: ${sum((r) => r.drive?.summary.requests ?? 0)}, 5xx answers: ${sum((r) => r.drive?.summary.status5xx ?? 0)}, no answer: ${sum((r) => r.drive?.summary.noAnswer ?? 0)}`,
  ].join('\n');
}

/** Start-up failures, then per started document its failing answers grouped by reason. */
function reasons(reports: DocumentReport[]): string {
  const kinds = new Map<string, number>();
  for (const report of reports.filter((r) => !r.started && r.reason)) {
    const kind = (report.reason ?? '')
      .replace(/test\/fixtures\/corpus\/\S+/g, '<file>')
      .replace(/security scheme "[^"]*"/, 'security scheme "<name>"')
      .replace(/ of \S+ cannot/, ' of <operation> cannot')
      .replace(/: Circular .*/, '');
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const lines: string[] = ['', 'Start-up failures by kind:'];
  for (const [kind, count] of [...kinds].sort((a, b) => b[1] - a[1]))
    lines.push(`  ${String(count).padStart(3)} x ${kind}`);
  lines.push('', 'Not started:');
  for (const report of reports.filter((r) => !r.started))
    lines.push(
      `  ${report.slug}: ${report.readError ? `(unreadable) ${report.readError}` : report.reason}`,
    );
  lines.push(
    '',
    'Failures of started documents (CRUD steps, then other calls answered 5xx or not at all):',
  );
  for (const report of reports.filter((r) => r.drive)) {
    const drive = report.drive as DriveResult;
    const groups = new Map<string, string[]>();
    const add = (key: string, operation: string): void => {
      groups.set(key, [...(groups.get(key) ?? []), operation]);
    };
    for (const step of drive.collections.flatMap((collection) => collection.steps)) {
      if (step.outcome !== 'passed')
        add(`${step.step} ${step.outcome}: ${step.reason ?? ''}`, step.operation);
    }
    for (const call of drive.calls) {
      if (call.status === undefined || call.status >= 500)
        add(
          `other call: ${call.error ?? `answered ${call.status}${call.detail ? `: ${call.detail}` : ''}`}`,
          call.operation,
        );
    }
    lines.push(`  ${report.slug}:${groups.size === 0 ? ' none' : ''}`);
    for (const [key, operations] of [...groups]
      .sort((a, b) => b[1].length - a[1].length)
      .slice(0, 10)) {
      const shown = operations.slice(0, 3).join(', ') + (operations.length > 3 ? ', ...' : '');
      lines.push(`    ${String(operations.length).padStart(3)} x ${key} (${shown})`);
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const slugs = args.filter((arg) => !arg.startsWith('--'));
  const entries = (await readManifest()).filter(
    (entry) => slugs.length === 0 || slugs.includes(entry.slug),
  );
  const reports: DocumentReport[] = [];
  for (const entry of entries) {
    if (!json) process.stderr.write(`${entry.slug}...\n`);
    reports.push(await reportOn(entry));
  }
  if (json) {
    console.log(JSON.stringify(reports, null, 2));
    return;
  }
  console.log(table(reports));
  console.log('');
  console.log(totals(reports));
  console.log(reasons(reports));
}

await main();
