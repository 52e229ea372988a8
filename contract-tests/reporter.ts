import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';

/** The annotation type of an advisory: JUnit writes it as a `warning` property of its test. */
export const ADVISORY = 'warning';

/**
 * What the suite adds to vitest's report: the advisories, each once with the rules that met
 * it (HTTP recommends it, the interface does not promise it: never a failure), and, when
 * `GITHUB_ACTIONS` is set, each failure and advisory as a GitHub annotation.
 */
export default class ContractReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const tests = testModules.flatMap((module) => [...module.children.allTests()]);
    const advisories = collectAdvisories(tests);
    const log = (text: string) => this.vitest?.logger.log(text);
    if (advisories.size > 0) {
      log('\nAdvisories: what HTTP recommends and the interface does not promise (not failures)');
      for (const [text, rules] of advisories)
        log(`  warning: ${text} (${rules} rule${rules === 1 ? '' : 's'})`);
    }
    if (process.env.GITHUB_ACTIONS !== 'true') return;
    for (const test of tests) {
      const result = test.result();
      if (result.state !== 'failed') continue;
      for (const error of result.errors)
        log(githubCommand('error', test.name, error.message ?? String(error)));
    }
    for (const text of advisories.keys()) log(githubCommand('warning', 'contract advisory', text));
  }
}

/** Each distinct advisory, and how many rules met it. */
export function collectAdvisories(tests: readonly TestCase[]): Map<string, number> {
  const advisories = new Map<string, number>();
  for (const test of tests) {
    for (const annotation of test.annotations()) {
      if (annotation.type === ADVISORY)
        advisories.set(annotation.message, (advisories.get(annotation.message) ?? 0) + 1);
    }
  }
  return advisories;
}

/**
 * A GitHub Actions workflow command, escaped as its toolkit escapes it.
 * @example githubCommand('error', 'rule 3', 'expected 401\ngot 200') // '::error title=rule 3::expected 401%0Agot 200'
 */
export function githubCommand(
  command: 'error' | 'warning',
  title: string,
  message: string,
): string {
  const data = (text: string) =>
    text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const property = (text: string) => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
  return `::${command} title=${property(title)}::${data(message)}`;
}
