import type { Reporter, TestModule } from 'vitest/node';
import { SKIP_NOTE_PREFIX } from './chromium.js';

/** Tests that need a program the machine may lack: how their skip notes start, what they are. */
export interface SkippedKind {
  prefix: string;
  /** Plural, e.g. `browser tests`. */
  what: string;
}

/**
 * Ends the run's summary with a banner when tests were skipped for want of a program they
 * need (Chromium, redis-server), so that a green run never hides them. It reports what
 * happened (tests skipped with such a note), not what was expected to happen.
 */
export class SkipBannerReporter implements Reporter {
  constructor(
    private readonly out: NodeJS.WritableStream = process.stderr,
    private readonly kinds: readonly SkippedKind[] = [
      { prefix: SKIP_NOTE_PREFIX, what: 'browser tests' },
    ],
  ) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const notes = new Map<string, { count: number; what: string }>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state !== 'skipped' || !result.note) continue;
        const note = result.note;
        const kind = this.kinds.find((k) => note.startsWith(k.prefix));
        if (kind) {
          const seen = notes.get(note) ?? { count: 0, what: kind.what };
          notes.set(note, { ...seen, count: seen.count + 1 });
        }
      }
    }
    for (const [note, { count, what }] of notes) {
      const rule = '!'.repeat(Math.min(note.length, 100));
      this.out.write(`\n${rule}\n${note}\n(${count} ${what} did not run)\n${rule}\n\n`);
    }
  }
}
