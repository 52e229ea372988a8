// `npm run test:corpus`: the mock started on each of the largest public API descriptions
// (test/fixtures/corpus-large/), every operation called once with a valid request, and the
// run judged: no 5xx but the mock's named unsatisfiable-schema answer, every answer within
// CALL_TIMEOUT_MS, the mock's RSS under RSS_BOUND_MB, every operation called within the
// document's budget. Failures known today are listed, with their reasons, in
// known-failures.json; one not listed fails the run, and so does one listed that now passes.
//
//   npm run test:corpus                                  # all documents, the built mock (dist/)
//   npm run test:corpus -- --only stripe,box             # some
//   npm run test:corpus -- --json runs.json              # also every call's outcome, as JSON
//   npm run test:corpus -- --mock /path/to/dist/cli/bin.js --keep-cache
//   npm run test:corpus -- --only stripe --update-known  # rewrite the list from this run
//   npm run test:corpus -- --settle-ms 120000            # call once the mock's precompiling is done
//   npm run test:corpus -- --file ~/specs/vendor.yaml     # any document, judged with no known failure
import { writeFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadDocument } from '../corpus/document.js';
import { operationsOf } from '../corpus/operations.js';
import { corpusReadingCache, readLargeManifest, type LargeDocument } from './documents.js';
import {
  judge,
  knownFromRuns,
  KNOWN_FAILURES_PATH,
  readKnownFailures,
  type Bounds,
} from './expectations.js';
import { probeDocument, type DocumentRun } from './probe.js';
import { FIRST_CALL_TARGET_MS, slowCallsOf, summarize, tableOf } from './table.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** An answer later than this is a hang: 20 s, ten times the slowest first call on a quiet machine (Stripe, 2 s), so that a busy CI machine does not fail a slow answer. */
const CALL_TIMEOUT_MS = 20_000;
/**
 * The mock's peak RSS over a document's whole run, every operation called once and each
 * collection seeded with 2 records: issue 45's 300 MB. Cloudflare's, the highest, peaked at
 * 304-313 MB before the CLI bounded the old generation's growth and malloc's arenas, and at
 * 262-270 MB since, on Node 24 (decisions/062).
 */
const BOUNDS: Bounds = { rssMb: 300 };
/** Past this RSS the watchdog kills the mock (the run's guard, not the bound judged). */
const RSS_KILL_BYTES = 2.5 * 1024 * 1024 * 1024;
/**
 * Per document: a minute and a half, and 300 ms per operation (Cloudflare's 1,533: 9.2 min).
 * Only a document whose calls block or hang comes near it: for the six, 27 minutes at most, and
 * their starts (cold and warm) on top; 16 minutes in all on main at 30a8493 on a busy machine.
 */
function budgetMsOf(operations: number): number {
  return 90_000 + 300 * operations;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      json: { type: 'string' },
      mock: { type: 'string' },
      'keep-cache': { type: 'boolean', default: false },
      'budget-ms': { type: 'string' },
      'update-known': { type: 'boolean', default: false },
      'settle-ms': { type: 'string' },
      file: { type: 'string', multiple: true },
    },
  });
  const only = values.only?.split(',').filter(Boolean);
  const files = values.file ?? [];
  const documents =
    files.length > 0
      ? await Promise.all(files.map(documentAt))
      : (await readLargeManifest()).filter((document) => !only || only.includes(document.slug));
  const bin = values.mock ?? `${ROOT}dist/cli/bin.js`;
  // The mocks remember their readings in the run's own folder, which a cold start empties;
  // another mock (--mock) keeps its own cache, as --keep-cache keeps this one.
  const readings = corpusReadingCache();
  const cacheDir = values['keep-cache'] || values.mock ? undefined : readings;
  // A document of one's own has no known failures: any is one.
  const listed = await readKnownFailures();
  const known = files.length > 0 ? { ...listed, documents: {} } : listed;
  const runs: DocumentRun[] = [];
  for (const document of documents) {
    const run = await probeDocument(document, {
      bin,
      cwd: ROOT,
      callTimeoutMs: CALL_TIMEOUT_MS,
      budgetMs: values['budget-ms'] ? Number(values['budget-ms']) : budgetMsOf(document.operations),
      rssLimitBytes: RSS_KILL_BYTES,
      ...(cacheDir ? { cacheDir } : {}),
      ...(values['settle-ms'] ? { settleMs: Number(values['settle-ms']) } : {}),
      log: (line) => console.log(line),
    });
    runs.push(run);
    console.log(
      `${document.slug}: ${run.calls.length} calls in ${Math.round(run.wallMs / 1000)} s` +
        (run.notStarted ? `, not started: ${run.notStarted}` : ''),
    );
    if (values.json) await writeFile(values.json, `${JSON.stringify(runs, null, 2)}\n`);
  }
  const allowed = new RegExp(known.allowed5xx.pattern, 'i');
  console.log(`\n${tableOf(runs.map((run) => summarize(run, allowed)))}\n`);
  for (const line of slowCallsOf(runs)) console.log(`over ${FIRST_CALL_TARGET_MS} ms: ${line}`);
  const verdict = judge(runs, known, BOUNDS);
  console.log(
    `bounds: every answer within ${CALL_TIMEOUT_MS} ms, peak RSS under ${BOUNDS.rssMb} MB, ` +
      'every operation called within 90 s + 300 ms per operation of its document',
  );
  console.log(
    `${verdict.known} known failure(s) still there (test/corpus-large/known-failures.json)`,
  );
  for (const line of verdict.changed) console.log(`changed class: ${line}`);
  for (const line of verdict.stale) console.log(`NOW PASSES, remove it from the list: ${line}`);
  for (const line of verdict.unexpected) console.log(`FAILED: ${line}`);
  if (values['update-known'] && files.length === 0) {
    const updated = knownFromRuns(runs, known, BOUNDS);
    await writeFile(KNOWN_FAILURES_PATH, `${JSON.stringify(updated, null, 2)}\n`);
    console.log(
      'known-failures.json rewritten from this run: review the reasons before committing',
    );
    return;
  }
  if (verdict.unexpected.length > 0 || verdict.stale.length > 0) process.exitCode = 1;
}

/** A document of one's own (`--file`), probed as the corpus's are: its slug is its file's name. */
async function documentAt(path: string): Promise<LargeDocument> {
  const file = resolve(path);
  const loaded = await loadDocument(file);
  return {
    slug: basename(file, extname(file)),
    title: file,
    file,
    format: 'openapi-3.1',
    openapi: '',
    apiVersion: '',
    bytes: 0,
    sha256: '',
    operations: operationsOf(loaded.resolved).length,
    source: { repository: '', commit: '', path: file, licencePath: '' },
    licence: {},
    licenceSha256: '',
  };
}

await main();
