// The types of real descriptions (the repository's corpus up to 600 KB, every version of
// OpenAPI among them) compile under strict with TypeScript 5 and 7, and a typed call over each
// `paths` typechecks. `npm run types:corpus` does the same for the whole corpus or any folder.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeDocuments } from '../scripts/types-corpus.js';

const CORPUS = join(import.meta.dirname, 'fixtures/corpus');
/** Larger documents are left to `npm run types:corpus`: compiling them takes minutes. */
const MOST_BYTES = 600 * 1024;

describe('the types of real descriptions', () => {
  it('compile with TypeScript 5 and 7, with a typed call over their paths', async () => {
    const manifest = JSON.parse(await readFile(join(CORPUS, 'manifest.json'), 'utf8')) as {
      file: string;
      bytes: number;
    }[];
    const files = manifest
      .filter((entry) => entry.bytes <= MOST_BYTES)
      .map((entry) => join(CORPUS, entry.file));
    expect(files.length).toBeGreaterThan(10);
    const typed = await typeDocuments(files);
    const failures = typed
      .filter((document) => document.ts5.length + document.ts7.length > 0)
      .map((document) => ({ file: document.file, ts5: document.ts5, ts7: document.ts7 }));
    expect(failures).toEqual([]);
    // Many documents, compiled twice, on a busy machine.
  }, 600_000);
});
