// Issue 10's durability row: creates per second with --data (each create appended to a JSON
// Lines file and fsynced, in group commits, before its answer) against the same mock in memory.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, paired, type PairedRow } from './paired.js';
import { startMock } from './processes.js';

export interface DataStore {
  /** The file system the data file was on: an fsync costs what it costs there. */
  filesystem: string;
  rows: PairedRow[];
}

export async function dataStore(): Promise<DataStore> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-bench-'));
  const df = spawnSync('df', ['--output=fstype,source', dir], { encoding: 'utf8' });
  const filesystem = df.stdout?.trim().split('\n')[1]?.trim().replace(/\s+/, ' on ') ?? 'unknown';
  const rows: PairedRow[] = [];
  try {
    for (const connections of [10, 50]) {
      // A new file for each row: the second row must not start with the first one's records.
      const servers = await Promise.all([
        startMock({
          name: 'mock --data',
          args: ['--data', join(dir, `data-${connections}.jsonl`)],
        }),
        startMock({ name: 'mock' }),
      ]);
      try {
        rows.push(
          await paired('create', connections, servers, (server, seconds) =>
            measure(server, { method: 'POST', connections, seconds }),
          ),
        );
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { filesystem, rows };
}
