// `npm start`, `npm run contract` and `npm run test:corpus` run the built CLI: build only the
// parts of dist/ that are missing or older than what they are built from, so that a start
// does not pay for a rebuild it does not need. A fresh clone has no dist/: it builds whole.
// File times only: a check of a few milliseconds.
import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir`, except those below the folders in `skip`. */
function filesOf(dir, skip = []) {
  return readdirSync(dir, { recursive: true })
    .map((file) => join(dir, file))
    .filter((file) => !skip.some((folder) => file.startsWith(join(dir, folder))));
}

/** Whether the oldest of `outputs` (a missing one: never built) is no older than every input. */
function isFresh(outputs, inputs) {
  const built = Math.min(
    ...outputs.map((file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -Infinity),
  );
  return inputs.every((file) => statSync(file).mtimeMs <= built);
}

// The server: tsc over src/ and over the contract suite, and the browser bundle of petstore-kit/msw. `npm run build` starts from an empty dist/, so that the output
// of a deleted source never lingers, and builds the inspector too.
const server = isFresh(
  [
    'dist/cli/bin.js',
    'dist/index.js',
    'dist/bundles/msw.browser.js',
    'dist/contract-tests/suite.js',
  ],
  [
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    ...filesOf('src'),
    ...filesOf('contract-tests'),
  ],
);
// The inspector page: its sources, and the types generated from the admin API's spec.
const inspector = isFresh(
  ['dist/inspector/main.js', 'dist/inspector/index.html'],
  ['spec/admin.yaml', ...filesOf('inspector', ['generated'])],
);

if (!server) execSync('npm run build', { stdio: 'inherit' });
else if (!inspector) execSync('npm run build:inspector', { stdio: 'inherit' });
