// Not in docs/recipes.md: our proof that workers run at the same time. Each caller waits until
// `parties` callers have reached the barrier named `name` (files in BARRIER_DIR, which the
// test that runs this project gives), so what follows runs while all of them are mid-test.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export async function barrier(name: string, who: string, parties: number): Promise<void> {
  const dir = join(process.env.BARRIER_DIR ?? '.barriers', name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, who), '');
  // A worker left alone here means the others are not running beside it: that fails.
  const until = Date.now() + 20_000;
  while ((await readdir(dir)).length < parties) {
    if (Date.now() > until)
      throw new Error(`barrier ${name}: ${who} waited 20 s for ${parties} parties`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
