// Issue 10's item rows: read, replace and delete one record by id, on the library spec
// (authors with UUID ids: GET, PUT and DELETE), against a bare express baseline of the same.
import { checked, load } from './load.js';
import { measure, paired, type PairedRow } from './paired.js';
import { BENCH_KEY, ROOT, startBaseline, startMock, type ServerProcess } from './processes.js';

const LIBRARY = `${ROOT}test/fixtures/specs/library.yaml`;
const AUTHOR = JSON.stringify({ email: 'bench@example.com', displayName: 'Bench' });
/** Deletes per second of a run, about what the mock sustains: a run is then about as long as asked. */
const DELETES_PER_SECOND = 5000;

async function authorIds(server: ServerProcess): Promise<string[]> {
  const res = await fetch(`${server.url}/authors`, {
    headers: { authorization: `Bearer ${BENCH_KEY}` },
  });
  return ((await res.json()) as { id: string }[]).map((author) => author.id);
}

/** Paths over `ids`, round and round. */
const spread = (ids: readonly string[]) => {
  let i = 0;
  return () => `/authors/${ids[i++ % ids.length]}`;
};

export async function items(connections = 10): Promise<PairedRow[]> {
  // 100 authors: reads and replaces spread over them, as a client's would.
  const servers = await Promise.all([
    startMock({ seedCount: 100, args: ['--spec', LIBRARY] }),
    startBaseline(100, 'authors'),
  ]);
  try {
    const ids = new Map<ServerProcess, string[]>();
    for (const server of servers) ids.set(server, await authorIds(server));
    const rows: PairedRow[] = [];
    for (const method of ['GET', 'PUT'] as const) {
      rows.push(
        await paired(`${method} /authors/{id}`, connections, servers, (server, seconds) =>
          measure(server, {
            method,
            connections,
            seconds,
            nextPath: spread(ids.get(server)!),
            ...(method === 'PUT' ? { body: AUTHOR } : {}),
          }),
        ),
      );
    }
    // Each run deletes authors it has just created (not timed): every DELETE finds its record.
    rows.push(
      await paired('DELETE /authors/{id}', connections, servers, async (server, seconds) => {
        const amount = DELETES_PER_SECOND * seconds;
        const created: string[] = [];
        checked(
          await load({
            url: server.url,
            path: '/authors',
            method: 'POST',
            body: AUTHOR,
            connections,
            // A connection may build one request more than it sends, each taking an id.
            amount: amount + 2 * connections,
            onBody: (text) => created.push((JSON.parse(text) as { id: string }).id),
          }),
        );
        let next = 0;
        return measure(server, {
          method: 'DELETE',
          connections,
          amount,
          nextPath: () => `/authors/${created[next++]}`,
        });
      }),
    );
    return rows;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
