// The behaviours every Store must have, one row per rule, run against each store we ship.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openFileStore } from '../src/store/file-store.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { openRedisStore } from '../src/store/redis-store.js';
import {
  MAX_INTEGER_ID,
  StoreFullError,
  StoreIdsExhaustedError,
  StoreKeyTakenError,
  StoreNoScopesError,
  type Collection,
  type CollectionDescriptor,
  type EntryCodec,
  type StateBackend,
  type Store,
  type StoreLimits,
} from '../src/store/store.js';
import { withLocalSideData } from '../src/store/with-local-side-data.js';
import { startRedisServer, type RedisServer } from './redis/redis-server.js';
import { redisLookup, withRedis } from './redis/with-redis.js';
import { tempFolder } from './temp-folders.js';

const pets: CollectionDescriptor = { name: 'pets', idProperty: 'id', idKind: 'integer' };
const owners: CollectionDescriptor = { name: 'owners', idProperty: 'ownerId', idKind: 'integer' };
const orders: CollectionDescriptor = { name: 'orders', idProperty: 'orderId', idKind: 'uuid' };
const tags: CollectionDescriptor = { name: 'tags', idProperty: 'slug', idKind: 'string' };
/** Keyed within an object of the record: Kubernetes' `metadata.name`, a server-set `spec.id`. */
const pods: CollectionDescriptor = {
  name: 'pods',
  idProperty: 'name',
  idWithin: ['metadata'],
  idKind: 'string',
};
const clusters: CollectionDescriptor = {
  name: 'clusters',
  idProperty: 'id',
  idWithin: ['spec'],
  idKind: 'integer',
};

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Rule {
  rule: string;
  limits?: Partial<StoreLimits>;
  check: (store: Store) => Promise<void>;
}

