import type { Resource } from '../openapi/resources.js';
import type { Collection, CollectionDescriptor, StateBackend, Store } from '../store/store.js';

/** How many records to make for each collection, and from which seed. */
export interface SeedSettings {
  count: number;
  seed: number;
}

/** What a spec seeds: its collections, and how one is filled. */
interface SeedPlan {
  resources: readonly Resource[];
  /** Where a resource's records are kept in a store. */
  descriptorOf(resource: Resource): CollectionDescriptor;
  /** Fills one collection of `store` (a state: the default one, or a session's). */
  seedOne(resource: Resource, settings: SeedSettings, store: Store): Promise<void>;
}

/** Seeding on first use: see lazySeeding. */
export interface LazySeeding {
  /** The store to serve from: the one given, each of its collections seeded on first use. */
  readonly store: StateBackend;
  /** The collections to seed, and how: a reloaded spec's app gives its own. */
  plan(plan: SeedPlan): void;
  /** From now on, a collection found empty on its first use is seeded with these settings. */
  defer(settings: SeedSettings): void;
}

/**
 * A large spec's collections are seeded on first use rather than at start-up: generating
 * records for dozens of collections of large schemas takes seconds a start-up should not spend
 * on collections no one calls. A collection is filled the first time anything reads or writes
 * it (a handler, a nested collection's check of its parent, a test reading the store), if it is
 * empty then; the records are the ones start-up would have made (each collection draws from
 * its own seeded sequence). A reset, and a session's state (a scope, copied from the start-up
 * state), start over: their collections are seeded on their first use again.
 * @example const seeding = lazySeeding(store); seeding.plan(plan); seeding.defer({ count: 10, seed: 1 });
 */
export function lazySeeding(store: StateBackend): LazySeeding {
  let plan: SeedPlan | undefined;
  let settings: SeedSettings | undefined;
  let byName = new Map<string, Resource>();

  /** One state's store: its collections, each seeded (if empty) before its first use. */
  function seeded(inner: Store): Store {
    const first = new Map<string, Promise<void>>();
    /** The collections seeded (or found full): served as they are, without a wait. */
    const seededNames = new Set<string>();
    const ready = (name: string): Promise<void> | undefined => {
      const resource = byName.get(name);
      if (!resource || !plan || !settings) return undefined;
      let done = first.get(name);
      if (!done) {
        const { descriptorOf, seedOne } = plan;
        const asked = settings;
        done = inner
          .collection(descriptorOf(resource))
          .list()
          .then((records) => (records.length === 0 ? seedOne(resource, asked, inner) : undefined))
          .then(() => {
            if (first.get(name) === done) seededNames.add(name);
          });
        first.set(name, done);
      }
      return done;
    };
    const state: Store = {
      collection(descriptor) {
        const collection = inner.collection(descriptor);
        return byName.has(descriptor.name) && settings && !seededNames.has(descriptor.name)
          ? afterSeeding(collection, () => ready(descriptor.name))
          : collection;
      },
      count: () => inner.count(),
      markInitial: () => inner.markInitial(),
      async reset() {
        await inner.reset();
        first.clear();
        seededNames.clear();
      },
      close: () => inner.close(),
    };
    return state;
  }

  /** The backend's main state seeded on first use, and each of its scopes likewise. */
  function seededBackend(backend: StateBackend): StateBackend {
    const scopes = new Map<string, Store>();
    return {
      ...seeded(backend),
      shared: backend.shared,
      scope(name) {
        let scope = scopes.get(name);
        if (!scope) scopes.set(name, (scope = seeded(backend.scope(name))));
        return scope;
      },
      scopeNames: () => backend.scopeNames(),
      async dropScope(name) {
        scopes.delete(name);
        return backend.dropScope(name);
      },
      touchScope: (name) => backend.touchScope(name),
      scopeUsage: () => backend.scopeUsage(),
      sideData: (scope) => backend.sideData(scope),
    };
  }

  return {
    store: seededBackend(store),
    plan(next) {
      plan = next;
      byName = new Map(next.resources.map((resource) => [resource.name, resource]));
    },
    defer(asked) {
      settings = asked;
    },
  };
}

/** A collection whose every method first waits for its seeding. */
function afterSeeding(collection: Collection, ready: () => Promise<void> | undefined): Collection {
  const first = async (): Promise<void> => {
    await ready();
  };
  const texts = collection.texts?.bind(collection);
  const storedTexts = collection.storedTexts?.bind(collection);
  return {
    descriptor: collection.descriptor,
    list: () => first().then(() => collection.list()),
    ...(texts ? { texts: () => first().then(texts) } : {}),
    ...(storedTexts ? { storedTexts: () => first().then(storedTexts) } : {}),
    get: (id) => first().then(() => collection.get(id)),
    create: (fields, id) => first().then(() => collection.create(fields, id)),
    update: (id, change) => first().then(() => collection.update(id, change)),
    remove: (id) => first().then(() => collection.remove(id)),
  };
}
