// A Vite plugin for the test apps' dev servers (playwright-msw/, playwright-proxy/), copied beside
// their configs by the tests that run them. The dev server inlines each pre-bundled dependency's
// source map in the module it serves: two thirds of the 11 MB each page of the MSW app loads (3.1
// MB instead of 0.9 for React's development build alone), in a fresh context each time, for a
// debugger no test opens. The apps stay development builds; their modules come without maps.
export function noDependencySourceMaps() {
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
