// A dev server with no proxy: the page's `/v1` calls are answered by the mock in the page (MSW).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
// Copied here by the test that runs this app, from test/browser/.
import { noDependencySourceMaps } from './no-dependency-source-maps.mjs';

export default defineConfig({
  plugins: [react(), noDependencySourceMaps()],
  // The project lives in a temporary folder: no cache of optimized dependencies to share.
  cacheDir: 'node_modules/.vite-msw-app',
});
