// The largest public API descriptions, pinned under test/fixtures/corpus-large/ as its
// manifest.json says: where each was taken from (a repository at a commit, or a package of the
// npm registry at a version), and the sha256 of its bytes and of its licence.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR_VARIABLE, readingCacheFolder } from '../../src/openapi/cache-folder.js';

/** The folder that holds the large corpus: one sub-folder per document, and manifest.json. */
export const LARGE_CORPUS_DIR = fileURLToPath(
  new URL('../fixtures/corpus-large/', import.meta.url),
);

/** A file of a public repository, at a commit. */
export interface RepositorySource {
  /** `owner/name` on GitHub. */
  repository: string;
  /** The full commit the file was read at. */
  commit: string;
  /** The document's path in the repository. */
  path: string;
  /** The licence file's path in the repository, at the same commit. */
  licencePath: string;
}

/** A file inside a package of the npm registry, at a version. */
export interface PackageSource {
  npm: string;
  version: string;
  /** The document's path inside the package. */
  path: string;
  /** The licence file's path inside the package. */
  licencePath: string;
  /** Where the package says the document comes from. */
  upstream: string;
}

export interface LargeDocument {
  slug: string;
  /** `info.title`. */
  title: string;
  /** The document, relative to the large corpus folder. */
  file: string;
  format: 'openapi-3.0' | 'openapi-3.1';
  /** The `openapi` field as written. */
  openapi: string;
  apiVersion: string;
  bytes: number;
  /** Of the document's bytes, as committed. */
  sha256: string;
  /** Path + method pairs in `paths`. */
  operations: number;
  source: RepositorySource | PackageSource;
  /** The licence of the repository or package, and the document's own `info.license`. */
  licence: { repository?: string; package?: string; document?: string };
  /** Of `<slug>/LICENSE`, as committed. */
  licenceSha256: string;
}

export const LARGE_MANIFEST_PATH = join(LARGE_CORPUS_DIR, 'manifest.json');

export async function readLargeManifest(): Promise<LargeDocument[]> {
  return JSON.parse(await readFile(LARGE_MANIFEST_PATH, 'utf8')) as LargeDocument[];
}

export function isRepositorySource(
  source: RepositorySource | PackageSource,
): source is RepositorySource {
  return 'repository' in source;
}

/**
 * The folder the mocks a corpus run starts remember their readings in, and the one its cold
 * starts empty: one of the run's own (a user's cache folder is shared with every project), set
 * for the mocks it starts through PETSTORE_KIT_CACHE_DIR, unless the variable names one already.
 */
export function corpusReadingCache(): string {
  process.env[CACHE_DIR_VARIABLE] ??= join(tmpdir(), 'petstore-kit-corpus-large-readings');
  return readingCacheFolder();
}

/** The absolute path of a document. */
export function pathOf(document: Pick<LargeDocument, 'file'>): string {
  return resolve(LARGE_CORPUS_DIR, document.file);
}

/** The absolute path of a document's licence file. */
export function licencePathOf(document: Pick<LargeDocument, 'slug'>): string {
  return join(LARGE_CORPUS_DIR, document.slug, 'LICENSE');
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
