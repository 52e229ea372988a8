// The tests leave nothing in the system's temporary folder: tempFolder removes each folder when
// its test, or its file, ends, and the run's check (temp-folders-run.ts) fails a run that left any.
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { TestProject } from 'vitest/node';
import { tempFolder, tempFolderSync } from './temp-folders.js';
import { setup } from './temp-folders-run.js';

const atTopLevel = tempFolderSync('top-level');
// What a file's own afterAll hooks close may still use its folders: they are removed after.
afterAll(() => expect(existsSync(atTopLevel)).toBe(true));

describe('tempFolder', () => {
  let madeInTest = '';
  let keptForFile = '';

  it('makes an empty folder, named after its test file', async () => {
    madeInTest = await tempFolder('in-test');
    keptForFile = await tempFolder('for-file', { until: 'file' });
    expect(await readdir(madeInTest)).toEqual([]);
    expect(madeInTest).toMatch(/temp-folders\.in-test-\w+$/);
  });

  it('removes a folder when the test that made it ends', () => {
    expect(madeInTest).not.toBe('');
    expect(existsSync(madeInTest)).toBe(false);
  });

  it("keeps a folder made outside a test, or asked to, until the file's end", () => {
    expect(existsSync(atTopLevel)).toBe(true);
    expect(existsSync(keptForFile)).toBe(true);
  });
});

describe.concurrent('tempFolder in concurrent tests', () => {
  let folderMade!: () => void;
  const made = new Promise<void>((resolve) => (folderMade = resolve));
  let otherEnded!: () => void;
  const ended = new Promise<void>((resolve) => (otherEnded = resolve));

  it("keeps a test's folder while another test ends", async () => {
    const folder = await tempFolder('concurrent');
    folderMade();
    await ended;
    expect(existsSync(folder)).toBe(true);
  });

  it('ends while the other test still runs', async ({ onTestFinished }) => {
    onTestFinished(() => otherEnded());
    await made;
  });
});

describe("the run's check", () => {
  afterEach(() => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
  });

  /** The check's setup and teardown for a project of this name, and what it printed. */
  async function checked(leave: (root: string) => Promise<void>) {
    let root = '';
    const project = {
      name: 'probe',
      provide: (_key: string, value: string) => (root = value),
    } as unknown as TestProject;
    const teardown = await setup(project);
    await leave(root);
    const printed: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
      printed.push(String(text));
      return true;
    });
    await teardown();
    vi.restoreAllMocks();
    return { root, printed: printed.join(''), exitCode: process.exitCode };
  }

  it('fails the run and names what a test left in the run folder, then removes it', async () => {
    const { root, printed, exitCode } = await checked(async (root) => {
      await writeFile(join(root, 'left.txt'), 'x');
    });
    expect(printed).toContain('The tests of project probe left 1 folder(s)');
    expect(printed).toContain('  left.txt\n');
    expect(exitCode).toBe(1);
    expect(existsSync(root)).toBe(false);
  });

  it('says nothing and leaves the exit code alone when nothing is left', async () => {
    const { root, printed, exitCode } = await checked(async () => {});
    expect(printed).toBe('');
    expect(exitCode).toBeUndefined();
    expect(existsSync(root)).toBe(false);
  });
});

describe("the tests' sources", () => {
  const TEST = fileURLToPath(new URL('.', import.meta.url));
  /** Run outside Vitest too (`npm run test:storybook`): they remove what they make themselves. */
  const OUTSIDE_VITEST = ['recipes/frontend-project.ts', 'recipes/storybook.ts'];
  const OWN = ['temp-folders.ts', 'temp-folders-run.ts', 'temp-folders.test.ts'];

  it('make folders in the temporary folder through tempFolder alone', async () => {
    const files = (await readdir(TEST, { recursive: true }))
      .filter((file) => /\.(ts|tsx|mjs|js)$/.test(file))
      .filter((file) => !/(^|\/)(node_modules|generated)\//.test(file))
      .filter((file) => ![...OUTSIDE_VITEST, ...OWN].includes(file));
    const offenders: string[] = [];
    for (const file of files) {
      const text = await readFile(join(TEST, file), 'utf8');
      if (/mkdtemp(Sync)?\([^;]*tmpdir\(\)/.test(text))
        offenders.push(relative(TEST, join(TEST, file)));
    }
    expect(files.length).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });
});
