// Each surface takes the options its rows of the table name, and refuses the others, in the
// compiler and at run time alike: an option MSW cannot honour is never silently ignored.
import { describe, expect, it } from 'vitest';
import { createApp, loadSpec, StartupError, type AppOptions } from '../src/index.js';
import type { MockMiddlewareOptions } from '../src/wiring/express-middleware.js';
import { mockHandlers, type MswMockOptions } from '../src/msw.js';
import { MOCK_OPTIONS, optionsOf, type Surface } from '../src/wiring/option-table.js';
import { resolveOptions, type MockOptions } from '../src/wiring/options.js';
import type { ProxyOptions } from '../src/wiring/start-proxy.js';

const SURFACES: readonly Surface[] = ['startMock', 'createApp', 'express', 'msw', 'proxy'];

function refusal(run: () => unknown): StartupError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(StartupError);
    return err as StartupError;
  }
  throw new Error('it was not refused');
}

describe('the surfaces of the options', () => {
  it('every option is taken by at least one surface, and startMock takes every flag of the mock', () => {
    for (const [name, row] of Object.entries(MOCK_OPTIONS)) {
      expect(row.takenBy.length, name).toBeGreaterThan(0);
      const mockFlag = (row.flags ?? []).some(
        (flag) => !('commands' in flag) || (flag.commands as readonly string[]).includes('mock'),
      );
      if (mockFlag) expect(row.takenBy, name).toContain('startMock');
    }
  });

  it('refuses, at run time, an option of the table that a surface does not take', () => {
    for (const surface of SURFACES) {
      const others = (Object.keys(MOCK_OPTIONS) as (keyof typeof MOCK_OPTIONS)[]).filter(
        (name) => !optionsOf(surface).includes(name),
      );
      for (const name of others) {
        const error = refusal(() => resolveOptions({ [name]: 'x' }, surface));
        expect(error.code, `${surface} ${name}`).toBe('unknown_option');
        expect(error.message).toContain(`unknown option ${name}:`);
      }
    }
  });

  it('mockHandlers refuses a port instead of ignoring it', async () => {
    const error: unknown = await mockHandlers({ port: 4010 } as MswMockOptions).catch(
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(StartupError);
    expect((error as StartupError).code).toBe('unknown_option');
  });

  it('createApp takes the real options (delayMs, maxSessions), and refuses a data file it cannot open', async () => {
    const spec = await loadSpec();
    const app = createApp({ spec, delayMs: 5, maxSessions: 3, faultTimeoutSeconds: 1 });
    expect(app.mock.basePath).toBe('/v1');
    const error = refusal(() => createApp({ spec, data: 'x.jsonl' } as AppOptions));
    expect(error.code).toBe('unknown_option');
  });

  it('gives each surface a type made of its rows', () => {
    const mock: MockOptions = { port: 4010, watch: true, coverageFile: 'c.json' };
    const app: AppOptions = { spec: {} as AppOptions['spec'], delayMs: 100, cors: false };
    const express: MockMiddlewareOptions = { watch: true, cors: false };
    const proxy: ProxyOptions = { target: 'http://x', port: 0, bodyLimit: 10 };
    // @ts-expect-error MSW does not listen
    const msw: MswMockOptions = { port: 4010 };
    // @ts-expect-error createApp opens no data file
    const appData: AppOptions = { spec: {} as AppOptions['spec'], data: 'x.jsonl' };
    // @ts-expect-error the proxy's target answers: no scenarios
    const proxyDelay: ProxyOptions = { target: 'http://x', delayMs: 100 };
    // @ts-expect-error mounted in an app, the mock does not listen
    const expressPort: MockMiddlewareOptions = { port: 1 };
    expect([mock, app, express, proxy, msw, appData, proxyDelay, expressPort]).toHaveLength(8);
  });
});
