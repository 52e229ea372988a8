// Builds dist/bundles/msw.browser.js: petstore-kit/msw for a page (MSW's setupWorker), one ES module
// with its libraries inside and msw left to the app (its peer). The core imports Node's modules
// in a few places; here each is replaced by its browser stand-in in src/browser/ (and load.ts and
// bundled.ts by theirs beside them), so Node runs the very modules it always ran.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';

const at = (path) => join(import.meta.dirname, '..', path);

/** Node's modules (and busboy) the core imports, and what a page gets in their place. */
const STAND_INS = {
  'node:crypto': 'src/browser/node-crypto.ts',
  'node:buffer': 'src/browser/node-buffer.ts',
  'node:http': 'src/browser/node-http.ts',
  'node:timers/promises': 'src/browser/node-timers-promises.ts',
  'node:async_hooks': 'src/browser/node-async-hooks.ts',
  busboy: 'src/browser/busboy.ts',
};

/** The core's own modules that read files, and their stand-ins beside them. */
const OWN_STAND_INS = [/\/src\/openapi\/load\.ts$/, /\/src\/openapi\/bundled\.ts$/];

const standIns = {
  name: 'browser-stand-ins',
  setup(builder) {
    builder.onResolve({ filter: /^(node:|busboy$)/ }, ({ path, importer }) => {
      const standIn = STAND_INS[path];
      if (standIn) return { path: at(standIn) };
      throw new Error(`${importer} imports ${path}, which has no browser stand-in`);
    });
    // The sources import each other as .js; their stand-ins are found once resolved.
    builder.onResolve({ filter: /\/(load|bundled)\.js$/ }, async (args) => {
      if (args.pluginData === 'stand-in') return undefined;
      const found = await builder.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'stand-in',
      });
      if (found.errors.length > 0 || !OWN_STAND_INS.some((own) => own.test(found.path)))
        return found;
      return { path: found.path.replace(/\.ts$/, '.browser.ts') };
    });
    builder.onLoad({ filter: /\.yaml$/ }, async ({ path }) => ({
      contents: JSON.stringify(parse(await readFile(path, 'utf8'))),
      loader: 'json',
    }));
  },
};

await build({
  entryPoints: [at('src/msw-browser.ts')],
  outfile: at('dist/bundles/msw.browser.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  external: ['msw'],
  inject: [at('src/browser/buffer-global.ts')],
  plugins: [standIns],
  legalComments: 'linked',
  logLevel: 'warning',
});
