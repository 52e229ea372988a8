import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/**
 * Calls `onChange` once a file has changed and stayed still for `settleMs`. It watches the
 * file's folder, not the file: editors often save by writing a new file and renaming it
 * over the old one, which would end a watch on the file itself.
 * @returns a function that stops watching.
 * @example const stop = watchFile('spec/openapi.yaml', () => reload());
 */
export function watchFile(path: string, onChange: () => void, settleMs = 150): () => void {
  const file = resolve(path);
  const name = basename(file);
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(dirname(file), (_event, changed) => {
    if (changed !== null && changed !== name) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, settleMs);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
