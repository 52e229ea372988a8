// Issue 47, item 5: the docs' app, built for production as `vite build` builds it, ships none of
// the mock. docs/frontend.md starts MSW through a dynamic import() under import.meta.env.DEV;
// the snippet it had before imported MSW, petstore-kit/msw and the spec statically, and shipped
// them all (945 kB of JavaScript instead of 221 kB in the app).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { docsAppProject, type FrontendProject } from './frontend-project.js';

/** What only the mock's code holds: MSW's worker script, petstore-kit's session header. */
const MOCK_MARKERS = ['mockServiceWorker.js', 'Mock-Session'];

/** The template's own main.tsx: the app with no mock at all. */
const PLAIN_MAIN = `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import App from './App.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`;

/** docs/frontend.md's main.tsx before issue 47: the mock imported statically. */
const STATIC_MAIN = `import { setupWorker } from 'msw/browser';
import { mockHandlers } from 'petstore-kit/msw';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App from './App.tsx';
import spec from './mocks/openapi.json';

if (import.meta.env.DEV) {
  const mock = await mockHandlers({ spec, seedCount: 5 });
  await setupWorker(...mock.handlers).start({ onUnhandledRequest: 'bypass' });
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`;

interface Built {
  /** Bytes of JavaScript, and gzipped. */
  bytes: number;
  gzipped: number;
  /** The mock's markers found in it. */
  markers: string[];
}

let project: FrontendProject;

beforeAll(async () => {
  project = await docsAppProject(2);
}, 120_000);

afterAll(() => project?.remove());

/** `vite build` of the project with this main.tsx (the docs' own when none). */
async function build(main?: string): Promise<Built> {
  if (main !== undefined) await writeFile(join(project.dir, 'src/main.tsx'), main);
  const { code, output } = await project.run(process.execPath, [
    join(project.dir, 'node_modules/vite/bin/vite.js'),
    'build',
    '--logLevel',
    'warn',
  ]);
  expect(code, output).toBe(0);
  const assets = join(project.dir, 'dist/assets');
  const files = (await readdir(assets)).filter((name) => name.endsWith('.js'));
  const code_ = await Promise.all(files.map((name) => readFile(join(assets, name))));
  const all = Buffer.concat(code_);
  return {
    bytes: all.length,
    gzipped: code_.reduce((sum, file) => sum + gzipSync(file).length, 0),
    markers: MOCK_MARKERS.filter((marker) => all.includes(marker)),
  };
}

it('ships none of the mock in a production build: as small as the app without it, unlike the static import', async () => {
  const docs = await build();
  const plain = await build(PLAIN_MAIN);
  const statically = await build(STATIC_MAIN);
  const sizes = `docs' app ${kB(docs)}, without the mock ${kB(plain)}, with the static import ${kB(statically)}`;
  expect(docs.markers, sizes).toEqual([]);
  // The docs' app has a few hundred bytes more: the DEV branch is gone, not its import's shim.
  expect(docs.bytes, sizes).toBeLessThan(plain.bytes * 1.02 + 1024);
  // Not vacuous: the static import ships the mock, and its markers are seen.
  expect(statically.markers, sizes).toContain('Mock-Session');
  expect(statically.bytes, sizes).toBeGreaterThan(plain.bytes * 2);
  console.log(`production build: ${sizes}`);
}, 240_000);

function kB({ bytes, gzipped }: Built): string {
  return `${(bytes / 1000).toFixed(1)} kB JS (${(gzipped / 1000).toFixed(1)} kB gzipped)`;
}
