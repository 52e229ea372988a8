// Every option a surface takes reaches what reads it: an option accepted and never read would
// be silently ignored (the drift an option left out of a copy of the settings used to cause).
// Each surface is started with its resolved options watched, and must read every row it takes.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Surface } from '../src/wiring/option-table.js';
import type * as OptionsModule from '../src/wiring/options.js';

type Options = typeof OptionsModule;

/** What each surface read of its resolved options, and which copied them whole. */
const reads = new Map<string, Set<string>>();
const copied = new Set<string>();

/** The resolved options of a surface, behind a Proxy that records every field read. */
function watched(actual: Options): Options['resolveOptions'] {
  return (...args) => {
    const surface = args[1] ?? 'startMock';
    const read = reads.get(surface) ?? new Set<string>();
    reads.set(surface, read);
    return new Proxy(actual.resolveOptions(...args), {
      get(target, key, receiver) {
        if (typeof key === 'string') read.add(key);
        return Reflect.get(target, key, receiver) as unknown;
      },
      // A copy (`{ ...settings }`) reads every field: it would hide what is really read.
      ownKeys(target) {
        copied.add(surface);
        return Reflect.ownKeys(target);
      },
    });
  };
}

let start: Record<Surface, () => Promise<unknown>>;
let taken: { optionsOf(surface: Surface): string[]; resolvedName(name: string): string };

// Workers keep their modules from file to file (vitest.config.ts: isolate false): the surfaces
// are imported afresh with the watched resolveOptions, and the next file imports them afresh.
beforeAll(async () => {
  vi.resetModules();
  vi.doMock('../src/wiring/options.js', async (importOriginal) => {
    const actual = await importOriginal<Options>();
    return { ...actual, resolveOptions: watched(actual) };
  });
  const [{ loadSpec }, { ADMIN_SPEC_PATH }, { mockHandlers }, { createApp }, express, table] =
    await Promise.all([
      import('../src/openapi/load.js'),
      import('../src/openapi/bundled.js'),
      import('../src/msw.js'),
      import('../src/wiring/create-app.js'),
      import('../src/wiring/express-middleware.js'),
      import('../src/wiring/option-table.js'),
    ]);
  const { startMock } = await import('../src/wiring/start-mock.js');
  const { startProxy } = await import('../src/wiring/start-proxy.js');
  const { resolvedName } = await import('../src/wiring/options.js');
  taken = { optionsOf: table.optionsOf, resolvedName: resolvedName as (name: string) => string };
  start = {
    startMock: async () => (await startMock()).close(),
    createApp: async () =>
      createApp({ spec: await loadSpec(), adminSpec: await loadSpec(ADMIN_SPEC_PATH) }),
    express: async () => (await express.mockMiddleware()).close(),
    msw: async () => (await mockHandlers()).close(),
    // Nothing is sent to the target before a request comes.
    proxy: async () => (await startProxy({ target: 'http://127.0.0.1:9/v1' })).close(),
  };
});

afterAll(() => {
  vi.doUnmock('../src/wiring/options.js');
  vi.resetModules();
});

const SURFACES: readonly Surface[] = ['startMock', 'createApp', 'express', 'msw', 'proxy'];

describe('the options each surface takes', () => {
  for (const surface of SURFACES) {
    it(`${surface} reads every option it takes, and never copies them whole`, async () => {
      await start[surface]();
      const read = reads.get(surface);
      expect(read, `${surface} resolved no options`).toBeDefined();
      expect(copied.has(surface), `${surface} copied its resolved options whole`).toBe(false);
      const unread = taken
        .optionsOf(surface)
        .filter((name) => !read?.has(taken.resolvedName(name)));
      expect(unread, `taken by ${surface} and never read`).toEqual([]);
    });
  }
});
