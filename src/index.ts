// petstore-kit as a library (`import { startMock } from 'petstore-kit'`): the mock for a
// frontend's test setup, and the pieces to build it into another server. Every type an option
// refers to is exported here, each option's default once (DEFAULTS), and every error class the
// functions document; a store's own bookkeeping types (entry codecs, list bounds, scope usage)
// are not: `Store` is what a user implements.
export { startMock, type RunningMock } from './wiring/start-mock.js';
export { startProxy, type ProxyOptions, type RunningProxy } from './wiring/start-proxy.js';
export type { Violation, ViolationList, ViolationLog } from './core/proxy/violations.js';
export { createApp, type AppOptions, type MockApp } from './wiring/create-app.js';
export type { Mock } from './core/create-mock.js';
export {
  DEFAULT_API_KEY,
  DEFAULT_BASIC_CREDENTIAL,
  DEFAULTS,
  validateOptions,
  type CorsSetting,
  type CustomHandler,
  type CustomHandlerContext,
  type MockOptions,
  type StorageOption,
} from './wiring/options.js';
export { createMockServer, DEFAULT_SERVER_LIMITS, type ServerLimits } from './http/server.js';
export type { Logger } from './http/logger.js';
export type { HandlerContext, HandlerRequest } from './core/handler.js';
export { descriptorOf } from './core/resources/descriptor.js';
export type { ScenarioSettings } from './core/scenarios/settings.js';
export type { SchemeSummary } from './core/security.js';
export { ADMIN_SPEC_PATH } from './openapi/bundled.js';
export { loadSpec, SpecError, type LoadedSpec, type LoadSpecOptions } from './openapi/load.js';
export type { Operation } from './openapi/operations.js';
export type {
  Envelope,
  ListParameters,
  Paging,
  Resource,
  ResourceAction,
} from './openapi/resources.js';
export type { StabilityLevel } from './openapi/stability.js';
export { openFileStore, type FileStore, type FileStoreOptions } from './store/file-store.js';
export { DataFileError } from './store/data-file.js';
export {
  createMemoryStore,
  type MemoryStore,
  type MemoryStoreOptions,
} from './store/memory-store.js';
// Redis's client is loaded by the first openRedisStore (or startMock with `redis`), never here.
export { openRedisStore } from './store/open-redis.js';
export { REDIS_STORE_DEFAULTS, RedisError } from './store/redis-defaults.js';
export type { RedisStore, RedisStoreOptions } from './store/redis-store.js';
export {
  DEFAULT_STORE_LIMITS,
  StoreDiskFullError,
  StoreFullError,
  StoreNoScopesError,
  StoreUnavailableError,
  type Collection,
  type CollectionDescriptor,
  type SideData,
  type StateBackend,
  type Store,
  type StoreLimits,
  type StoreUnavailableOutcome,
  type StoredRecord,
} from './store/store.js';
export { withLocalSideData } from './store/with-local-side-data.js';
export type { Answer, FaultKind } from './vocabulary/answer.js';
export { ApiError, StartupError, type ErrorBody } from './vocabulary/errors.js';
export { startupErrors } from './vocabulary/error-catalogue.js';
export type { IdKind, RecordId } from './vocabulary/record.js';
