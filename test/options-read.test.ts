// Every option a surface takes reaches what reads it: an option accepted and never read would
// be silently ignored (the drift an option left out of a copy of the settings used to cause).
// Each surface is started with its resolved options watched, and must read every row it takes.
import { describe, expect, it, vi } from 'vitest';
import { loadSpec } from '../src/openapi/load.js';
import { ADMIN_SPEC_PATH } from '../src/openapi/bundled.js';
import { mockHandlers } from '../src/msw.js';
import { createApp } from '../src/wiring/create-app.js';
import { mockMiddleware } from '../src/wiring/express-middleware.js';
import { optionsOf, type Surface } from '../src/wiring/option-table.js';
import { resolvedName } from '../src/wiring/options.js';
import { startMock } from '../src/wiring/start-mock.js';
import { startProxy } from '../src/wiring/start-proxy.js';

/** What each surface read of its resolved options, and which copied them whole. */
const watched = vi.hoisted(() => ({
  reads: new Map<string, Set<string>>(),
  copied: new Set<string>(),
}));

vi.mock(import('../src/wiring/options.js'), async (importOriginal) => {
  const actual = await importOriginal();
  return {
    ...actual,
    resolveOptions(...args: Parameters<typeof actual.resolveOptions>) {
      const surface = args[1] ?? 'startMock';
      const read = watched.reads.get(surface) ?? new Set<string>();
      watched.reads.set(surface, read);
      return new Proxy(actual.resolveOptions(...args), {
        get(target, key, receiver) {
          if (typeof key === 'string') read.add(key);
          return Reflect.get(target, key, receiver) as unknown;
        },
        // A copy (`{ ...settings }`) reads every field: it would hide what is really read.
        ownKeys(target) {
          watched.copied.add(surface);
          return Reflect.ownKeys(target);
        },
      });
    },
  };
});

/** Starts each surface with its defaults, and stops it. */
const START: Record<Surface, () => Promise<unknown>> = {
  startMock: async () => (await startMock()).close(),
  createApp: async () =>
    createApp({ spec: await loadSpec(), adminSpec: await loadSpec(ADMIN_SPEC_PATH) }),
  express: async () => (await mockMiddleware()).close(),
  msw: async () => (await mockHandlers()).close(),
  // Nothing is sent to the target before a request comes.
  proxy: async () => (await startProxy({ target: 'http://127.0.0.1:9/v1' })).close(),
};

describe('the options each surface takes', () => {
  for (const surface of Object.keys(START) as Surface[]) {
    it(`${surface} reads every option it takes, and never copies them whole`, async () => {
      await START[surface]();
      const read = watched.reads.get(surface);
      expect(read, `${surface} resolved no options`).toBeDefined();
      expect(watched.copied.has(surface), `${surface} copied its resolved options whole`).toBe(
        false,
      );
      const unread = optionsOf(surface).filter((name) => !read?.has(resolvedName(name)));
      expect(unread, `taken by ${surface} and never read`).toEqual([]);
    });
  }
});
