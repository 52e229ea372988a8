// A dev server with no proxy: the page's `/v1` calls are answered by the mock in the page (MSW).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The dev server inlines each pre-bundled dependency's source map in the module it serves: two
 * thirds of the 11 MB every page of this run loads, in a fresh context each time, for a debugger
 * no test opens. The app stays the development build; its modules come without their maps.
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
  cacheDir: 'node_modules/.vite-msw-app',
});
