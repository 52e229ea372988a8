// The official OpenAPI check's schema is compiled at build time (scripts/build-openapi-checks.mjs):
// compiling the 3.0 schema at start-up took 0.5-0.8 s of every cold start. The check compiled
// ahead must find exactly what the package's own finds, on valid and defective documents.
import { createRequire } from 'node:module';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JavaScript, without declarations.
import * as checks from '../scripts/build-openapi-checks.mjs';
import { tempFolder } from './temp-folders.js';

const { openApiCheckCode, PRECOMPILED_VERSIONS } = checks as {
  openApiCheckCode(version: string): Promise<string>;
  PRECOMPILED_VERSIONS: string[];
};

type Check = ((document: unknown) => boolean) & { errors?: unknown; checkVersion?: string };

const DOCUMENTS: Record<string, Record<string, unknown>> = {
  '3.0 valid': {
    openapi: '3.0.3',
    info: { title: 'A', version: '1' },
    paths: { '/a': { get: { responses: { '200': { description: 'ok' } } } } },
  },
  '3.0 defective': {
    openapi: '3.0.3',
    info: { title: 'A' },
    paths: {
      '/a': { get: { responses: { '200': { content: {} } }, parameters: [{ name: 'x' }] } },
    },
    components: { schemas: { Bad: { type: 'thing', format: 7, properties: [] } } },
  },
  '2.0 defective': {
    swagger: '2.0',
    info: { version: '1' },
    paths: { '/a': { get: { responses: { '200': {} } } } },
    host: 'http://not-a-host/',
  },
};

async function precompiledCheck(version: string): Promise<Check> {
  const folder = await tempFolder('checks');
  const path = join(folder, `openapi-${version}.cjs`);
  await writeFile(path, await openApiCheckCode(version));
  // Written outside the project: the code's own require()s resolve from here.
  const require = createRequire(join(process.cwd(), 'package.json'));
  const code = await readFile(path, 'utf8');
  const module = { exports: {} as Check };
  new Function('module', 'exports', 'require', code)(module, module.exports, require);
  return module.exports;
}

describe('the OpenAPI check compiled at build time', () => {
  it.each(Object.entries(DOCUMENTS))(
    'finds what the check compiled at run time finds: %s',
    async (name, document) => {
      const version = typeof document.swagger === 'string' ? '2.0' : '3.0';
      const precompiling = await precompiledCheck(version);
      const atRunTime = (
        new Validator({ allErrors: true }) as unknown as {
          getAjvValidator(version: string): Check;
        }
      ).getAjvValidator(version);
      const valid = atRunTime(document);
      expect(precompiling(document)).toBe(valid);
      expect(precompiling.errors ?? null).toEqual(atRunTime.errors ?? null);
      expect(valid).toBe(!name.includes('defective'));
    },
  );

  it('is made for the versions whose schemas ajv compiles standalone, tagged with the check version', async () => {
    expect(PRECOMPILED_VERSIONS).toEqual(['2.0', '3.0']);
    const precompiling = await precompiledCheck('3.0');
    const require = createRequire(import.meta.url);
    expect(precompiling.checkVersion).toBe(
      (require('@seriousme/openapi-schema-validator/package.json') as { version: string }).version,
    );
  });
});
