// The CLI bounds V8's heap when it is given a large document (src/cli/heap-bounds.ts): which
// launches start again with the young generation bounded, which go on as started, and when the
// old generation's growth is bounded in the process.
import { describe, expect, it } from 'vitest';
import { EAGER_CHECK_BYTES } from '../src/core/document-size.js';
import {
  GROWING_FLAG,
  growingFlag,
  namesLargeDocument,
  relaunchArgs,
  relaunchEnv,
  SEMI_SPACE_FLAG,
  type Launch,
} from '../src/cli/heap-bounds.js';

const NODE = '/usr/bin/node';
const BIN = '/app/bin.js';
const SIZES: Record<string, number> = {
  'large.json': EAGER_CHECK_BYTES + 1,
  'small.yaml': EAGER_CHECK_BYTES,
};
const bytesOf = (path: string) => SIZES[path];

const launch = (args: string[], more: Partial<Launch> = {}): Launch => ({
  execPath: NODE,
  argv: [NODE, BIN, ...args],
  execArgv: [],
  env: {},
  ...more,
});

/** Each bound as bin.ts decides it, the arguments' sizes read from SIZES. */
const relaunchOf = (at: Launch) => relaunchArgs(at, namesLargeDocument(at, bytesOf));
const growingOf = (at: Launch) => growingFlag(at, namesLargeDocument(at, bytesOf));

describe('relaunchArgs', () => {
  it('starts again, bounded, when an argument names a document past the eager size', () => {
    for (const args of [
      ['mock', '--spec', 'large.json'],
      ['mock', '--spec=large.json', '--quiet'],
      ['diff', 'small.yaml', 'large.json'],
    ])
      expect(relaunchOf(launch(args))).toEqual([NODE, `${SEMI_SPACE_FLAG}=8`, BIN, ...args]);
  });

  it('keeps the flags node was started with, before the script', () => {
    const relaunch = relaunchOf(
      launch(['mock', '--spec', 'large.json'], {
        execArgv: ['--enable-source-maps', '--cpu-prof'],
      }),
    );
    expect(relaunch).toEqual([
      NODE,
      '--enable-source-maps',
      '--cpu-prof',
      `${SEMI_SPACE_FLAG}=8`,
      BIN,
      'mock',
      '--spec',
      'large.json',
    ]);
  });

  it('goes on as started for a small document, a URL, or no document', () => {
    for (const args of [
      ['mock', '--spec', 'small.yaml'],
      ['mock', '--spec', 'https://example.com/large.json'],
      ['mock'],
      ['mock', '--spec='],
    ])
      expect(relaunchOf(launch(args))).toBeUndefined();
  });

  it('leaves a bound the user chose, in the flags or NODE_OPTIONS, and never starts twice', () => {
    const args = ['mock', '--spec', 'large.json'];
    for (const more of [
      { execArgv: [`${SEMI_SPACE_FLAG}=32`] },
      { execArgv: [SEMI_SPACE_FLAG, '32'] },
      { env: { NODE_OPTIONS: `--enable-source-maps ${SEMI_SPACE_FLAG}=4` } },
    ])
      expect(relaunchOf(launch(args, more))).toBeUndefined();
    const again = relaunchOf(launch(args))!;
    expect(
      relaunchOf({
        execPath: NODE,
        argv: [NODE, ...again.slice(2)],
        execArgv: [again[1]!],
        env: {},
      }),
    ).toBeUndefined();
  });

  it('stays in the process a debugger may be attached to', () => {
    const args = ['mock', '--spec', 'large.json'];
    for (const more of [
      { execArgv: ['--inspect-brk'] },
      { execArgv: ['--inspect=0'] },
      { env: { NODE_OPTIONS: '--inspect-wait' } },
    ])
      expect(relaunchOf(launch(args, more))).toBeUndefined();
  });

  it('stays in a process its parent talks to over IPC (PM2, fork()): a new start loses the channel', () => {
    expect(relaunchOf(launch(['mock', '--spec', 'large.json'], { channel: {} }))).toBeUndefined();
  });

  it('reads real files: a folder or a missing path is no document', () => {
    for (const [path, what] of [
      ['/', 'a folder'],
      ['/no/such/file.json', 'a missing path'],
    ]) {
      const at = launch(['mock', '--spec', path!]);
      expect(relaunchArgs(at, namesLargeDocument(at)), what).toBeUndefined();
    }
  });
});

describe('relaunchEnv', () => {
  it('starts again with two malloc arenas, unless the user chose a number', () => {
    expect(relaunchEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '2' });
    expect(relaunchEnv({ MALLOC_ARENA_MAX: '8' })).toEqual({ MALLOC_ARENA_MAX: '8' });
  });
});

describe('growingFlag', () => {
  it('bounds the growth for a large document, however the process started', () => {
    for (const more of [
      {},
      { execArgv: [`${SEMI_SPACE_FLAG}=8`] },
      { execArgv: ['--inspect'] },
      { channel: {} },
    ])
      expect(growingOf(launch(['mock', '--spec', 'large.json'], more))).toBe(`${GROWING_FLAG}=70`);
  });

  it('leaves V8 alone for a small document, a URL, or a growth the user chose', () => {
    expect(growingOf(launch(['mock', '--spec', 'small.yaml']))).toBeUndefined();
    expect(growingOf(launch(['mock', '--spec', 'https://example.com/large.json']))).toBeUndefined();
    expect(
      growingOf(launch(['mock', '--spec', 'large.json'], { execArgv: [`${GROWING_FLAG}=20`] })),
    ).toBeUndefined();
  });
});