const rules: Rule[] = [
  {
    rule: 'integer ids count up from 1',
    check: async (store) => {
      const collection = store.collection(pets);
      const created = [];
      for (const name of ['Rex', 'Tom', 'Kit']) created.push(await collection.create({ name }));
      expect(created).toEqual([
        { id: 1, name: 'Rex' },
        { id: 2, name: 'Tom' },
        { id: 3, name: 'Kit' },
      ]);
      expect(await collection.get(2)).toEqual({ id: 2, name: 'Tom' });
    },
  },
  {
    rule: 'a record read again unchanged is frozen and has the same JSON (what answers cache their checks by); a changed one differs',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex' });
      await collection.create({ name: 'Tom' });
      const byId = async () =>
        new Map((await collection.list()).map((record) => [record.id, record]));
      const first = await byId();
      const again = await byId();
      expect(JSON.stringify(again.get(1))).toBe(JSON.stringify(first.get(1)));
      expect(JSON.stringify(again.get(2))).toBe(JSON.stringify(first.get(2)));
      expect(await collection.get(1)).toEqual(first.get(1));
      await collection.update(2, (current) => ({ ...current, name: 'Tommy' }));
      const after = await byId();
      expect(JSON.stringify(after.get(1))).toBe(JSON.stringify(first.get(1)));
      expect(after.get(2)).toEqual({ id: 2, name: 'Tommy' });
      expect(first.get(2)).toEqual({ id: 2, name: 'Tom' });
      for (const record of [...after.values(), await collection.get(1)])
        expect(Object.isFrozen(record)).toBe(true);
    },
  },
  {
    rule: 'creates racing for one chosen id: one is stored, every other fails with StoreKeyTakenError',
    check: async (store) => {
      const collection = store.collection(tags);
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) => collection.create({ n: i }, 'cats')),
      );
      expect(results.filter(({ status }) => status === 'fulfilled')).toHaveLength(1);
      for (const result of results.filter(({ status }) => status === 'rejected'))
        expect((result as PromiseRejectedResult).reason).toEqual(
          new StoreKeyTakenError('tags', 'slug', 'cats'),
        );
      expect(await collection.list()).toHaveLength(1);
    },
  },
  {
    rule: 'an integer counter at its limit refuses with StoreIdsExhaustedError: no id is handed out twice',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Planted' }, MAX_INTEGER_ID - 1);
      expect((await collection.create({ name: 'Last' })).id).toBe(MAX_INTEGER_ID);
      await expect(collection.create({ name: 'One too many' })).rejects.toBeInstanceOf(
        StoreIdsExhaustedError,
      );
      await expect(collection.create({ name: 'Again' })).rejects.toBeInstanceOf(
        StoreIdsExhaustedError,
      );
      const ids = (await collection.list()).map((record) => record.id);
      expect(ids).toEqual([MAX_INTEGER_ID - 1, MAX_INTEGER_ID]);
    },
  },
  {
    rule: 'an integer id is never handed out again, not even after the highest is deleted',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex' });
      await collection.create({ name: 'Tom' });
      await collection.remove(2);
      expect((await collection.create({ name: 'Kit' })).id).toBe(3);
      for (const id of [1, 3]) await collection.remove(id);
      expect((await collection.create({ name: 'Max' })).id).toBe(4);
    },
  },
  {
    rule: 'uuid ids are distinct version 4 UUIDs, in the id property of the collection',
    check: async (store) => {
      const collection = store.collection(orders);
      const ids = [];
      for (let i = 0; i < 50; i++) ids.push((await collection.create({ quantity: i })).orderId);
      for (const id of ids) expect(id).toMatch(UUID_V4);
      expect(new Set(ids).size).toBe(50);
      expect(await collection.get(ids[7] as string)).toEqual({ orderId: ids[7], quantity: 7 });
    },
  },
  {
    rule: 'a key within an object of the record: stored first in that object, the other fields where they were',
    check: async (store) => {
      const collection = store.collection(pods);
      const web = await collection.create(
        { kind: 'Pod', metadata: { labels: { app: 'web' }, name: 'stale' } },
        'web',
      );
      expect(JSON.stringify(web)).toBe(
        '{"kind":"Pod","metadata":{"name":"web","labels":{"app":"web"}}}',
      );
      expect(await collection.create({ kind: 'Pod' }, 'db')).toEqual({
        kind: 'Pod',
        metadata: { name: 'db' },
      });
      await expect(collection.create({ kind: 'Pod' }, 'web')).rejects.toEqual(
        new StoreKeyTakenError('pods', 'name', 'web'),
      );
      const changed = await collection.update('web', (current) => ({
        ...current,
        metadata: { name: 'moved', labels: {} },
      }));
      expect(changed).toEqual({ kind: 'Pod', metadata: { name: 'web', labels: {} } });
      expect(await collection.get('web')).toEqual(changed);
      expect(await collection.get('moved')).toBeUndefined();
      expect(await collection.remove('db')).toBe(true);
      expect(await collection.list()).toEqual([changed]);
    },
  },
  {
    rule: 'integer ids within an object of the record count up from 1, as the record’s own do',
    check: async (store) => {
      const collection = store.collection(clusters);
      const first = await collection.create({ status: 'up', spec: { region: 'eu', id: 99 } });
      const second = await collection.create({ status: 'down' });
      expect(JSON.stringify(first)).toBe('{"status":"up","spec":{"id":1,"region":"eu"}}');
      expect(second).toEqual({ status: 'down', spec: { id: 2 } });
      expect(await collection.get(1)).toEqual(first);
      expect(await collection.get(2)).toEqual(second);
    },
  },
  {
    rule: 'string ids are distinct strings',
    check: async (store) => {
      const collection = store.collection(tags);
      const ids = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => (await collection.create({ label: i })).slug),
      );
      expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
      expect(new Set(ids).size).toBe(50);
    },
  },
  {
    rule: 'concurrent creates never share an id, and get ids in the order they were called',
    check: async (store) => {
      const collection = store.collection(pets);
      const created = await Promise.all(
        Array.from({ length: 200 }, (_, i) => collection.create({ name: `Pet ${i}` })),
      );
      expect(created.map((record) => record.id)).toEqual(
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
      expect(await store.count()).toBe(200);
    },
  },
  {
    rule: 'a create stores the fields after the new id, replacing any id among them',
    check: async (store) => {
      const created = await store.collection(pets).create({ name: 'Rex', id: 99, age: 3 });
      expect(created).toEqual({ id: 1, name: 'Rex', age: 3 });
      expect(Object.keys(created)).toEqual(['id', 'name', 'age']);
    },
  },
  {
    rule: 'integer ids are found whatever form they are given in',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex' });
      expect(await collection.get('1')).toEqual({ id: 1, name: 'Rex' });
      expect(await collection.update('1', () => ({ name: 'Max' }))).toEqual({ id: 1, name: 'Max' });
      expect(await collection.remove('1')).toBe(true);
    },
  },
  {
    rule: 'a list holds the records oldest first, and an update keeps a record in its place',
    check: async (store) => {
      const collection = store.collection(pets);
      for (const name of ['Rex', 'Tom', 'Kit']) await collection.create({ name });
      await collection.update(1, () => ({ name: 'Max' }));
      expect((await collection.list()).map((record) => record.name)).toEqual(['Max', 'Tom', 'Kit']);
    },
  },
  {
    rule: 'a list is a snapshot that later writes leave as it is',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex' });
      await collection.create({ name: 'Tom' });
      const before = await collection.list();
      await collection.create({ name: 'Kit' });
      await collection.update(1, () => ({ name: 'Max' }));
      await collection.remove(2);
      expect(before).toEqual([
        { id: 1, name: 'Rex' },
        { id: 2, name: 'Tom' },
      ]);
    },
  },
  {
    rule: 'get, update and remove of an unknown id find nothing and change nothing',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex' });
      let called = false;
      const change = () => {
        called = true;
        return { name: 'Max' };
      };
      for (const id of [2, 'abc', 0]) {
        expect(await collection.get(id)).toBeUndefined();
        expect(await collection.update(id, change)).toBeUndefined();
        expect(await collection.remove(id)).toBe(false);
      }
      expect(called).toBe(false);
      expect(await collection.list()).toEqual([{ id: 1, name: 'Rex' }]);
      expect((await collection.create({ name: 'Tom' })).id).toBe(2);
    },
  },
  {
    rule: 'an update replaces the record by what the change returns, keeping its id',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex', age: 3 });
      const seen: unknown[] = [];
      const stored = await collection.update(1, (current) => {
        seen.push(current);
        return { id: 7, name: 'Max' };
      });
      expect(seen).toEqual([{ id: 1, name: 'Rex', age: 3 }]);
      expect(stored).toEqual({ id: 1, name: 'Max' });
      expect(await collection.get(1)).toEqual({ id: 1, name: 'Max' });
      expect(await collection.get(7)).toBeUndefined();
    },
  },
  {
    rule: 'an update whose change throws stores nothing, and its error reaches the caller',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex' });
      const refusal = new Error('name must not be empty');
      await expect(
        collection.update(1, () => {
          throw refusal;
        }),
      ).rejects.toBe(refusal);
      expect(await collection.list()).toEqual([{ id: 1, name: 'Rex' }]);
    },
  },
  {
    rule: 'concurrent updates of a record are atomic: each sees the one before',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex', visits: 0 });
      await Promise.all(
        Array.from({ length: 50 }, () =>
          collection.update(1, (current) => ({ ...current, visits: Number(current.visits) + 1 })),
        ),
      );
      expect(await collection.get(1)).toEqual({ id: 1, name: 'Rex', visits: 50 });
    },
  },
  {
    rule: 'a removed record is gone from get and list, and a second remove finds nothing',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex' });
      await collection.create({ name: 'Tom' });
      expect(await collection.remove(1)).toBe(true);
      expect(await collection.get(1)).toBeUndefined();
      expect(await collection.list()).toEqual([{ id: 2, name: 'Tom' }]);
      expect(await collection.remove(1)).toBe(false);
      expect(await store.count()).toBe(1);
    },
  },
  {
    rule: 'a create past maxRecords throws StoreFullError and stores nothing, not even its id',
    limits: { maxRecords: 2 },
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex' });
      await collection.create({ name: 'Tom' });
      const refusal = await collection.create({ name: 'Kit' }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(StoreFullError);
      expect(refusal).toMatchObject({ limit: 'maxRecords', value: 2 });
      expect(await store.count()).toBe(2);
      expect(await collection.list()).toHaveLength(2);
      await collection.remove(1);
      expect((await collection.create({ name: 'Kit' })).id).toBe(3);
    },
  },
  {
    rule: 'a create or an update past maxBytes throws StoreFullError and stores nothing',
    limits: { maxBytes: 100 },
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex' });
      await expect(collection.create({ name: 'x'.repeat(100) })).rejects.toMatchObject({
        name: 'StoreFullError',
        limit: 'maxBytes',
      });
      await expect(collection.update(1, () => ({ name: 'x'.repeat(100) }))).rejects.toBeInstanceOf(
        StoreFullError,
      );
      expect(await collection.list()).toEqual([{ id: 1, name: 'Rex' }]);
      expect(await collection.update(1, () => ({ name: 'R' }))).toEqual({ id: 1, name: 'R' });
    },
  },
  {
    rule: 'the limits count every collection together',
    limits: { maxRecords: 2 },
    check: async (store) => {
      await store.collection(pets).create({ name: 'Rex' });
      await store.collection(orders).create({ quantity: 1 });
      await expect(store.collection(tags).create({ label: 'a' })).rejects.toBeInstanceOf(
        StoreFullError,
      );
      expect(await store.collection(tags).list()).toEqual([]);
    },
  },
  {
    rule: 'reset goes back to the marked records and id counters',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex' });
      await collection.create({ name: 'Tom' });
      await store.markInitial();
      await collection.update(1, () => ({ name: 'Max' }));
      await collection.remove(2);
      await collection.create({ name: 'Kit' });
      await collection.create({ name: 'Ace' });
      await store.reset();
      expect(await collection.list()).toEqual([
        { id: 1, name: 'Rex' },
        { id: 2, name: 'Tom' },
      ]);
      expect(await store.count()).toBe(2);
      expect((await collection.create({ name: 'Kit' })).id).toBe(3);
      await store.reset();
      expect((await collection.create({ name: 'Kit' })).id).toBe(3);
    },
  },
  {
    rule: 'reset with no mark empties the store and counts ids from 1 again',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex' });
      await store.reset();
      expect(await collection.list()).toEqual([]);
      expect(await store.count()).toBe(0);
      expect((await collection.create({ name: 'Tom' })).id).toBe(1);
    },
  },
  {
    rule: 'a collection first used after the mark is empty after a reset',
    check: async (store) => {
      await store.collection(pets).create({ name: 'Rex' });
      await store.markInitial();
      const later = store.collection(owners);
      await later.create({ name: 'Ann' });
      await store.reset();
      expect(await later.list()).toEqual([]);
      expect((await later.create({ name: 'Bob' })).ownerId).toBe(1);
      expect(await store.collection(pets).list()).toEqual([{ id: 1, name: 'Rex' }]);
    },
  },
  {
    rule: 'the mark is a copy: writes after it do not change what reset returns to',
    check: async (store) => {
      const collection = store.collection(pets);
      await collection.create({ name: 'Rex' });
      await store.markInitial();
      await store.reset();
      await collection.update(1, () => ({ name: 'Max' }));
      await store.reset();
      expect(await collection.get(1)).toEqual({ id: 1, name: 'Rex' });
    },
  },
  {
    rule: 'stored records are frozen, nested values too',
    check: async (store) => {
      const collection = store.collection(pets);
      const created = await collection.create({
        name: 'Rex',
        tags: ['good'],
        owner: { name: 'A' },
      });
      for (const record of [created, await collection.get(1), (await collection.list())[0]]) {
        expect(Object.isFrozen(record)).toBe(true);
        expect(Object.isFrozen(record?.tags)).toBe(true);
        expect(Object.isFrozen(record?.owner)).toBe(true);
      }
      expect(() => {
        (created as Record<string, unknown>).name = 'Max';
      }).toThrow(TypeError);
    },
  },
  {
    rule: 'collections are independent: their own records and their own id counters',
    check: async (store) => {
      await store.collection(pets).create({ name: 'Rex' });
      await store.collection(pets).create({ name: 'Tom' });
      expect(await store.collection(owners).create({ name: 'Ann' })).toEqual({
        ownerId: 1,
        name: 'Ann',
      });
      await store.collection(owners).remove(1);
      expect(await store.collection(pets).list()).toHaveLength(2);
      expect(await store.collection(owners).list()).toEqual([]);
      expect(await store.count()).toBe(2);
    },
  },
  {
    rule: 'asking for a collection again gives the same records',
    check: async (store) => {
      await store.collection(pets).create({ name: 'Rex' });
      expect(await store.collection({ ...pets }).list()).toEqual([{ id: 1, name: 'Rex' }]);
    },
  },
];

