export { typesModule } from './generate.js';
export { typeOptions } from './options.js';
export type { TypeOptions } from './options.js';
