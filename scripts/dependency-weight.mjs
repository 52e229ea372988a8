#!/usr/bin/env node
/* global process, console */
// What each runtime dependency weighs in this repository's node_modules: the packages it
// brings (itself and every package it needs, by package-lock.json), and their bytes on disk,
// then the same for all of them together (shared packages counted once). Used to choose what
// to cut from "dependencies" (docs/development.md, "What an install weighs").
//
// Usage: node scripts/dependency-weight.mjs [--without name,name]
//   --without leaves dependencies out of the total, as if they were removed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
const entries = lock.packages;

/** The lockfile path a package named `name` resolves to from the package at `from`, as Node finds it. */
function resolve(from, name) {
  let base = from;
  for (;;) {
    const path = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (entries[path]) return path;
    if (!base) return undefined;
    const at = base.lastIndexOf('/node_modules/');
    base = at === -1 ? '' : base.slice(0, at);
  }
}

/** Bytes of a package's own files (its nested node_modules left to their own entries). */
function bytesOf(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesOf(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** The package and all it needs on this platform: dependencies, optional ones installed, required peers. */
function closure(start) {
  const seen = new Set();
  const stack = [start];
  while (stack.length > 0) {
    const path = stack.pop();
    // An optional dependency for another platform (fsevents) is in the lockfile, not on disk.
    if (path === undefined || seen.has(path) || !existsSync(join(ROOT, path))) continue;
    seen.add(path);
    const entry = entries[path];
    for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }))
      stack.push(resolve(path, name));
    for (const name of Object.keys(entry.peerDependencies ?? {}))
      if (!entry.peerDependenciesMeta?.[name]?.optional) stack.push(resolve(path, name));
  }
  return seen;
}

const megabytes = (paths) =>
  ([...paths].reduce((sum, path) => sum + bytesOf(join(ROOT, path)), 0) / 1e6).toFixed(2);

const at = process.argv.indexOf('--without');
const without = at === -1 ? [] : process.argv[at + 1].split(',');
const all = new Set();
const rows = [];
for (const name of Object.keys(entries[''].dependencies ?? {})) {
  const paths = closure(resolve('', name));
  if (!without.includes(name)) for (const path of paths) all.add(path);
  rows.push({ name, packages: paths.size, megabytes: megabytes(paths) });
}
rows.sort((a, b) => b.megabytes - a.megabytes);
console.log('| dependency | packages it brings | MB on disk |\n| --- | ---: | ---: |');
for (const row of rows) console.log(`| ${row.name} | ${row.packages} | ${row.megabytes} |`);
const left = without.length > 0 ? ` (without ${without.join(', ')})` : '';
console.log(`\nall together${left}: ${all.size} packages, ${megabytes(all)} MB`);
