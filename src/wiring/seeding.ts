import type { Resource } from '../openapi/resources.js';
import type { Collection, CollectionDescriptor, Store } from '../store/store.js';

/** How many records to make for each collection, and from which seed. */
export interface SeedSettings {
  count: number;
  seed: number;
}

/** When the collections of a mock are seeded: now, or each on its first use. */
export interface Seeding {
  /**
   * The store to serve from: a collection whose seeding was deferred is seeded before its
   * first read or write, whoever makes it (a handler, a nested collection's parent check, a
   * test reading the store).
   */
  readonly store: Store;
  /**
   * Seeds these collections now; or, when seeding is deferred and no names are given, marks
   * every collection to be seeded on first use.
   */
  seed(settings: SeedSettings, only?: readonly string[]): Promise<void>;
  /** Back to the start-up state: deferred collections are seeded again on their next use. */
  reset(): Promise<void>;
  /** The collections still waiting for their first use, with the settings asked for. */
  readonly waiting: { names: readonly string[]; settings: SeedSettings } | undefined;
}

export interface SeedingOptions {
  store: Store;
  resources: readonly Resource[];
  /** Fills one collection (of the store given above, which the seeding store wraps). */
  seedOne(resource: Resource, settings: SeedSettings): Promise<void>;
  /** Where a resource's records are kept in the store. */
  descriptorOf(resource: Resource): CollectionDescriptor;
  /** Seed each collection on its first use rather than when asked: a large spec's start-up. */
  deferred: boolean;
  /** A seeding this one takes over (a reloaded spec): its collections still waiting go on waiting. */
  carried?: Seeding['waiting'];
}

/**
 * A large spec's collections are seeded when first used: generating records for dozens of
 * collections of large schemas takes seconds a start-up should not spend on collections no
 * one calls. The records are the same either way (each collection draws from its own seeded
 * sequence), and a reset seeds them again on their next use, as it would restore them.
 * @example const seeding = createSeeding({ store, resources, seedOne, deferred: true }); await seeding.seed({ count: 10, seed: 1 });
 */
export function createSeeding(options: SeedingOptions): Seeding {
  const { store } = options;
  const byName = new Map(options.resources.map((resource) => [resource.name, resource]));
  let settings: SeedSettings | undefined = options.carried?.settings;
  /** The deferred collections: waiting (no promise yet) or being seeded. */
  const deferred = new Map<string, Promise<void> | undefined>(
    (options.carried?.names ?? [])
      .filter((name) => byName.has(name))
      .map((name) => [name, undefined]),
  );

  /** Settles before the collection's first use; undefined once it is seeded. */
  function ready(name: string): Promise<void> | undefined {
    if (!deferred.has(name) || !settings) return undefined;
    let seeding = deferred.get(name);
    if (!seeding) {
      const resource = byName.get(name) as Resource;
      seeding = options.seedOne(resource, settings).finally(() => {
        if (deferred.get(name) === seeding) deferred.delete(name);
      });
      deferred.set(name, seeding);
    }
    return seeding;
  }

  const seedingStore: Store = {
    collection(descriptor) {
      const collection = store.collection(descriptor);
      return deferred.has(descriptor.name)
        ? afterSeeding(collection, descriptor, ready)
        : collection;
    },
    count: () => store.count(),
    markInitial: () => store.markInitial(),
    async reset() {
      await store.reset();
      if (!settings || !options.deferred) return;
      // Those empty at the start-up state wait for their first use again; the others (seeded
      // before a reloaded spec marked its state) are back as they were.
      for (const [name, resource] of byName) {
        const records = await store.collection(options.descriptorOf(resource)).list();
        if (records.length === 0) deferred.set(name, undefined);
      }
    },
    close: () => store.close(),
  };

  return {
    store: seedingStore,
    async seed(asked, only) {
      settings = asked;
      if (options.deferred && !only) {
        for (const name of byName.keys()) deferred.set(name, undefined);
        return;
      }
      for (const name of only ?? byName.keys()) {
        deferred.delete(name);
        const resource = byName.get(name);
        if (resource) await options.seedOne(resource, asked);
      }
    },
    reset: () => seedingStore.reset(),
    get waiting() {
      return settings && deferred.size > 0 ? { names: [...deferred.keys()], settings } : undefined;
    },
  };
}

/** A collection whose every method first waits for its seeding. */
function afterSeeding(
  collection: Collection,
  descriptor: CollectionDescriptor,
  ready: (name: string) => Promise<void> | undefined,
): Collection {
  const first = async (): Promise<void> => {
    await ready(descriptor.name);
  };
  return {
    descriptor: collection.descriptor,
    list: () => first().then(() => collection.list()),
    get: (id) => first().then(() => collection.get(id)),
    create: (fields, id) => first().then(() => collection.create(fields, id)),
    update: (id, change) => first().then(() => collection.update(id, change)),
    remove: (id) => first().then(() => collection.remove(id)),
  };
}
