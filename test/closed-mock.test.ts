// A closed mock leaves nothing running in the process that started it: a test run starts mock
// after mock in the same worker, and a large document's precompiling (see precompile) went on
// compiling its schemas for seconds after close.
import { describe, expect, it } from 'vitest';
import { openMock } from '../src/wiring/start-mock.js';
import { resolveOptions } from '../src/wiring/options.js';
import { largeDocument } from './helpers.js';

describe('a mock of a large document, closed at once', () => {
  it('stops its work ahead, which had not finished', async () => {
    const opened = await openMock(resolveOptions({ spec: await largeDocument(), seedCount: 3 }));
    const running = opened.mock.precompiling;
    expect(running, 'a large document has work ahead').toBeDefined();
    await opened.close();
    const report = await running!.done;
    expect(report.stopped).toBe(true);
  }, 90_000);
});
