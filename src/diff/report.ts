import type { Change } from './change.js';
import { fails } from './levels.js';
import type { Level } from './rules.js';

/** The formats `petstore-kit diff --format` writes. */
export const DIFF_FORMATS = ['text', 'json', 'markdown', 'junit'] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

/** What the report says besides the changes. */
export interface DiffFacts {
  /** The two files, as the user named them. */
  readonly old: string;
  readonly now: string;
  /** The lowest level that fails the run. */
  readonly failOn: Level;
}

/** A change as `--format json` writes it. */
interface ChangeItem {
  readonly id: string;
  readonly level: Level;
  /** `METHOD /path #/json/pointer`. */
  readonly location: string;
  readonly operation: string | null;
  readonly pointer: string;
  readonly message: string;
}

/** The report of a diff: its one-sentence summary, its text, and its exit code. */
export interface DiffReport {
  readonly summary: string;
  readonly body: string;
  readonly exitCode: 0 | 1;
}

function locationOf(change: Change): string {
  return change.operation === undefined ? change.pointer : `${change.operation} ${change.pointer}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * The one-sentence verdict: whether a client written against the old description can fail
 * against the new one, and what else changed.
 * @example summaryOf([], facts) // 'petstore-kit diff: no change a client can see from old.yaml to new.yaml.'
 */
function summaryOf(changes: readonly Change[], facts: DiffFacts): string {
  const breaking = changes.filter((change) => change.level === 'breaking').length;
  const others = changes.length - breaking;
  const failing = changes.filter((change) => fails(change.level, facts.failOn)).length;
  const pair = `from ${facts.old} to ${facts.now}`;
  if (changes.length === 0) return `petstore-kit diff: no change a client can see ${pair}.`;
  const rest = others ? ` (and ${plural(others, 'other change')})` : '';
  if (breaking > 0)
    return `petstore-kit diff: ${plural(breaking, 'breaking change')} ${pair}${rest}: a client written against the old description can fail against the new one.`;
  if (failing > 0)
    return `petstore-kit diff: no breaking change ${pair}, but ${plural(failing, 'change')} at --fail-on ${facts.failOn} or above (of ${changes.length}).`;
  return `petstore-kit diff: no breaking change ${pair}; ${plural(others, 'other change')} reported.`;
}

/** The report in `format`. Its exit code is 1 when a change is at `failOn` or above. */
export function diffReport(
  changes: readonly Change[],
  facts: DiffFacts,
  format: DiffFormat,
): DiffReport {
  const summary = summaryOf(changes, facts);
  const exitCode = changes.some((change) => fails(change.level, facts.failOn)) ? 1 : 0;
  const body = WRITERS[format](changes, summary, facts);
  return { summary, body, exitCode };
}

const WRITERS: Record<
  DiffFormat,
  (changes: readonly Change[], summary: string, facts: DiffFacts) => string
> = {
  text: (changes, summary) =>
    [
      summary,
      ...changes.map(
        (change) =>
          `  ${change.level.padEnd(8)} ${change.id}  ${locationOf(change)}\n           ${change.message}`,
      ),
    ].join('\n') + '\n',

  json: (changes, summary) => {
    const item = (change: Change): ChangeItem => ({
      id: change.id,
      level: change.level,
      location: locationOf(change),
      operation: change.operation ?? null,
      pointer: change.pointer,
      message: change.message,
    });
    return (
      JSON.stringify(
        {
          summary,
          breaking: changes.filter((change) => change.level === 'breaking').map(item),
          nonBreaking: changes.filter((change) => change.level !== 'breaking').map(item),
        },
        null,
        2,
      ) + '\n'
    );
  },

  markdown: (changes, summary) => {
    const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
    const rows = changes.map(
      (change) =>
        `| ${change.level} | \`${change.id}\` | ${cell(change.operation ?? '')} \`${cell(change.pointer)}\` | ${cell(change.message)} |`,
    );
    return (
      [
        `**${summary}**`,
        ...(rows.length
          ? ['', '| Level | Rule | Location | Change |', '| --- | --- | --- | --- |', ...rows]
          : []),
      ].join('\n') + '\n'
    );
  },

  junit: (changes, summary, facts) => {
    const failing = changes.filter((change) => fails(change.level, facts.failOn));
    const cases = changes.map((change) => {
      const name = xml(`${change.id} ${locationOf(change)}`);
      return fails(change.level, facts.failOn)
        ? `    <testcase classname="petstore-kit diff" name="${name}">\n      <failure type="${change.level}" message="${xml(change.message)}">${xml(`${change.level}: ${change.message}`)}</failure>\n    </testcase>`
        : `    <testcase classname="petstore-kit diff" name="${name}"/>`;
    });
    // A run with nothing to fail still shows one passing check in the CI's test view.
    if (failing.length === 0)
      cases.unshift(`    <testcase classname="petstore-kit diff" name="${xml(summary)}"/>`);
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="petstore-kit diff" tests="${cases.length}" failures="${failing.length}">`,
      `  <testsuite name="${xml(`${facts.old} -> ${facts.now}`)}" tests="${cases.length}" failures="${failing.length}">`,
      ...cases,
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n');
  },
};

function xml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
