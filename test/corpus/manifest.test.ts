// The corpus is what its manifest says: every document present, measured as recorded.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDocument } from './document.js';
import { CORPUS_DIR, readManifest, rootPathOf } from './manifest.js';
import { operationsOf } from './operations.js';
import { TRAIT_MEANINGS, traitsOf } from './traits.js';

const entries = await readManifest();

describe('the corpus manifest', () => {
  it('lists at least 18 documents of every format, each in a folder of its own', async () => {
    expect(entries.length).toBeGreaterThanOrEqual(18);
    expect(new Set(entries.map((entry) => entry.slug)).size).toBe(entries.length);
    const formats = entries.map((entry) => entry.format);
    expect(formats.filter((format) => format === 'swagger-2.0').length).toBeGreaterThanOrEqual(3);
    expect(formats.filter((format) => format === 'openapi-3.1').length).toBeGreaterThanOrEqual(3);
    expect(formats.filter((format) => format === 'openapi-3.0').length).toBeGreaterThanOrEqual(3);
    const folders = (await readdir(CORPUS_DIR, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual(entries.map((entry) => entry.slug).sort());
    for (const entry of entries) {
      expect(entry.file.startsWith(`${entry.slug}/`), entry.slug).toBe(true);
      expect(
        entry.source.npm && entry.source.version && entry.licence.package,
        entry.slug,
      ).toBeTruthy();
      for (const trait of entry.traits)
        expect(TRAIT_MEANINGS, `${entry.slug}: ${trait}`).toHaveProperty([trait]);
    }
  });

  it('keeps the corpus small enough for a repository', async () => {
    let total = 0;
    for (const entry of entries) {
      const files = await readdir(join(CORPUS_DIR, entry.slug), {
        recursive: true,
        withFileTypes: true,
      });
      for (const file of files.filter((candidate) => candidate.isFile())) {
        const { size } = await stat(join(file.parentPath, file.name));
        expect(size, `${entry.slug}/${file.name}`).toBeLessThanOrEqual(4 * 1024 * 1024);
        total += size;
      }
    }
    expect(total).toBeLessThanOrEqual(15 * 1024 * 1024);
  });

  it.each(entries.map((entry) => [entry.slug, entry] as const))(
    '%s is measured as recorded (format, bytes, operations, traits)',
    async (_, entry) => {
      const loaded = await loadDocument(rootPathOf(entry));
      const sizes = await Promise.all(loaded.files.map(async (file) => (await stat(file)).size));
      expect({
        format: loaded.format,
        bytes: sizes.reduce((sum, size) => sum + size, 0),
        files: loaded.files.length,
        operations: operationsOf(loaded.resolved).length,
        traits: traitsOf(loaded),
      }).toEqual({
        format: entry.format,
        bytes: entry.bytes,
        files: entry.files,
        operations: entry.operations,
        traits: entry.traits,
      });
    },
  );
});
