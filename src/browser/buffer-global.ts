// The `Buffer` global the core's modules use, in a browser (the bundler injects this import).
export { Buffer } from 'buffer';
