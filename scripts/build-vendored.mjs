// Replaces tsc's output for a few wrapper modules by one module each with its library inside
// (a devDependency, then), so that a user's install does not get the packages behind it:
// @scalar/openapi-upgrader requires @scalar/openapi-types and zod (8 MB, only its types use
// them), qs 21 small packages, raw-body 10. Each file's banner names what it holds; their
// licences are in <file>.LICENSES.txt beside it.
import { build } from 'esbuild';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Each wrapper module, compiled by tsc to the same path under dist/. */
const WRAPPERS = [
  'src/openapi/swagger-upgrader.ts',
  'src/core/nested-query.ts',
  'src/http/raw-body.ts',
];

/** The packages whose files a bundle took in, as name@version with their folders. */
async function packagesIn(inputs) {
  const folders = new Set();
  for (const input of Object.keys(inputs)) {
    const found = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (found) folders.add(join(ROOT, found[1]));
  }
  const packages = [];
  for (const folder of [...folders].sort()) {
    const { name, version } = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'));
    const licence = (await readdir(folder)).find((file) => /^(licen[cs]e|copying)/i.test(file));
    const text = licence ? await readFile(join(folder, licence), 'utf8') : '(no licence file)';
    packages.push({ id: `${name}@${version}`, text });
  }
  return packages;
}

for (const wrapper of WRAPPERS) {
  const outfile = join(ROOT, 'dist', wrapper.replace(/^src\//, '').replace(/\.ts$/, '.js'));
  const { metafile } = await build({
    entryPoints: [join(ROOT, wrapper)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // CommonJS libraries inside call require() for Node's modules.
    banner: {
      js: "import { createRequire as __vendoredRequire } from 'node:module';\nconst require = __vendoredRequire(import.meta.url);",
    },
    allowOverwrite: true,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const packages = await packagesIn(metafile.inputs);
  const licences = packages.map(({ id, text }) => `${id}\n\n${text.trim()}\n`).join('\n---\n\n');
  await writeFile(`${outfile}.LICENSES.txt`, licences);
  const code = await readFile(outfile, 'utf8');
  const named = packages.map(({ id }) => id).join(', ');
  const shown = relative(join(ROOT, 'dist'), outfile);
  await writeFile(
    outfile,
    `/*! ${shown} bundles ${named}: their licences in ${shown.split('/').pop()}.LICENSES.txt */\n${code}`,
  );
}