/** The rules of stores that hold scopes (the mock's sessions) beside their main state. */
interface ScopeRule {
  rule: string;
  limits?: Partial<StoreLimits>;
  check: (store: StateBackend) => Promise<void>;
}

const scopeRules: ScopeRule[] = [
  {
    rule: 'a scope starts as a copy of the mark: the same records, ids and id counters',
    check: async (store) => {
      const main = store.collection(pets);
      for (const name of ['Rex', 'Tom']) await main.create({ name });
      await main.remove(2);
      await store.markInitial();
      await main.create({ name: 'Kit' });
      const alice = store.scope('alice').collection(pets);
      expect(await alice.list()).toEqual([{ id: 1, name: 'Rex' }]);
      expect(await store.scope('alice').count()).toBe(1);
      expect((await alice.create({ name: 'Ace' })).id).toBe(3);
    },
  },
  {
    rule: 'a scope used before any mark starts empty',
    check: async (store) => {
      await store.collection(pets).create({ name: 'Rex' });
      expect(await store.scope('alice').collection(pets).list()).toEqual([]);
      expect((await store.scope('alice').collection(pets).create({ name: 'Ann' })).id).toBe(1);
    },
  },
  {
    rule: 'a scope got before the mark but first used after it starts from the mark',
    check: async (store) => {
      const alice = store.scope('alice');
      await store.collection(pets).create({ name: 'Rex' });
      await store.markInitial();
      expect(await alice.collection(pets).list()).toEqual([{ id: 1, name: 'Rex' }]);
    },
  },
  {
    rule: 'writes in a scope leave the main state and the other scopes alone',
    check: async (store) => {
      await store.collection(pets).create({ name: 'Rex' });
      await store.markInitial();
      const alice = store.scope('alice').collection(pets);
      const bob = store.scope('bob').collection(pets);
      await alice.create({ name: 'Ann' });
      await alice.update(1, () => ({ name: 'Max' }));
      await bob.remove(1);
      expect(await store.collection(pets).list()).toEqual([{ id: 1, name: 'Rex' }]);
      expect(await alice.list()).toEqual([
        { id: 1, name: 'Max' },
        { id: 2, name: 'Ann' },
      ]);
      expect(await bob.list()).toEqual([]);
      expect((await store.collection(pets).create({ name: 'Tom' })).id).toBe(2);
      expect((await bob.create({ name: 'Bo' })).id).toBe(2);
      expect([await store.count(), await store.scope('bob').count()]).toEqual([2, 1]);
    },
  },
  {
    rule: 'a reset of a scope returns it to the mark and leaves the others',
    check: async (store) => {
      await store.collection(pets).create({ name: 'Rex' });
      await store.markInitial();
      await store.collection(pets).create({ name: 'Tom' });
      await store.scope('alice').collection(pets).create({ name: 'Ann' });
      await store.scope('bob').collection(pets).create({ name: 'Bo' });
      await store.scope('alice').reset();
      expect(await store.scope('alice').collection(pets).list()).toEqual([{ id: 1, name: 'Rex' }]);
      expect(await store.scope('bob').collection(pets).list()).toHaveLength(2);
      expect(await store.collection(pets).list()).toHaveLength(2);
    },
  },
  {
    rule: 'the scopes that hold a state are listed; a dropped one starts again from the mark',
    check: async (store) => {
      await store.collection(pets).create({ name: 'Rex' });
      await store.markInitial();
      const alice = store.scope('alice');
      await alice.collection(pets).create({ name: 'Ann' });
      await store.scope('bob').count();
      expect((await store.scopeNames()).sort()).toEqual(['alice', 'bob']);
      expect(await store.dropScope('alice')).toBe(true);
      expect(await store.dropScope('alice')).toBe(false);
      expect(await store.dropScope('nobody')).toBe(false);
      expect(await store.scopeNames()).toEqual(['bob']);
      // Even through the scope got before the drop.
      expect(await alice.collection(pets).list()).toEqual([{ id: 1, name: 'Rex' }]);
      expect((await store.scopeNames()).sort()).toEqual(['alice', 'bob']);
    },
  },
  {
    rule: 'scope names are kept as given, whatever characters they hold',
    check: async (store) => {
      const names = ['a:b', 'a', 'ä/ö*?', 'x'.repeat(64)];
      for (const [i, name] of names.entries())
        await store
          .scope(name)
          .collection(pets)
          .create({ name: `Pet ${i}` });
      expect((await store.scopeNames()).sort()).toEqual([...names].sort());
      for (const [i, name] of names.entries())
        expect(await store.scope(name).collection(pets).list()).toEqual([
          { id: 1, name: `Pet ${i}` },
        ]);
    },
  },
  {
    rule: 'a touched scope holds a state and keeps when it was made and last used; a drop forgets it',
    check: async (store) => {
      await store.collection(pets).create({ name: 'Rex' });
      await store.markInitial();
      const before = Date.now();
      await store.touchScope('alice');
      // A scope used without a touch holds a state too, with no times of its own.
      await store.scope('bob').count();
      const usage = await store.scopeUsage();
      expect(usage.map(({ name }) => name).sort()).toEqual(['alice', 'bob']);
      const alice = usage.find(({ name }) => name === 'alice');
      expect(alice?.createdAt).toBeGreaterThanOrEqual(before);
      expect(alice?.lastUsedAt).toBeGreaterThanOrEqual(alice?.createdAt ?? Infinity);
      expect(usage.find(({ name }) => name === 'bob')?.createdAt).toBe(0);
      // Touched again later: made then, used now.
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.touchScope('alice');
      const again = (await store.scopeUsage()).find(({ name }) => name === 'alice');
      expect(again?.createdAt).toBe(alice?.createdAt);
      expect(again?.lastUsedAt).toBeGreaterThan(alice?.lastUsedAt ?? Infinity);
      // Its state is the mark's, as any scope's first use.
      expect(await store.scope('alice').collection(pets).list()).toEqual([{ id: 1, name: 'Rex' }]);
      expect(await store.dropScope('alice')).toBe(true);
      expect((await store.scopeUsage()).map(({ name }) => name)).toEqual(['bob']);
    },
  },
  {
    rule: 'maxRecords holds for the whole store: the main state and every scope together, the mark counted once',
    limits: { maxRecords: 5 },
    check: async (store) => {
      await store.collection(pets).create({ name: 'Rex' });
      await store.markInitial();
      // Each scope starts with its copy of Rex: the mark's record, counted once.
      const [alice, bob, carol] = ['alice', 'bob', 'carol'].map((name) =>
        store.scope(name).collection(pets),
      ) as [Collection, Collection, Collection];
      await alice.create({ name: 'Ann' });
      await bob.create({ name: 'Bo' });
      await store.collection(pets).create({ name: 'Tom' });
      await carol.create({ name: 'Cy' });
      for (const collection of [alice, bob, carol, store.collection(pets)])
        await expect(collection.create({ name: 'One too many' })).rejects.toEqual(
          new StoreFullError('maxRecords', 5),
        );
      // A scope's share is what it holds beyond the mark's count: one that removes the mark's
      // record as well as its own frees its own, and gives the others no more.
      await alice.remove(1);
      await alice.remove(2);
      expect((await bob.create({ name: 'Bea' })).id).toBe(3);
      await expect(bob.create({ name: 'Full again' })).rejects.toBeInstanceOf(StoreFullError);
      // A dropped scope, or one reset, frees what it held beyond the mark.
      await store.dropScope('bob');
      await store.scope('carol').reset();
      await store.collection(pets).create({ name: 'Kit' });
      expect((await carol.create({ name: 'Cat' })).id).toBe(2);
      expect((await carol.create({ name: 'Cub' })).id).toBe(3);
      await expect(carol.create({ name: 'Full again' })).rejects.toBeInstanceOf(StoreFullError);
    },
  },
  {
    rule: 'a mark made again counts each scope against the new mark, whatever its name',
    limits: { maxRecords: 4 },
    check: async (store) => {
      await store.collection(pets).create({ name: 'Rex' });
      await store.markInitial();
      const odd = store.scope('ä/b c:*').collection(pets);
      await odd.create({ name: 'Ann' });
      await odd.create({ name: 'Amy' });
      await store.collection(pets).create({ name: 'Tom' });
      // The mark now holds two records: the scope's three are one beyond it.
      await store.markInitial();
      await store.collection(pets).create({ name: 'Kit' });
      await expect(odd.create({ name: 'Ace' })).rejects.toEqual(
        new StoreFullError('maxRecords', 4),
      );
    },
  },
  {
    rule: "maxBytes holds for the whole store: every scope's records beyond the mark count",
    limits: { maxBytes: 400 },
    check: async (store) => {
      await store.collection(pets).create({ name: 'x'.repeat(80) });
      await store.markInitial();
      const fill = { name: 'y'.repeat(80) }; // 100 bytes as stored, with its id
      await store.scope('alice').collection(pets).create(fill);
      await store.scope('bob').collection(pets).create(fill);
      await store.scope('carol').collection(pets).create(fill);
      for (const state of [store, store.scope('alice'), store.scope('dave')])
        await expect(state.collection(pets).create(fill)).rejects.toEqual(
          new StoreFullError('maxBytes', 400),
        );
      // A change that grows a record takes room too; one that shrinks it always fits.
      await expect(
        store
          .scope('bob')
          .collection(pets)
          .update(2, (pet) => ({ ...pet, more: 'z' })),
      ).rejects.toBeInstanceOf(StoreFullError);
      await store
        .scope('bob')
        .collection(pets)
        .update(2, () => ({ name: 'b' }));
      expect((await store.scope('dave').collection(pets).create({ name: 'd' })).id).toBe(2);
    },
  },
];

