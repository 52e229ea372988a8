import type { Reporter, TestModule } from 'vitest/node';
import { SKIP_NOTE_PREFIX } from './chromium.js';

/**
 * Ends the run's summary with a banner when browser tests were skipped for want of
 * Chromium, so that a green run never hides them. It reports what happened (tests skipped
 * with that note), not what was expected to happen.
 */
export class BrowserSkipReporter implements Reporter {
  constructor(private readonly out: NodeJS.WritableStream = process.stderr) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const notes = new Map<string, number>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'skipped' && result.note?.startsWith(SKIP_NOTE_PREFIX)) {
          notes.set(result.note, (notes.get(result.note) ?? 0) + 1);
        }
      }
    }
    for (const [note, count] of notes) {
      const rule = '!'.repeat(Math.min(note.length, 100));
      this.out.write(`\n${rule}\n${note}\n(${count} browser tests did not run)\n${rule}\n\n`);
    }
  }
}
