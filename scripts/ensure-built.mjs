// `npm run contract` runs the built CLI: build only when dist/ is missing or older than what
// it is built from, so that a contract run does not pay for a rebuild it does not need.
import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';

const built = statSync('dist/cli/bin.js', { throwIfNoEntry: false });
const inputs = [
  'spec/openapi.yaml',
  'spec/admin.yaml',
  'tsconfig.json',
  'tsconfig.build.json',
  ...readdirSync('src', { recursive: true }).map((file) => `src/${file}`),
];
const fresh = built && inputs.every((file) => statSync(file).mtimeMs <= built.mtimeMs);
if (!fresh) execSync('npm run build', { stdio: 'inherit' });