/** An entry of a test list: what a request log's entry is to the store, a JSON value. */
interface Note {
  n: number;
  text: string;
}

const NOTES: EntryCodec<Note> = {
  encode: (note) => JSON.stringify(note),
  decode: (json) => JSON.parse(json) as Note,
  bytes: (note) => JSON.stringify(note).length,
};

const note = (n: number, text = 'x'): Note => ({ n, text });

/** A list's entries as numbered (newest first) and their `n`s. */
async function numbered(side: ReturnType<StateBackend['sideData']>, list = 'log') {
  const { entries, pushed } = await side.readEntries(list, NOTES);
  return entries.map((entry, index) => [pushed - index, entry.n]);
}

const roomy = (capacity: number) => ({ capacity, whole: { entries: 1000, bytes: 1 << 30 } });

/**
 * The rules of the state backend beside the records, on every store (a custom one given them
 * by withLocalSideData too): the side data of each state (its settings document, its request
 * log as a bounded list), and one bound for every list together.
 */
const sideRules: ScopeRule[] = [
  {
    rule: 'a document reads back as written, a JSON value, until deleted; each state has its own',
    check: async (store) => {
      const main = store.sideData();
      expect(await main.readDocument('settings')).toBeUndefined();
      await main.writeDocument('settings', { delay: { min: 1, max: 2 }, kinds: ['reset'] });
      expect(await main.readDocument('settings')).toEqual({
        delay: { min: 1, max: 2 },
        kinds: ['reset'],
      });
      expect(await store.sideData('alice').readDocument('settings')).toBeUndefined();
      await store.sideData('alice').writeDocument('settings', { faultRate: 1 });
      await main.deleteDocument('settings');
      expect(await main.readDocument('settings')).toBeUndefined();
      expect(await store.sideData('alice').readDocument('settings')).toEqual({ faultRate: 1 });
    },
  },
  {
    rule: 'a list keeps its newest `capacity` entries, numbered from 1; a clear does not restart the numbers',
    check: async (store) => {
      const side = store.sideData();
      for (const n of [1, 2, 3]) await side.pushEntry('log', note(n), NOTES, roomy(2));
      expect(await numbered(side)).toEqual([
        [3, 3],
        [2, 2],
      ]);
      await side.clearEntries('log');
      expect(await numbered(side)).toEqual([]);
      await side.pushEntry('log', note(4), NOTES, roomy(2));
      expect(await numbered(side)).toEqual([[4, 4]]);
      expect(await numbered(side, 'other')).toEqual([]);
    },
  },
  {
    rule: 'one bound for every list of every state: past it, the oldest entry of any list goes',
    check: async (store) => {
      const bounds = { capacity: 100, whole: { entries: 4, bytes: 1 << 30 } };
      const states = [store.sideData(), store.sideData('alice'), store.sideData('bob')];
      let n = 0;
      for (let round = 0; round < 3; round++)
        for (const side of states) await side.pushEntry('log', note(++n), NOTES, bounds);
      // Nine pushed, four held: the newest four, whichever state holds them.
      const held = [];
      for (const side of states) held.push(...(await numbered(side)).map(([, value]) => value));
      expect(held.sort((a, b) => (a as number) - (b as number))).toEqual([6, 7, 8, 9]);
      // A cleared list makes room for the others.
      await states[2]?.clearEntries('log');
      for (const extra of [10, 11]) await states[0]?.pushEntry('log', note(extra), NOTES, bounds);
      expect((await numbered(states[0] as never)).map(([, value]) => value)).toEqual([11, 10, 7]);
    },
  },
  {
    rule: 'bytes are bounded too, every list together',
    check: async (store) => {
      const text = 'y'.repeat(1000);
      const bounds = { capacity: 100, whole: { entries: 1000, bytes: 5_500 } };
      for (let n = 1; n <= 10; n++)
        await store
          .sideData(n % 2 ? 'alice' : undefined)
          .pushEntry('log', note(n, text), NOTES, bounds);
      const held =
        (await numbered(store.sideData())).length +
        (await numbered(store.sideData('alice'))).length;
      expect(held).toBe(5);
    },
  },
];

