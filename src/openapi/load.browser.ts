// load.ts in the browser bundle: a page has no files to read. Its documents are given as
// objects and read by specFromDocument; what the core imports of load.ts is only SpecError.
export { SpecError } from './spec-error.js';
