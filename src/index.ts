// petstore-kit as a library (`import { startMock } from 'petstore-kit'`): the mock for a
// frontend's test setup, and the pieces to build it into another server.
export { createApp, DEFAULT_BODY_LIMIT, type AppOptions } from './app.js';
export { DEFAULT_API_KEY } from './cli/cli.js';
export { DEFAULT_SPEC_PATH, loadSpec, SpecError, type LoadedSpec } from './spec/load.js';
export { startMock, type StartedMock, type StartMockOptions } from './start-mock.js';
export { createMemoryStore, type CategoryStore } from './state/store.js';
export type { Category, ErrorBody, NewCategory } from './types.js';