/** The rules of a store that holds scopes: dropping one drops its side data too. */
const scopeSideRules: ScopeRule[] = [
  {
    rule: "a dropped scope's documents and lists are gone, its entries out of the bound; the main state's stay",
    check: async (store) => {
      const bounds = { capacity: 100, whole: { entries: 3, bytes: 1 << 30 } };
      await store.touchScope('alice');
      const alice = store.sideData('alice');
      await alice.writeDocument('settings', { faultRate: 1 });
      for (const n of [1, 2]) await alice.pushEntry('log', note(n), NOTES, bounds);
      await store.sideData().writeDocument('settings', { faultRate: 0 });
      await store.sideData().pushEntry('log', note(3), NOTES, bounds);
      expect(await store.dropScope('alice')).toBe(true);
      expect(await store.sideData('alice').readDocument('settings')).toBeUndefined();
      expect(await numbered(store.sideData('alice'))).toEqual([]);
      expect(await store.sideData().readDocument('settings')).toEqual({ faultRate: 0 });
      // Alice's two entries left the bound: two more fit beside the main state's one.
      for (const n of [4, 5]) await store.sideData().pushEntry('log', note(n), NOTES, bounds);
      expect(await numbered(store.sideData())).toEqual([
        [3, 5],
        [2, 4],
        [1, 3],
      ]);
    },
  },
];

