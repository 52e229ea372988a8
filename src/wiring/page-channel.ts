// The channel between the Playwright fixture and a mock running in the page (MSW's setupWorker):
// a function the fixture binds in every page of the test, that the page's mock calls per request.
import type { Force, SettingsChange } from '../core/scenarios/settings.js';

/** The name of the function the fixture binds in each page (Playwright's `exposeBinding`). */
export const PAGE_CHANNEL = '__petstoreKitControl';

/** What the test's controls asked of the page's mock since the test began. */
export interface PageControl {
  /** One more for every control: a page's mock applies what it has not seen yet. */
  version: number;
  /** One more for every reset: a page's mock that saw fewer is reset. */
  resets: number;
  /** The settings the controls changed since the last reset, as `PATCH /__mock/settings` takes them. */
  settings: SettingsChange;
}

/** What the page's mock tells after a request: the force left in its state, as a count ran down. */
export interface PageReport {
  /** The control it applied. */
  version: number;
  force: Force | null;
}

/** The function the page calls: a report (or none) in, the test's controls out. */
export type PageChannelCall = (report?: PageReport) => Promise<PageControl>;

/**
 * The test's controls for the mocks in its pages, kept in the test (a page's mock starts again on
 * each navigation): what `PATCH /settings` and `POST /reset` did to the server's session.
 * @example const channel = pageChannel(); channel.change({ force: { prefer: 'code=500' } });
 */
export function pageChannel() {
  let control: PageControl = { version: 0, resets: 0, settings: {} };
  return {
    /** A page's call: the controls, after keeping the force a page reports left of its count. */
    answer(report?: PageReport): PageControl {
      // A report on an older control would bring back a force the test has since replaced.
      if (report && report.version === control.version)
        control = { ...control, settings: { ...control.settings, force: report.force } };
      return control;
    },
    /** What `PATCH /settings` takes: merged over the settings changed so far. */
    change(settings: SettingsChange): void {
      control = {
        ...control,
        version: control.version + 1,
        settings: { ...control.settings, ...settings },
      };
    },
    /** What `POST /reset` does: the start-up data and settings. */
    reset(): void {
      control = { version: control.version + 1, resets: control.resets + 1, settings: {} };
    },
  };
}

/** The test's controls for its pages (pageChannel). */
export type PageChannel = ReturnType<typeof pageChannel>;
