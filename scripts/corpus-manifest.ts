// Fills the measured fields of test/fixtures/corpus/manifest.json from the documents
// themselves: title, format, API version, syntax, bytes, files, operations, traits, and the
// document's own licence. The fields typed by hand (slug, kind, file, source, the package's
// licence) are kept as they are. The table and the trait list of the corpus README, between
// their markers, are written from the manifest too.
//
//   npx tsx scripts/corpus-manifest.ts          # rewrite manifest.json and the README's tables
//   npx tsx scripts/corpus-manifest.ts --check  # exit 1 if either is not up to date
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isObject, loadDocument, type JsonObject } from '../test/corpus/document.js';
import {
  CORPUS_DIR,
  MANIFEST_PATH,
  readManifest,
  rootPathOf,
  type CorpusEntry,
  type CorpusLicence,
} from '../test/corpus/manifest.js';
import { operationsOf } from '../test/corpus/operations.js';
import { TRAIT_MEANINGS, traitsOf } from '../test/corpus/traits.js';

const README_PATH = join(CORPUS_DIR, 'README.md');

const FORMAT_NAMES: Record<CorpusEntry['format'], string> = {
  'swagger-2.0': 'Swagger 2.0',
  'openapi-3.0': 'OpenAPI 3.0',
  'openapi-3.1': 'OpenAPI 3.1',
  'openapi-3.2': 'OpenAPI 3.2',
};

function size(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(2)} MB`
    : `${Math.round(bytes / 1024)} KB`;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/** The README's table of documents, one row each. */
function documentTable(entries: CorpusEntry[]): string {
  const rows = entries.map((entry) => {
    const format = `${FORMAT_NAMES[entry.format]} (${entry.syntax.toUpperCase()}${entry.files > 1 ? `, ${entry.files} files` : ''})`;
    const source = `\`${entry.source.npm}@${entry.source.version}\` \`${entry.source.folder ?? entry.source.path}\``;
    const licence = [
      `package: ${entry.licence.package}`,
      ...(entry.licence.document ? [`document: ${entry.licence.document}`] : []),
      ...(entry.licence.upstream ? [`upstream: ${entry.licence.upstream}`] : []),
    ].join('; ');
    return `| [${entry.slug}](${entry.file}) | ${cell(entry.kind)} | ${format} | ${size(entry.bytes)} | ${entry.operations} | ${source} | ${cell(licence)} | ${entry.traits.join(', ')} |`;
  });
  return [
    '| document | API | format | size | ops | from (npm package, path) | licence | traits |',
    '| --- | --- | --- | ---: | ---: | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

function traitTable(entries: CorpusEntry[]): string {
  const rows = Object.entries(TRAIT_MEANINGS).map(([trait, meaning]) => {
    const holders = entries
      .filter((entry) => entry.traits.includes(trait))
      .map((entry) => entry.slug);
    return `| \`${trait}\` | ${meaning} | ${holders.length > 0 ? holders.join(', ') : '**none**'} |`;
  });
  return ['| trait | meaning | documents |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The text with what stands between `<!-- name:start -->` and `<!-- name:end -->` replaced. */
function between(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`README.md has no ${start} ... ${end} markers`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

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
  const readme = await readFile(README_PATH, 'utf8');
  const newReadme = between(
    between(readme, 'documents', documentTable(measured)),
    'traits',
    traitTable(measured),
  );
  if (check) {
    const current = await readFile(MANIFEST_PATH, 'utf8');
    for (const [name, actual, expected] of [
      ['manifest.json', current, text],
      ['README.md', readme, newReadme],
    ] as const) {
      if (actual !== expected) {
        console.log(`${name} is not up to date: run npx tsx scripts/corpus-manifest.ts`);
        process.exitCode = 1;
      }
    }
    return;
  }
  await writeFile(MANIFEST_PATH, text);
  await writeFile(README_PATH, newReadme);
}

await main();
