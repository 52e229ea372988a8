// petstore-kit as a library (`import { startMock } from 'petstore-kit'`): the mock for a
// frontend's test setup, and the pieces to build it into another server.
export { createApp, type AppOptions, type MockApp } from './wiring/create-app.js';
export { DEFAULT_API_KEY, DEFAULT_BODY_LIMIT, DEFAULT_SPEC_PATH } from './wiring/defaults.js';
export { createMockServer, DEFAULT_SERVER_LIMITS, type ServerLimits } from './http/server.js';
export type { ScenarioSettings } from './core/scenarios/settings.js';
export { loadSpec, SpecError, type LoadedSpec } from './openapi/load.js';
export { startMock, type RunningMock, type StartMockOptions } from './wiring/start-mock.js';
export { openFileStore, type FileStore } from './store/file-store.js';
export { createMemoryStore, type MemoryStore } from './store/memory-store.js';
export type {
  Collection,
  CollectionSpec,
  Store,
  StoreLimits,
  StoredRecord,
} from './store/store.js';
export type { Category, ErrorBody, NewCategory } from './types.js';