/** A custom store that implements only the records (Store), as a user may write one. */
function recordsOnly(store: Store): Store {
  return {
    collection: (descriptor) => store.collection(descriptor),
    count: () => store.count(),
    markInitial: () => store.markInitial(),
    reset: () => store.reset(),
    close: () => store.close(),
  };
}

interface Maker<S extends Store = Store> {
  name: string;
  open: (limits: Partial<StoreLimits> | undefined) => Promise<S>;
}

const cleanups: (() => Promise<void>)[] = [];

const memoryStore: Maker<StateBackend> = {
  name: 'memory store',
  open: async (limits) => createMemoryStore({ limits }),
};

const fileStore: Maker<StateBackend> = {
  name: 'file store',
  open: async (limits) => {
    const folder = await tempFolder('store');
    const store = await openFileStore(join(folder, 'data.jsonl'), { limits });
    cleanups.push(() => store.close());
    return store;
  },
};

/** A records-only custom store, given the rest of the state backend by withLocalSideData. */
const customStore: Maker<StateBackend> = {
  name: 'custom store, withLocalSideData',
  open: async (limits) => withLocalSideData(recordsOnly(createMemoryStore({ limits }))),
};

const makers: Maker[] = [
  memoryStore,
  fileStore,
  customStore,
  {
    name: 'memory store, a scope',
    open: async (limits) => (await memoryStore.open(limits)).scope('s'),
  },
  {
    name: 'file store, a scope',
    open: async (limits) => (await fileStore.open(limits)).scope('s'),
  },
];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe.each(makers)('$name', (maker) => {
  it.each(rules)('$rule', async ({ limits, check }) => {
    await check(await maker.open(limits));
  });
});

