// Replaces tsc's dist/openapi/swagger-upgrader.js by one module with @scalar/openapi-upgrader
// inside (a devDependency, then): its package requires @scalar/openapi-types and zod, which
// only its types use, 8 MB of a user's install. Its licence (MIT) goes in the file's banner.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const at = (path) => join(import.meta.dirname, '..', path);
// Its exports name no ./package.json: the folder where npm installs it.
const upgrader = at('node_modules/@scalar/openapi-upgrader');
const { version } = JSON.parse(await readFile(join(upgrader, 'package.json'), 'utf8'));
const licence = await readFile(join(upgrader, 'LICENSE'), 'utf8');

await build({
  entryPoints: [at('src/openapi/swagger-upgrader.ts')],
  outfile: at('dist/openapi/swagger-upgrader.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  allowOverwrite: true,
  banner: {
    js: `/*! @scalar/openapi-upgrader ${version}, bundled.\n${licence.trim().replaceAll('*/', '* /')}\n*/`,
  },
  logLevel: 'warning',
});
