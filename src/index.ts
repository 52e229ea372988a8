// petstore-kit as a library (`import { startMock } from 'petstore-kit'`): the mock for a
// frontend's test setup, and the pieces to build it into another server.
export { createApp, type AppOptions, type MockApp } from './app.js';
export { DEFAULT_API_KEY, DEFAULT_BODY_LIMIT, DEFAULT_SPEC_PATH } from './defaults.js';
export { createMockServer, DEFAULT_SERVER_LIMITS, type ServerLimits } from './http/server.js';
export type { ScenarioSettings } from './scenarios/settings.js';
export { loadSpec, SpecError, type LoadedSpec } from './spec/load.js';
export { startMock, type RunningMock, type StartMockOptions } from './start-mock.js';
export { openFileStore, type FileStore } from './state/file-store.js';
export { createMemoryStore, type MemoryStore } from './state/memory-store.js';
export type {
  Collection,
  CollectionSpec,
  Store,
  StoreLimits,
  StoredRecord,
} from './state/store.js';
export type { Category, ErrorBody, NewCategory } from './types.js';
