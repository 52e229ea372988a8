// Writes dist/openapi/checks/openapi-<version>.cjs: the official OpenAPI check's schema of each
// version (@seriousme/openapi-schema-validator's), compiled by ajv at build time, as the package
// compiles it at run time. Compiling the 3.0 schema took 0.5-0.8 s of every cold start (Stripe,
// GitHub, Cloudflare, Box, Twilio are 3.0); loading the compiled code takes 30 ms.
// src/openapi/spec-check.ts loads it, and compiles at run time when it is missing (from src/).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const PACKAGE = '@seriousme/openapi-schema-validator';

/** The versions whose schemas compile to standalone code (3.1's `$dynamicRef` does not). */
export const PRECOMPILED_VERSIONS = ['2.0', '3.0'];

/** The check's package version, which a compiled check is only used with. */
export function checkPackageVersion() {
  return JSON.parse(readFileSync(join(packageFolder(), 'package.json'), 'utf8')).version;
}

function packageFolder() {
  return dirname(require.resolve(PACKAGE));
}

/**
 * The CommonJS module of one version's compiled check: `module.exports` is ajv's validate
 * function (errors on `.errors`, as ajv gives them), `module.exports.checkVersion` the package
 * version it was made from. Ajv and its options are the package's own (see its index.js
 * getAjvValidator): draft-04 for these versions, `strict: false`, ajv-formats, and the
 * `allErrors` specDefects asks for.
 */
export async function openApiCheckCode(version) {
  const { default: Ajv04 } = await import('ajv-draft-04');
  const { default: addFormats } = await import('ajv-formats');
  const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
  const { _ } = await import('ajv/dist/compile/codegen/index.js');
  const schema = JSON.parse(
    readFileSync(join(packageFolder(), 'schemas', `v${version}`, 'schema.json'), 'utf8'),
  );
  const ajv = new Ajv04({
    allErrors: true,
    strict: false,
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats(ajv);
  ajv.addFormat('media-range', true);
  const code = standaloneCode(ajv, ajv.compile(schema));
  return `${code}\nmodule.exports.checkVersion = ${JSON.stringify(checkPackageVersion())};\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const folder = fileURLToPath(new URL('../dist/openapi/checks/', import.meta.url));
  mkdirSync(folder, { recursive: true });
  for (const version of PRECOMPILED_VERSIONS)
    writeFileSync(join(folder, `openapi-${version}.cjs`), await openApiCheckCode(version));
}
