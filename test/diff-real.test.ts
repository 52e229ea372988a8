// `petstore-kit diff` on pairs of consecutive versions from real repository history
// (../shared/corpus/diff-real): each pair's verdict, breaking or compatible, as its expect.txt says.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diffDocuments } from '../src/diff/document-diff.js';
import { loadSpec } from '../src/openapi/load.js';

const CORPUS = fileURLToPath(new URL('../../shared/corpus/diff-real/', import.meta.url));
const pairs = existsSync(CORPUS) ? readdirSync(CORPUS).sort() : [];

/** The one file of a side (`old.yaml`, `new.json`...). */
function sideOf(folder: string, side: 'old' | 'new'): string {
  const name = readdirSync(folder).find((file) => file.startsWith(`${side}.`));
  if (name === undefined) throw new Error(`${folder} has no ${side}.* file`);
  return join(folder, name);
}

// The corpus lies beside the project's checkout, not in it: a checkout without it has nothing to run.
describe.skipIf(pairs.length === 0)('petstore-kit diff on real history', () => {
  it.each(pairs)('%s', async (pair) => {
    const folder = join(CORPUS, pair);
    const expected = readFileSync(join(folder, 'expect.txt'), 'utf8').trim();
    const old = await loadSpec(sideOf(folder, 'old'));
    const now = await loadSpec(sideOf(folder, 'new'));
    const changes = diffDocuments(old.resolved, now.resolved);
    const breaking = changes.filter((change) => change.level === 'breaking');
    const verdict = breaking.length > 0 ? 'breaking' : 'compatible';
    expect(verdict, breaking.map((change) => `${change.id}: ${change.message}`).join('\n')).toBe(
      expected,
    );
  });
});
