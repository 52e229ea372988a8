// The contract suite imports a few leaf modules of src/ (the judge, formats, media types, stream
// events): none may reach the reading of a document, which loads the OpenAPI upgrader (bundled
// only into the mock's own build, so the packed suite would import a package it does not
// depend on) and slows the suite's first request.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runtimeSpecifiers } from './architecture-imports.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The files of src/ the suite's modules load when they run, types-only imports aside. */
async function reachedFromSuite(): Promise<Set<string>> {
  const seen = new Set<string>();
  const pending = (await readdir(join(ROOT, 'contract-tests'), { recursive: true }))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => `contract-tests/${name.split('\\').join('/')}`);
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(join(ROOT, file), 'utf8');
    for (const specifier of runtimeSpecifiers(file, text)) {
      if (!specifier.startsWith('.')) continue;
      pending.push(
        relative(
          ROOT,
          normalize(join(dirname(join(ROOT, file)), specifier.replace(/\.js$/, '.ts'))),
        ),
      );
    }
  }
  return new Set([...seen].filter((file) => file.startsWith('src/')));
}

it('the contract suite loads no module of src/ that reads a document', async () => {
  const reached = await reachedFromSuite();
  expect(reached.size).toBeGreaterThan(0);
  expect(
    [...reached].filter((file) => /openapi\/(load|upgrade|swagger-upgrader)\.ts$/.test(file)),
  ).toEqual([]);
});
