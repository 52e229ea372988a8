import { LocalSides } from './local-side-data.js';
import {
  StoreNoScopesError,
  type Collection,
  type CollectionDescriptor,
  type SideData,
  type StateBackend,
  type Store,
} from './store.js';

/**
 * A whole state backend from a store that implements only the records (Store): its records
 * are the given store's, its side data (scenario settings, request log) is kept in this
 * process, and it keeps no scopes, so the mock it serves answers that it has no sessions.
 * The mock applies it to a custom store given as `store` that lacks the rest (see stateBackend).
 * @example createMock({ spec, store: withLocalSideData(myRecordStore) });
 */
export function withLocalSideData(store: Store): StateBackend {
  const sides = new LocalSides();
  return {
    shared: false,
    collection: (descriptor: CollectionDescriptor): Collection => store.collection(descriptor),
    count: () => store.count(),
    markInitial: () => store.markInitial(),
    reset: () => store.reset(),
    close: () => store.close(),
    scope(): Store {
      throw new StoreNoScopesError();
    },
    scopeNames: async () => [],
    dropScope: async () => false,
    async touchScope() {
      throw new StoreNoScopesError();
    },
    scopeUsage: async () => [],
    sideData: (scope?: string): SideData => sides.of(scope),
  };
}

/**
 * The state backend of a store: itself when it implements one in full (the memory, file and
 * Redis stores do), else the records it implements with the rest from withLocalSideData.
 * @example stateBackend(createMemoryStore()).sideData() // the main state's documents and lists
 */
export function stateBackend(store: Store | StateBackend): StateBackend {
  const full = store as Partial<StateBackend>;
  const complete =
    typeof full.shared === 'boolean' &&
    typeof full.sideData === 'function' &&
    typeof full.scope === 'function' &&
    typeof full.scopeUsage === 'function' &&
    typeof full.touchScope === 'function' &&
    typeof full.dropScope === 'function' &&
    typeof full.scopeNames === 'function';
  return complete ? (store as StateBackend) : withLocalSideData(store);
}
