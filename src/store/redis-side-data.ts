// What the Redis store keeps beside the records of each state (SideData): small documents (a
// state's scenario settings) and bounded lists (its request log), under the state's namespace,
// named in one set so that dropping the state drops them too. The lists of every state are
// bounded together (see redis-log-scripts.ts).
import type { Redis } from 'ioredis';
import { runScript } from './redis-connection.js';
import { LIST_CLEAR, LIST_PUSH } from './redis-log-scripts.js';
import type { StateAccess } from './redis-shared.js';
import type { SideData } from './store.js';

/**
 * The side data of a state.
 * @example await sideDataOf(state).writeDocument('settings', { faultRate: 0 });
 */
export function sideDataOf(state: StateAccess): SideData {
  const index = `${state.keys.state}side`;
  const key = (kind: string, name: string) =>
    `${state.keys.state}${kind}:${encodeURIComponent(name)}`;
  return {
    readDocument: async (name) => {
      const json = await state.command('read', (client) => client.get(key('doc', name)));
      return json === null ? undefined : (JSON.parse(json) as unknown);
    },
    writeDocument: async (name, value) => {
      const json = JSON.stringify(value);
      await state.command('write', (client) =>
        client.multi().set(key('doc', name), json).sadd(index, key('doc', name)).exec(),
      );
    },
    deleteDocument: async (name) => {
      await state.command('write', (client) => client.del(key('doc', name)));
    },
    pushEntry: async (list, entry, codec, { capacity, whole }) => {
      const json = codec.encode(entry);
      const at = key('list', list);
      const pushed = key('pushed', list);
      await state.command('write', (client) =>
        runScript(
          client,
          state.settings.scripts,
          LIST_PUSH,
          [at, pushed, state.keys.logOrder, state.keys.logTotals, index],
          [json, capacity, whole.entries, whole.bytes],
        ),
      );
    },
    readEntries: (list, codec) =>
      state.command('read', async (client) => {
        const results = await client
          .multi()
          .get(key('pushed', list))
          .lrange(key('list', list), 0, -1)
          .exec();
        const [[countFailure, pushed] = [], [listFailure, entries] = []] = results ?? [];
        if (countFailure || listFailure) throw countFailure ?? listFailure;
        const texts = (entries as string[] | undefined) ?? [];
        return { entries: texts.map((json) => codec.decode(json)), pushed: Number(pushed ?? 0) };
      }),
    clearEntries: async (list) => {
      await state.command('write', (client) => clearList(state, client, key('list', list)));
    },
  };
}

/** Drops the documents and lists of a state; its lists' entries leave the count of all lists. */
export async function dropSideDataOf(state: StateAccess): Promise<void> {
  const index = `${state.keys.state}side`;
  await state.command('write', async (client) => {
    const keys = await client.smembers(index);
    for (const list of keys.filter((name) => name.startsWith(`${state.keys.state}list:`)))
      await clearList(state, client, list);
    await client.del(index, ...keys);
  });
}

/** Empties a list of this state's side data, uncounting its entries from all lists' bounds. */
async function clearList(state: StateAccess, client: Redis, list: string): Promise<void> {
  await runScript(
    client,
    state.settings.scripts,
    LIST_CLEAR,
    [list, '', state.keys.logOrder, state.keys.logTotals],
    [],
  );
}
