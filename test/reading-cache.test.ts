// Where the mock remembers what it read of documents (issue 28): in the user's cache folder, so
// that a reading survives `npm ci` (which deletes node_modules, and node_modules/.cache with it),
// and a folder shared by every project keeps only the readings used last.
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readingCacheFolder } from '../src/openapi/cache-folder.js';
import { hideDataRefsSeeing } from '../src/openapi/data-refs.js';
import { codeIdOf, loadSpec } from '../src/openapi/load.js';
import { tempFolder } from './temp-folders.js';

const PROJECT = fileURLToPath(new URL('../', import.meta.url));

describe('the folder of remembered readings', () => {
  it("is the user's cache folder, as each system has it, outside the project's node_modules", () => {
    expect(readingCacheFolder({}, 'linux', '/home/ann')).toBe(
      '/home/ann/.cache/petstore-kit/readings',
    );
    expect(readingCacheFolder({ XDG_CACHE_HOME: '/var/cache/ann' }, 'linux', '/home/ann')).toBe(
      '/var/cache/ann/petstore-kit/readings',
    );
    expect(readingCacheFolder({}, 'darwin', '/Users/ann')).toBe(
      '/Users/ann/Library/Caches/petstore-kit/readings',
    );
    expect(readingCacheFolder({ LOCALAPPDATA: '/c/Users/ann/AppData/Local' }, 'win32', '/c')).toBe(
      '/c/Users/ann/AppData/Local/petstore-kit/readings',
    );
    // What a CI job caches, or a test isolates, instead.
    expect(readingCacheFolder({ PETSTORE_KIT_CACHE_DIR: '/ci/cache' }, 'linux', '/home/ci')).toBe(
      '/ci/cache',
    );
    expect(readingCacheFolder({ PETSTORE_KIT_CACHE_DIR: undefined })).not.toContain(
      join(PROJECT, 'node_modules'),
    );
  });

  it('keeps the 32 readings used last, however many documents it is given', async () => {
    const cache = await tempFolder('readings');
    const folder = await tempFolder('documents');
    const past = Date.now() - 3_600_000;
    const dated = async (name: string, ms: number) =>
      utimes(join(cache, name), new Date(ms), new Date(ms));
    // Readings of 32 other documents, read one a second an hour ago, oldest first.
    const others = Array.from({ length: 32 }, (_, i) => `loaded-other-${i}`);
    for (const [i, name] of others.entries()) {
      await writeFile(join(cache, name), '');
      await dated(name, past + i * 1000);
    }
    const read = async (title: string) => {
      const path = join(folder, `${title}.yaml`);
      await writeFile(path, `openapi: 3.1.0\ninfo: {title: ${title}, version: "1"}\npaths: {}\n`);
      const before = new Set(await readdir(cache));
      await loadSpec(path, { checkCache: cache });
      return { path, reading: (await readdir(cache)).find((name) => !before.has(name)) };
    };
    const first = await read('first');
    let left = await readdir(cache);
    expect(left).toHaveLength(32);
    expect(left).toContain(first.reading);
    expect(left).not.toContain(others[0]);
    // The first reading, dated older than all, is used again (now): it is kept, and the least
    // recently used goes when another document comes.
    await dated(first.reading as string, past - 1000);
    await loadSpec(first.path, { checkCache: cache });
    const second = await read('second');
    left = await readdir(cache);
    expect(left).toHaveLength(32);
    expect(left).toEqual(expect.arrayContaining([first.reading, second.reading]));
    expect(left).not.toContain(others[1]);
  }, 30_000);
});

describe('the key of a remembered reading', () => {
  it('changes with the code that reads, not only with the version number (a fixed reader was served the old reading)', async () => {
    const folder = await tempFolder('reader');
    await writeFile(join(folder, 'load.js'), 'export const reading = 1;\n');
    await writeFile(join(folder, 'load.d.ts'), 'export declare const reading: number;\n');
    const url = new URL(`file://${folder}/`);
    const before = codeIdOf(url);
    expect(before).toMatch(/^[0-9a-f]{16}$/);
    await writeFile(join(folder, 'load.d.ts'), '// types only: no change to what reads\n');
    expect(codeIdOf(url)).toBe(before);
    await writeFile(join(folder, 'load.js'), 'export const reading = 2;\n');
    expect(codeIdOf(url)).not.toBe(before);
  });
});

describe('looking for other files to read', () => {
  it('is needed only when a reference of the description, not of its data, names one', () => {
    const own = {
      paths: { '/a': { $ref: '#/components/pathItems/A' } },
      components: {
        schemas: { A: { example: { $ref: 'https://api.example.com/data/1' } } },
        examples: { B: { value: { $ref: 'other.json' } } },
      },
    };
    const seen = hideDataRefsSeeing(own);
    expect(seen.external).toBe(false);
    seen.restore();
    expect(own.components.schemas.A.example).toEqual({ $ref: 'https://api.example.com/data/1' });

    const split = { paths: { '/a': { $ref: 'paths/a.yaml' } } };
    expect(hideDataRefsSeeing(split).external).toBe(true);
  });
});