describe.each([memoryStore, fileStore])('$name, scopes', (maker) => {
  it.each([...scopeRules, ...scopeSideRules])('$rule', async ({ limits, check }) => {
    await check(await maker.open(limits));
  });
});

describe.each([memoryStore, fileStore, customStore])('$name, side data', (maker) => {
  it.each(sideRules)('$rule', async ({ limits, check }) => {
    await check(await maker.open(limits));
  });
});

describe('custom store, withLocalSideData', () => {
  it('keeps no scopes: asking for one is a StoreNoScopesError, and none are listed', async () => {
    const store = await customStore.open(undefined);
    expect(() => store.scope('alice')).toThrow(StoreNoScopesError);
    await expect(store.touchScope('alice')).rejects.toBeInstanceOf(StoreNoScopesError);
    expect(await store.scopeUsage()).toEqual([]);
    expect(await store.scopeNames()).toEqual([]);
  });
});

describe('file store scopes', () => {
  it('are kept in memory only: the data file holds the main state alone', async () => {
    const folder = await tempFolder('store');
    const path = join(folder, 'data.jsonl');
    const store = await openFileStore(path);
    await store.collection(pets).create({ name: 'Rex' });
    await store.markInitial();
    await store.scope('alice').collection(pets).create({ name: 'Ann' });
    await store.close();
    const reopened = await openFileStore(path);
    expect(await reopened.collection(pets).list()).toEqual([{ id: 1, name: 'Rex' }]);
    expect(await reopened.scopeNames()).toEqual([]);
    await reopened.close();
  });
});

describe('on a real Redis', () => {
  withRedis();
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    if (redisLookup.found) redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  let stores = 0;
  /** A store of its own: a prefix of its own on the one server. */
  const redisStore: Maker<StateBackend> = {
    name: 'redis store',
    open: async (limits) => {
      const store = await openRedisStore(redis?.url ?? 'redis://redis-server-not-started', {
        prefix: `contract-${++stores}:`,
        limits,
      });
      cleanups.push(() => store.close());
      return store;
    },
  };
  const redisMakers: Maker[] = [
    redisStore,
    {
      name: 'redis store, a scope',
      open: async (limits) => (await redisStore.open(limits)).scope('s'),
    },
  ];

  describe.each(redisMakers)('$name', (maker) => {
    it.each(rules)('$rule', async ({ limits, check }) => {
      await check(await maker.open(limits));
    });
  });

  describe.each([redisStore])('$name, scopes', (maker) => {
    it.each([...scopeRules, ...scopeSideRules])('$rule', async ({ limits, check }) => {
      await check(await maker.open(limits));
    });
  });

  describe.each([redisStore])('$name, side data', (maker) => {
    it.each(sideRules)('$rule', async ({ limits, check }) => {
      await check(await maker.open(limits));
    });
  });
});
