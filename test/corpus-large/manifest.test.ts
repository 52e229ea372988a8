// The large corpus is what its manifest pins: every document and licence byte for byte (their
// sha256), measured as recorded, listed in its README, and small enough for a repository.
import { readdir, readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { HTTP_METHODS } from '../corpus/operations.js';
import {
  isRepositorySource,
  LARGE_CORPUS_DIR,
  licencePathOf,
  pathOf,
  readLargeManifest,
  sha256Of,
} from './documents.js';
import { readKnownFailures } from './expectations.js';

const documents = await readLargeManifest();

describe('the large corpus', () => {
  it('pins each document and its licence by sha256, from a commit or a package version', async () => {
    expect(documents.map((document) => document.slug).sort()).toEqual(
      ['box', 'cloudflare', 'discord', 'github', 'openai', 'stripe', 'twilio-api-v2010'].sort(),
    );
    for (const document of documents) {
      const bytes = await readFile(pathOf(document));
      expect(bytes.length, document.slug).toBe(document.bytes);
      expect(sha256Of(bytes), document.slug).toBe(document.sha256);
      expect(sha256Of(await readFile(licencePathOf(document))), document.slug).toBe(
        document.licenceSha256,
      );
      const { source } = document;
      if (isRepositorySource(source))
        expect(source.commit, document.slug).toMatch(/^[0-9a-f]{40}$/);
      else expect(source.version, document.slug).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  // Parsing 20 MB of JSON and YAML takes a while on a busy machine.
  it('counts the operations each document has', { timeout: 120_000 }, async () => {
    for (const document of documents) {
      const text = await readFile(pathOf(document), 'utf8');
      const parsed = (document.file.endsWith('.json') ? JSON.parse(text) : parse(text)) as {
        paths: Record<string, Record<string, unknown>>;
      };
      const operations = Object.values(parsed.paths).flatMap((item) =>
        Object.keys(item).filter((key) => (HTTP_METHODS as readonly string[]).includes(key)),
      );
      expect(operations.length, document.slug).toBe(document.operations);
    }
  });

  it('has a README line for each document, and stays under 40 MB', async () => {
    const readme = await readFile(`${LARGE_CORPUS_DIR}README.md`, 'utf8');
    for (const document of documents)
      expect(readme, document.slug).toContain(`| \`${document.slug}\` |`);
    const files = await readdir(LARGE_CORPUS_DIR, { recursive: true, withFileTypes: true });
    let total = 0;
    for (const file of files.filter((entry) => entry.isFile()))
      total += (await readFile(`${file.parentPath}/${file.name}`)).length;
    expect(total).toBeLessThan(40 * 1024 * 1024);
  });

  it('lists known failures only of documents it has, each with a reason', async () => {
    const known = await readKnownFailures();
    const slugs = new Set(documents.map((document) => document.slug));
    for (const [slug, listed] of Object.entries(known.documents)) {
      expect(slugs.has(slug), slug).toBe(true);
      for (const reason of Object.values(listed.document ?? {}))
        expect(reason.length).toBeGreaterThan(10);
      for (const [operation, entry] of Object.entries(listed.operations ?? {}))
        expect(entry.reason.length, `${slug} ${operation}`).toBeGreaterThan(10);
    }
  });
});
