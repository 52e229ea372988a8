// What the MSW tests need to run under either major: `msw` is MSW 2, or MSW 3 in the msw3 project.
import mswPackage from 'msw/package.json' with { type: 'json' };

/** The major of the MSW these tests run with: 2, or 3 in the msw3 project (vitest.config.ts). */
export const MSW_MAJOR = Number(mswPackage.version.split('.')[0]);

/** The major each project must run with, as vitest.config.ts sets it. */
export const EXPECTED_MSW_MAJOR = Number(process.env.PETSTORE_KIT_MSW_MAJOR ?? '2');

/**
 * `listen`/`start` options for unhandled requests in both majors: MSW 3 renamed
 * `onUnhandledRequest` to `onUnhandledFrame` and silently ignores the old name.
 * @example server.listen(unhandled('error'))
 */
export function unhandled(strategy: 'bypass' | 'warn' | 'error'): {
  onUnhandledRequest: typeof strategy;
} {
  // Given as a variable, not a literal: MSW 2's types know only the first name.
  const both = { onUnhandledRequest: strategy, onUnhandledFrame: strategy };
  return both;
}
