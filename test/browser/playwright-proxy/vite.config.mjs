/* global process */
// docs/recipes.md's dev server: the page calls its own origin, `/v1`, which Vite forwards to the mock.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The dev server inlines each pre-bundled dependency's source map in the module it serves (React's
 * development build: 3.1 MB a page instead of 0.9), for a debugger no test opens. The app stays
 * the development build; its modules come without their maps.
 */
function noDependencySourceMaps() {
  let deps = '';
  return {
    name: 'no-dependency-source-maps',
    apply: 'serve',
    enforce: 'post',
    configResolved: (config) => void (deps = `${config.cacheDir}/deps/`),
    // An empty `mappings` is Vite's "no map": it then adds none, not even its fallback.
    transform: (code, id) => (id.startsWith(deps) ? { code, map: { mappings: '' } } : undefined),
  };
}

export default defineConfig({
  plugins: [react(), noDependencySourceMaps()],
  // The project lives in a temporary folder: no cache of optimized dependencies to share.
  cacheDir: 'node_modules/.vite-proxy-app',
  server: {
    proxy: { '/v1': process.env.MOCK_ORIGIN ?? 'http://127.0.0.1:4010' },
  },
});
