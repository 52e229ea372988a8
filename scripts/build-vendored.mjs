// Replaces tsc's output for a few modules by the same module with the libraries it imports
// inside (devDependencies, then), so that a user's install does not get the packages behind
// them: @scalar/openapi-upgrader requires @scalar/openapi-types and zod (8 MB, only its types
// use them), qs 21 small packages, raw-body 10, fast-xml-parser 7, cors 2, busboy 1, and
// negotiator, cookie and content-type, one each, faker (3.9 MB, of which the English locale
// we use is 0.5 MB), and the workflow runner's @xmldom/xmldom (2 MB) and jsonpath-rfc9535. Its other imports stay imports. Inside raw-body, iconv-lite (its encoding
// tables, 0.5 MB, for an option we never pass) is replaced by scripts/vendored/iconv-lite.cjs,
// which decodes with Node's TextDecoder. Each file's banner names what it holds; their licences are in
// <file>.LICENSES.txt beside it. decisions/018-a-light-install.md says why.
import { build } from 'esbuild';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Each module, compiled by tsc to the same path under dist/, and the packages put inside it. */
const BUNDLED = {
  'src/openapi/swagger-upgrader.ts': ['@scalar/openapi-upgrader'],
  'src/core/nested-query.ts': ['qs'],
  'src/http/raw-body.ts': ['raw-body'],
  'src/core/xml-body.ts': ['fast-xml-parser'],
  'src/http/cors.ts': ['cors'],
  'src/core/form-body.ts': ['busboy'],
  'src/core/xml-answer.ts': ['negotiator'],
  'src/core/streams/stream-answers.ts': ['negotiator'],
  'src/core/workflow/selectors.ts': ['@xmldom/xmldom', 'jsonpath-rfc9535', 'xpath'],
  'src/core/credentials.ts': ['cookie'],
  'src/core/request-body.ts': ['content-type'],
  'src/openapi/english-faker.ts': ['@faker-js/faker'],
};

/** Packages a bundled one requires, replaced by a file of ours (see each file's comment). */
const SUBSTITUTES = {
  'iconv-lite': join(ROOT, 'scripts/vendored/iconv-lite.cjs'),
};

/** Keeps the module's other imports (its folder's modules, other packages) as imports. */
function onlyThese(packages) {
  return {
    name: 'only-these-packages',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, ({ path, kind, importer }) => {
        if (kind === 'entry-point') return undefined;
        if (Object.hasOwn(SUBSTITUTES, path)) return { path: SUBSTITUTES[path] };
        // Inside a bundled package, everything it needs comes along (Node's modules excepted).
        if (importer.includes('/node_modules/'))
          return path.startsWith('node:') ? { path, external: true } : undefined;
        if (path.startsWith('.')) return { path, external: true };
        const name = path.startsWith('@')
          ? path.split('/').slice(0, 2).join('/')
          : path.split('/')[0];
        return packages.includes(name) ? undefined : { path, external: true };
      });
    },
  };
}

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

for (const [module, names] of Object.entries(BUNDLED)) {
  const outfile = join(ROOT, 'dist', module.replace(/^src\//, '').replace(/\.ts$/, '.js'));
  const { metafile } = await build({
    entryPoints: [join(ROOT, module)],
    plugins: [onlyThese(names)],
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
    // Packages as npm installs them, not as tsconfig's `paths` points the compiler (xpath's types).
    tsconfigRaw: {},
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

// The compiler's stand-in for a package's types (tsconfig's `paths`), which compiled code never
// imports: the bundles above hold the package itself.
for (const stand of ['js', 'js.map', 'd.ts'].map((end) => `core/workflow/xpath-types.${end}`))
  await rm(join(ROOT, 'dist', stand), { force: true });
