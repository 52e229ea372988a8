// The corpus of real API descriptions under test/fixtures/corpus/, as its manifest lists them.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder that holds the corpus: one sub-folder per document, and manifest.json. */
export const CORPUS_DIR = fileURLToPath(new URL('../fixtures/corpus/', import.meta.url));

export const MANIFEST_PATH = join(CORPUS_DIR, 'manifest.json');

export type DocumentFormat = 'swagger-2.0' | 'openapi-3.0' | 'openapi-3.1' | 'openapi-3.2';

/** Where a document was taken from: a file inside a package of the npm registry. */
export interface CorpusSource {
  /** The package name, e.g. `@readme/oas-examples`. */
  npm: string;
  version: string;
  /** The root document's path inside the package. */
  path: string;
  /** A multi-file document: the package folder copied whole, its structure kept. */
  folder?: string;
  /** How the package ships the file when not as plain text. */
  unpack?: 'gunzip';
  /** Where the package says the document comes from. */
  upstream: string;
}

export interface CorpusLicence {
  /** The package's licence (its `license` field, or its LICENSE file). */
  package: string;
  /** The document's own `info.license`, when it has one. */
  document?: string;
  /** The licence of the upstream project, when the package says it and the document does not. */
  upstream?: string;
}

/** One document of the corpus. */
export interface CorpusEntry {
  slug: string;
  /** The document's `info.title`. */
  title: string;
  /** Who publishes the API and what kind of API it is. */
  kind: string;
  /** The root document, relative to the corpus folder. */
  file: string;
  format: DocumentFormat;
  /** `info.version`. */
  apiVersion: string;
  syntax: 'json' | 'yaml';
  /** The size of every file of the document together. */
  bytes: number;
  /** How many files the document is made of (more than 1 for a multi-file document). */
  files: number;
  /** Operations (path + method) in `paths`, once external `$ref`s are followed. */
  operations: number;
  source: CorpusSource;
  licence: CorpusLicence;
  /** Short tags of what the document exercises, found by scripts/corpus-manifest.ts. */
  traits: string[];
}

export async function readManifest(path: string = MANIFEST_PATH): Promise<CorpusEntry[]> {
  return JSON.parse(await readFile(path, 'utf8')) as CorpusEntry[];
}

/** The absolute path of an entry's root document. */
export function rootPathOf(entry: Pick<CorpusEntry, 'file'>): string {
  return join(CORPUS_DIR, entry.file);
}

/** The folder holding an entry's files. */
export function folderOf(entry: Pick<CorpusEntry, 'slug'>): string {
  return join(CORPUS_DIR, entry.slug);
}
