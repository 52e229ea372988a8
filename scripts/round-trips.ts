// The share of create-read-list-update-delete round trips the mock completes on each document
// (issue 48's proof): the mock started in-process on each description, every collection the
// document itself shows (test/corpus/collections.ts, parents made first) driven through its
// steps, and the collections the mock infers (Mock.resources) driven the same way.
//
//   npx tsx scripts/round-trips.ts                      # realspecs and test/fixtures/corpus
//   npx tsx scripts/round-trips.ts --large              # and test/fixtures/corpus-large
//   npx tsx scripts/round-trips.ts --only jira,github --json rows.json --misses
//
// A round trip is one collection's steps (create, list, read, update, delete, a read after the
// delete that is 404); it is complete when each step it documents passed. Steps are counted too.
import { readdir, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import { findCollections, type Collection } from '../test/corpus/collections.js';
import { loadDocument } from '../test/corpus/document.js';
import { credentialsFor, driveApi, type DriveResult } from '../test/corpus/drive.js';
import { readManifest, rootPathOf } from '../test/corpus/manifest.js';
import { collectionsOf } from '../test/corpus/mock-collections.js';
import { operationsOf } from '../test/corpus/operations.js';
import { pathOf, readLargeManifest } from '../test/corpus-large/documents.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const REALSPECS = join(ROOT, '../shared/corpus/realspecs');
const KEY = 'k';
const BASIC = 'corpus:k';

interface Tally {
  /** Collections whose every step passed, of all collections driven. */
  complete: number;
  collections: number;
  passed: number;
  steps: number;
  status5xx: number;
  /** Each step that did not pass: `document: step outcome: operation: reason`. */
  misses: string[];
}

interface Row {
  document: string;
  started: boolean;
  error?: string;
  documented?: Tally;
  inferred?: Tally;
}

function tallyOf(document: string, result: DriveResult): Tally {
  const steps = result.collections.flatMap((collection) => collection.steps);
  return {
    complete: result.collections.filter(
      (collection) => collection.steps.length > 0 && collection.steps.every(isPassed),
    ).length,
    collections: result.collections.filter((collection) => collection.steps.length > 0).length,
    passed: steps.filter(isPassed).length,
    steps: steps.length,
    status5xx: result.summary.status5xx,
    misses: steps
      .filter((step) => !isPassed(step))
      .map(
        (step) =>
          `${document}: ${step.step} ${step.outcome}: ${step.operation}: ${step.reason ?? ''}`,
      ),
  };
}

function isPassed(step: { outcome: string }): boolean {
  return step.outcome === 'passed';
}

async function documentsOf(large: boolean): Promise<[string, string][]> {
  const real = (await readdir(REALSPECS))
    .filter((name) => /\.(ya?ml|json)$/.test(name))
    .map((name): [string, string] => [name.replace(/\.(ya?ml|json)$/, ''), join(REALSPECS, name)]);
  const corpus = (await readManifest()).map((entry): [string, string] => [
    entry.slug,
    rootPathOf(entry),
  ]);
  const big = large
    ? (await readLargeManifest()).map((entry): [string, string] => [entry.slug, pathOf(entry)])
    : [];
  return [...real, ...corpus, ...big];
}

async function measure(document: string, path: string): Promise<Row> {
  let mock: RunningMock;
  try {
    mock = await startMock({
      spec: relative(process.cwd(), path),
      port: 0,
      apiKeys: [KEY],
      basic: [BASIC],
      seedCount: 2,
    });
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
    return { document, started: false, error: message };
  }
  try {
    const loaded = await loadDocument(path);
    const operations = operationsOf(loaded.resolved);
    const drive = (collections: readonly Collection[]) =>
      driveApi({
        baseUrl: mock.url,
        document: loaded.resolved,
        credentials: credentialsFor(loaded.resolved, KEY, BASIC),
        collections,
        verify: true,
        budgetMs: 300_000,
      });
    const documented = tallyOf(document, await drive(findCollections(operations)));
    await mock.mock.reset();
    const inferred = tallyOf(document, await drive(collectionsOf(mock.mock.resources, operations)));
    return { document, started: true, documented, inferred };
  } finally {
    await mock.close();
  }
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;
}

function cells(tally: Tally | undefined): string {
  if (!tally) return ''.padEnd(44);
  return [
    `${tally.complete}/${tally.collections}`.padStart(8),
    percent(tally.complete, tally.collections).padStart(7),
    `${tally.passed}/${tally.steps}`.padStart(10),
    percent(tally.passed, tally.steps).padStart(7),
    String(tally.status5xx).padStart(4),
  ].join(' ');
}

function sum(rows: readonly Row[], key: 'documented' | 'inferred'): Tally {
  const total: Tally = {
    complete: 0,
    collections: 0,
    passed: 0,
    steps: 0,
    status5xx: 0,
    misses: [],
  };
  for (const row of rows) {
    const tally = row[key];
    if (!tally) continue;
    total.complete += tally.complete;
    total.collections += tally.collections;
    total.passed += tally.passed;
    total.steps += tally.steps;
    total.status5xx += tally.status5xx;
  }
  return total;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      large: { type: 'boolean', default: false },
      json: { type: 'string' },
      misses: { type: 'boolean', default: false },
    },
  });
  const only = values.only?.split(',').filter(Boolean);
  const documents = (await documentsOf(values.large || only !== undefined)).filter(
    ([slug]) => !only || only.some((wanted) => slug.includes(wanted)),
  );
  const rows: Row[] = [];
  for (const [slug, path] of documents) {
    const started = Date.now();
    const row = await measure(slug, path);
    rows.push(row);
    console.error(
      `${slug}: ${row.started ? 'measured' : `not started: ${row.error ?? ''}`} in ${Math.round((Date.now() - started) / 1000)} s`,
    );
    if (values.json) await writeFile(values.json, `${JSON.stringify(rows, null, 2)}\n`);
  }
  const head = 'round trips   share      steps   share  5xx';
  console.log(`${'document'.padEnd(50)} documented: ${head}   inferred: ${head}`);
  for (const row of rows)
    console.log(
      `${basename(row.document).slice(0, 50).padEnd(50)} ${
        row.started
          ? `${cells(row.documented)}             ${cells(row.inferred)}`
          : `not started: ${row.error ?? ''}`
      }`,
    );
  console.log(
    `${'total'.padEnd(50)} ${cells(sum(rows, 'documented'))}             ${cells(sum(rows, 'inferred'))}`,
  );
  if (values.misses)
    for (const row of rows)
      for (const line of [...(row.documented?.misses ?? []), ...(row.inferred?.misses ?? [])])
        console.log(line);
}

await main();
