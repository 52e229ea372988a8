// A fresh create-vite react-ts app as a reader makes it: the pinned Node binary on PATH
// (scripts/node-binary.mjs), `npm create vite`, `npm install`, then petstore-kit (this checkout,
// packed) with the MSW and Vitest majors asked for, all from the npm registry (npm's cache
// makes a repeat fast).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FreshApp } from './frontend-project.js';
import { ROOT } from './frontend-project.js';

const exec = promisify(execFile);

/** What an app is made with: the Node major, and the majors of MSW and Vitest it installs. */
export interface Toolchain {
  node: 20 | 22 | 24 | 26;
  msw: 2 | 3;
  vitest: 4 | 5;
}

/** create-vite 9.3.0, the template of test/recipes/frontend-app (its README says so). */
const CREATE_VITE = 'vite@9.3.0'; // npm create vite@… runs create-vite
/** What the docs' snippets import besides MSW and Vitest: Playwright's runner, express. */
const SNIPPET_PACKAGES = ['@playwright/test@1', 'express@5', '@types/express@5'];
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];

/** The folder of the pinned Node binary of a major, fetched once (scripts/node-binary.mjs). */
export async function nodeBin(major: number): Promise<string> {
  const { stdout } = await exec(process.execPath, [
    join(ROOT, 'scripts/node-binary.mjs'),
    String(major),
  ]);
  return stdout.trim();
}

/** `npm pack` of this checkout, whose dist/ `npm test` has built, into `into`. */
export async function packThisCheckout(into: string): Promise<string> {
  const { stdout } = await exec('npm', ['pack', '--ignore-scripts', '--pack-destination', into], {
    cwd: ROOT,
  });
  return join(into, stdout.trim().split('\n').at(-1)!);
}

/** Whether petstore-kit's peer range for MSW takes this major (an older one refuses MSW 3). */
async function peerTakes(msw: number): Promise<boolean> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>;
  };
  return manifest.peerDependencies
    .msw!.split('||')
    .some((range) => range.trim().startsWith(`^${msw}.`));
}

/**
 * Makes the app in `work/app`: create-vite's react-ts template, its install, then petstore-kit
 * from `tarball` with the toolchain's MSW and Vitest.
 * @param extra more packages to install with them (`storybook@10`)
 * @returns the app, with the environment its commands run in (the pinned Node first on PATH)
 */
export async function freshApp(
  work: string,
  tarball: string,
  tools: Toolchain,
  extra: readonly string[] = [],
): Promise<FreshApp> {
  const bin = await nodeBin(tools.node);
  const dir = join(work, 'app');
  const env = { PATH: `${join(dir, 'node_modules/.bin')}:${bin}:${process.env.PATH ?? ''}` };
  const run = (args: string[], cwd: string) =>
    exec('npm', args, {
      cwd,
      env: { ...process.env, ...env, npm_config_yes: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    });
  await run(
    ['create', CREATE_VITE, 'app', '--', '--template', 'react-ts', '--no-interactive'],
    work,
  );
  await run(['install', ...NPM_FLAGS], dir);
  const packages = [tarball, `vitest@${tools.vitest}`, ...SNIPPET_PACKAGES, ...extra];
  if (await peerTakes(tools.msw)) {
    await run(['install', '--save-dev', ...NPM_FLAGS, ...packages, `msw@${tools.msw}`], dir);
  } else {
    // Until the peer range takes this MSW (the `versions` branch), npm refuses it (ERESOLVE):
    // the rest first, every peer resolved, then MSW alone past the peer check, so that the
    // check is skipped for it only, as a reader forcing it would.
    await run(['install', '--save-dev', ...NPM_FLAGS, ...packages], dir);
    await run(
      ['install', '--save-dev', ...NPM_FLAGS, '--legacy-peer-deps', `msw@${tools.msw}`],
      dir,
    );
  }
  return { dir, env };
}
