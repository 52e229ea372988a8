// The inspector page as the HTTP layer serves it: no credential for the page itself, the right
// content types, revalidation by ETag, a strict Content-Security-Policy, and nothing served
// but the page's own files. (The page at work is test/browser/inspector.test.ts.)
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createInspectorPage } from '../src/http/inspector-page.js';
import { ADMIN_SPEC_PATH } from '../src/openapi/bundled.js';
import { loadSpec } from '../src/openapi/load.js';
import { errors } from '../src/vocabulary/error-catalogue.js';
import { createApp, type MockApp } from '../src/wiring/create-app.js';
import { expectError, KEY } from './helpers.js';
import { tempFolder } from './temp-folders.js';

const BUILT = fileURLToPath(new URL('../dist/inspector/index.html', import.meta.url));
let app: MockApp;

beforeAll(async () => {
  if (!existsSync(BUILT))
    throw new Error('dist/inspector is missing: run `npm run build` (npm test does)');
  const [spec, adminSpec] = await Promise.all([loadSpec(), loadSpec(ADMIN_SPEC_PATH)]);
  app = createApp({ spec, adminSpec, apiKeys: [KEY] });
});

describe('GET /__mock/', () => {
  it('serves the page with no credential, with a strict policy and an ETag to revalidate', async () => {
    const res = await request(app).get('/__mock/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<label for="key">API key</label>');
    expect(res.headers['content-security-policy']).toMatch(
      /^default-src 'none'; script-src 'self'/,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));

    for (const tag of [res.headers.etag, `W/${res.headers.etag}`, `"other", ${res.headers.etag}`]) {
      const again = await request(app).get('/__mock/').set('If-None-Match', tag!);
      expect(again.status, tag).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(res.headers.etag);
    }
    expect((await request(app).get('/__mock/').set('If-None-Match', '"stale"')).status).toBe(200);

    const head = await request(app).head('/__mock/');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(res.headers['content-length']);
    expect(head.text).toBeUndefined();
  });

  it('serves its scripts, styles and icon with their types', async () => {
    for (const [file, type] of [
      ['main.js', 'text/javascript; charset=utf-8'],
      ['api.js', 'text/javascript; charset=utf-8'],
      ['inspector.css', 'text/css; charset=utf-8'],
      ['favicon.svg', 'image/svg+xml'],
    ]) {
      const res = await request(app).get(`/__mock/${file}`).buffer(true);
      expect(res.status, file).toBe(200);
      expect(res.headers['content-type'], file).toBe(type);
      expect(res.headers.etag, file).toBeDefined();
      // Only the page itself carries the policy; its files are not documents.
      expect(res.headers['content-security-policy'], file).toBeUndefined();
    }
  });

  it('redirects /__mock to /__mock/ by a relative Location, which holds under any mount point', async () => {
    const res = await request(app).get('/__mock');
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe('__mock/');
    expect((await request(app).get('/__mock?x=1')).headers.location).toBe('__mock/?x=1');
  });

  it('leaves everything else to the admin API: other files, other methods, paths out of the folder', async () => {
    expectError(await request(app).get('/__mock/nope.js'), 401);
    expectError(
      await request(app).get('/__mock/nope.js').set('Authorization', `Bearer ${KEY}`),
      404,
    );
    expectError(await request(app).post('/__mock/'), 401);
    for (const path of ['/__mock/..%2Fpackage.json', '/__mock/%2e%2e/package.json', '/__mock/.env'])
      expect((await request(app).get(path)).headers['content-type'], path).toMatch(
        /^application\/json/,
      );
    // The admin API itself still needs its key.
    expectError(await request(app).get('/__mock/requests'), 401);
  });

  it('is not served where there is no admin API', async () => {
    const spec = await loadSpec();
    const bare = createApp({ spec, apiKeys: [KEY] });
    expectError(await request(bare).get('/__mock/'), 404);
  });
});

describe('before the page is built', () => {
  it('answers /__mock/ with a 404 saying how to build it', async () => {
    const directory = await tempFolder('no-page');
    const step = createInspectorPage({ basePath: '/__mock', directory });
    const outcome = step(
      { method: 'GET', url: '/__mock/', headers: {} } as IncomingMessage,
      {} as ServerResponse,
    );
    expect(outcome).toMatchObject({ status: 404, code: errors.inspectorNotBuilt.code });
    expect((outcome as Error).message).toContain('npm run build');
    // Its files are left to the admin API, which answers them as any unknown path.
    expect(
      step(
        { method: 'GET', url: '/__mock/main.js', headers: {} } as IncomingMessage,
        {} as ServerResponse,
      ),
    ).toBe('continue');
  });
});
