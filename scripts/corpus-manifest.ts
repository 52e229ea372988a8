// Fills the measured fields of test/fixtures/corpus/manifest.json from the documents
// themselves: title, format, API version, syntax, bytes, files, operations, traits, and the
// document's own licence. The fields typed by hand (slug, kind, file, source, the package's
// licence) are kept as they are.
//
//   npx tsx scripts/corpus-manifest.ts          # rewrite manifest.json
//   npx tsx scripts/corpus-manifest.ts --check  # exit 1 if it is not up to date
import { readFile, stat, writeFile } from 'node:fs/promises';
import { isObject, loadDocument, type JsonObject } from '../test/corpus/document.js';
import {
  MANIFEST_PATH,
  readManifest,
  rootPathOf,
  type CorpusEntry,
  type CorpusLicence,
} from '../test/corpus/manifest.js';
import { operationsOf } from '../test/corpus/operations.js';
import { traitsOf } from '../test/corpus/traits.js';

function documentLicence(document: JsonObject): string | undefined {
  const info = isObject(document.info) ? document.info : {};
  const licence = isObject(info.license) ? info.license : undefined;
  if (!licence) return undefined;
  const name = typeof licence.name === 'string' ? licence.name : '';
  const id = typeof licence.identifier === 'string' ? ` (${licence.identifier})` : '';
  return `${name}${id}` || undefined;
}

async function measure(entry: CorpusEntry): Promise<CorpusEntry> {
  const loaded = await loadDocument(rootPathOf(entry));
  const info = isObject(loaded.raw.info) ? loaded.raw.info : {};
  const sizes = await Promise.all(loaded.files.map(async (file) => (await stat(file)).size));
  const licence: CorpusLicence = { package: entry.licence.package };
  const own = documentLicence(loaded.raw);
  if (own) licence.document = own;
  if (entry.licence.upstream) licence.upstream = entry.licence.upstream;
  // The order of the keys is the order the manifest shows them in.
  return {
    slug: entry.slug,
    title: typeof info.title === 'string' ? info.title : entry.slug,
    kind: entry.kind,
    file: entry.file,
    format: loaded.format,
    apiVersion: String(info.version ?? ''),
    syntax: loaded.syntax,
    bytes: sizes.reduce((sum, size) => sum + size, 0),
    files: loaded.files.length,
    operations: operationsOf(loaded.resolved).length,
    source: entry.source,
    licence,
    traits: traitsOf(loaded),
  };
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const entries = await readManifest();
  const measured: CorpusEntry[] = [];
  for (const entry of entries) {
    const last = await measure(entry);
    measured.push(last);
    console.log(
      `${last.slug.padEnd(20)} ${last.format.padEnd(12)} ${String(last.bytes).padStart(8)} B ` +
        `${String(last.operations).padStart(5)} ops  ${last.traits.join(' ')}`,
    );
  }
  const text = `${JSON.stringify(measured, null, 2)}\n`;
  if (check) {
    const current = await readFile(MANIFEST_PATH, 'utf8');
    if (current !== text) {
      console.log('manifest.json is not up to date: run npx tsx scripts/corpus-manifest.ts');
      process.exitCode = 1;
    }
    return;
  }
  await writeFile(MANIFEST_PATH, text);
}

await main();
