// A closed mock leaves nothing running in the process that started it: a test run starts mock
// after mock in the same worker, and a large document's precompiling (see precompile) went on
// compiling its schemas for seconds after close.
import { describe, expect, it, vi } from 'vitest';
import { openMock } from '../src/wiring/start-mock.js';
import { resolveOptions } from '../src/wiring/options.js';
import { largeDocument } from './helpers.js';

describe('a mock of a large document, closed at once', () => {
  it('stops its work ahead, which had not finished, and is done at once', async () => {
    const spec = await largeDocument();
    // Timers stand still: no turn of the work ahead comes due, and its end is not waited for.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const opened = await openMock(resolveOptions({ spec, seedCount: 3 }));
      const running = opened.mock.precompiling;
      expect(running, 'a large document has work ahead').toBeDefined();
      await opened.close();
      const report = await running!.done;
      expect(report.stopped).toBe(true);
      expect(report.steps).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  }, 20_000);
});
