/* global process */
// docs/recipes.md's dev server: the page calls its own origin, `/v1`, which Vite forwards to the mock.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
// Copied here by the test that runs this app, from test/browser/.
import { noDependencySourceMaps } from './no-dependency-source-maps.mjs';

export default defineConfig({
  plugins: [react(), noDependencySourceMaps()],
  // The project lives in a temporary folder: no cache of optimized dependencies to share.
  cacheDir: 'node_modules/.vite-proxy-app',
  server: {
    proxy: { '/v1': process.env.MOCK_ORIGIN ?? 'http://127.0.0.1:4010' },
  },
});
