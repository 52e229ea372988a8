// A dev server with no proxy: the page's `/v1` calls are answered by the mock in the page (MSW).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // The project lives in a temporary folder: no cache of optimized dependencies to share.
  cacheDir: 'node_modules/.vite-msw-app',
});
