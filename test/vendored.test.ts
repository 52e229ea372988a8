// The libraries bundled at build (scripts/build-vendored.mjs), as a user gets them: faker's
// English locale gives the same values as the package, no shipped file imports or declares faker,
// and raw-body works without iconv-lite (its stand-in decodes with TextDecoder).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type * as RawBody from '../src/http/raw-body.js';
import type * as realistic from '../src/openapi/realistic.js';
import { animalKinds, seededFaker } from '../src/openapi/realistic.js';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

beforeAll(() => {
  if (!existsSync(`${DIST}openapi/english-faker.js`))
    throw new Error(
      'dist/openapi/english-faker.js is missing: run `npm run build` (npm test does)',
    );
});

describe('the bundled libraries', () => {
  it('give the same seeded faker values as the faker package', async () => {
    const built = (await import(
      new URL('openapi/realistic.js', `file://${DIST}`).href
    )) as typeof realistic;
    for (const seed of [1, 7, 42]) {
      const [ours, theirs] = [built.seededFaker(seed), seededFaker(seed)];
      expect([ours.book.title(), ours.book.author()]).toEqual([
        theirs.book.title(),
        theirs.book.author(),
      ]);
      expect(built.animalKinds(12, built.seededFaker(seed))).toEqual(
        animalKinds(12, seededFaker(seed)),
      );
    }
  });

  it('leave no shipped file importing or declaring faker', () => {
    const shipped = filesUnder(DIST).filter((file) => /\.(d\.ts|js|cjs)$/.test(file));
    const naming = shipped.filter((file) =>
      /(from\s*|import\s*\(\s*|require\s*\(\s*)["']@faker-js\//.test(readFileSync(file, 'utf8')),
    );
    expect(naming).toEqual([]);
  });

  it('read a body with raw-body and no iconv-lite inside', async () => {
    const bundle = readFileSync(`${DIST}http/raw-body.js`, 'utf8');
    expect(bundle).not.toMatch(/node_modules\/iconv-lite\//);
    const { readRawBody } = (await import(
      new URL('http/raw-body.js', `file://${DIST}`).href
    )) as typeof RawBody;
    const bytes = await readRawBody(
      Readable.from([Buffer.from('caf'), Buffer.from([0xc3, 0xa9])]),
      {
        length: 5,
        limit: 100,
      },
    );
    expect(bytes.toString('utf8')).toBe('café');
    // raw-body's `encoding` option, which readRawBody never passes, now decodes with TextDecoder.
    const text = await readRawBody(Readable.from([Buffer.from([0xc3]), Buffer.from([0xa9])]), {
      limit: 100,
      encoding: 'utf-8',
    } as never);
    expect(text).toBe('é');
    await expect(
      readRawBody(Readable.from([Buffer.from('x')]), { limit: 100, encoding: 'nope' } as never),
    ).rejects.toMatchObject({ status: 415, type: 'encoding.unsupported' });
  });
});
