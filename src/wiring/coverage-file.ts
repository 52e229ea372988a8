// The run's coverage kept in a file (`--coverage-file`), so that it outlives the mock: a
// Playwright `webServer` stops the mock with SIGKILL at the end of the run, unless told otherwise.
import { rename, writeFile } from 'node:fs/promises';
import type { Coverage } from '../openapi/coverage-table.js';

/** How often the table is written while it changes: twice a second. */
const WRITE_EVERY_MS = 500;

/** Keeps a file up to date with a coverage table. */
export interface CoverageFile {
  /** Writes the table a last time and stops. */
  close(): Promise<void>;
}

/**
 * Writes the table to `path` now, then every half second when it changed, each time whole
 * (a file beside it, renamed over it: a reader never sees half a table).
 * @param table the table now (Mock.runCoverage).
 * @example const file = keepCoverageFile('coverage.json', () => mock.runCoverage()); await file.close();
 */
export function keepCoverageFile(path: string, table: () => Coverage): CoverageFile {
  let written = '';
  let writing: Promise<void> = Promise.resolve();
  const write = () => {
    writing = writing.then(async () => {
      const text = `${JSON.stringify(table(), null, 2)}\n`;
      if (text === written) return;
      await writeFile(`${path}.tmp`, text);
      await rename(`${path}.tmp`, path);
      written = text;
    });
    return writing;
  };
  // A file that cannot be written is known at once, not at the end of the run.
  const first = write();
  const timer = setInterval(() => void write().catch(() => undefined), WRITE_EVERY_MS);
  // The timer alone never keeps the process alive.
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await first.catch(() => undefined);
      await write();
    },
  };
}
