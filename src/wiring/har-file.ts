import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { HarEntry } from '../core/traffic/har.js';
import { StartupError } from '../vocabulary/errors.js';

/** A HAR file being written: an entry per exchange, closed on close. */
export interface HarFile {
  add(entry: HarEntry): void;
  close(): Promise<void>;
}

/**
 * Opens a HAR 1.2 file and appends each entry as it comes, so that a proxy stopped without its
 * close leaves every entry written (readHar reads such a file to its last entry).
 * @throws {StartupError} when the file cannot be written.
 * @example const har = await openHarFile('session.har', { name: 'petstore-kit', version: '0.1.0' });
 */
export async function openHarFile(
  path: string,
  creator: { name: string; version: string },
): Promise<HarFile> {
  const out = createWriteStream(path);
  out.write(`{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[`);
  try {
    await once(out, 'open');
  } catch (err) {
    throw new StartupError(`cannot write the HAR file ${path}: ${(err as Error).message}`);
  }
  let first = true;
  return {
    add(entry) {
      out.write(`${first ? '\n' : ',\n'}${JSON.stringify(entry)}`);
      first = false;
    },
    async close() {
      out.end('\n]}}\n');
      await once(out, 'finish');
    },
  };
}
