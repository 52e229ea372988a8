#!/usr/bin/env node
// Prints the imports between the folders of src/ (the ladder of ARCHITECTURE.md), as
// "from -> to (count)", from the import statements of the TypeScript sources.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const src = fileURLToPath(new URL('../src/', import.meta.url));

function* files(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) yield path;
  }
}

/** The top folder of a file under src/ (`core`, `http`, ...), or the file's name at the top. */
const layerOf = (path) => relative(src, path).split(sep)[0];

const edges = new Map();
for (const file of files(src)) {
  const text = readFileSync(file, 'utf8');
  for (const [, target] of text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
    const from = layerOf(file);
    const to = layerOf(resolve(dirname(file), target));
    if (from === to) continue;
    const key = `${from} -> ${to}`;
    edges.set(key, (edges.get(key) ?? 0) + 1);
  }
}
for (const [edge, count] of [...edges].sort()) process.stdout.write(`${edge} (${count})\n`);
