export { typesModule } from './generate.js';
export type { TypeSource } from './generate.js';
export { TYPE_OPTIONS, typeOptions } from './options.js';
export type { TypeOptions } from './options.js';
