// The browser bundle's build (scripts/build-browser.mjs) reads a YAML file imported from src/
// as the object it holds.
declare module '*.yaml' {
  const document: unknown;
  export default document;
}
