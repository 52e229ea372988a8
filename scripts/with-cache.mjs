/* global process */
// Runs ESLint or Prettier with `--cache`, the cache kept in a folder of the Node version running
// it. Both tools put `process.version` in the hash each cached verdict is kept under, so one cache
// used by two Node versions (the machine's `node`, and Node 24 as CI runs it through
// scripts/node-binary.mjs) was thrown away at every switch: a cached lint cost as much as a first
// one (decisions/047).
// Usage: node scripts/with-cache.mjs eslint|prettier <args>...
// Exit code: the tool's.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [tool, ...args] = process.argv.slice(2);
if (tool !== 'eslint' && tool !== 'prettier') {
  process.stderr.write('usage: node scripts/with-cache.mjs eslint|prettier <args>...\n');
  process.exit(2);
}
const folder = join('node_modules', '.cache', tool, process.version);
// ESLint takes a folder (and names its file after the working folder), Prettier a file.
const location = tool === 'eslint' ? `${folder}/` : join(folder, 'cache.json');
const require = createRequire(import.meta.url);
const manifest = require.resolve(`${tool}/package.json`);
const { bin } = require(manifest);
const binPath = join(dirname(manifest), typeof bin === 'string' ? bin : bin[tool]);
// The tool's own command line, in this process: it reads process.argv and sets the exit code.
process.argv = [process.argv[0], binPath, '--cache', '--cache-location', location, ...args];
await import(pathToFileURL(binPath).href);
