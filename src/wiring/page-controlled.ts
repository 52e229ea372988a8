// A mock in the page (MSW's setupWorker) under the Playwright fixture's controls: before each
// request it applies what the test asked through the page's channel (page-channel.ts).
import type { Mock } from '../core/create-mock.js';
import type { MockState } from '../core/state.js';
import { PAGE_CHANNEL, type PageChannelCall, type PageControl } from './page-channel.js';

/** How a mock answers a request. */
export type Answerer = (request: Request) => Promise<Response>;

/** What a state of the page's mock has applied of the controls. */
interface Applied {
  version: number;
  resets: number;
}

/**
 * `answer`, with the fixture's controls applied to the request's state first (its session, else
 * the default state) through the core's own reset and settings, so that a force counts, times out
 * and holds until cleared as on the server; the force a count leaves is reported back, and the
 * next page (after a navigation) starts from it. Without the fixture's channel, `answer` as is.
 */
export function pageControlled(mock: Mock, answer: Answerer): Answerer {
  const applied = new Map<string, Applied>();
  // One sync, then one report, at a time: two requests at once never apply a control twice,
  // and the last report read is the last the fixture keeps.
  let syncing: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const turn = syncing.then(work);
    syncing = turn.catch(() => undefined);
    return turn;
  };

  return async (request) => {
    const channel = (globalThis as Record<string, unknown>)[PAGE_CHANNEL];
    if (typeof channel !== 'function') return answer(request);
    const call = channel as PageChannelCall;
    const session = request.headers.get('mock-session') ?? undefined;
    const state = session === undefined ? mock.states.default : await mock.states.session(session);
    const control = await inTurn(async () => {
      const wanted = await call();
      await apply(mock, state, applied.get(session ?? ''), wanted);
      applied.set(session ?? '', { version: wanted.version, resets: wanted.resets });
      return wanted;
    });
    const response = await answer(request);
    if (control.settings.force) {
      // A page going away mid-call loses only the report, never an answer it still waits for.
      await inTurn(async () => {
        const { force } = await state.scenarios.settings();
        await call({ version: control.version, force: force ?? null });
      }).catch(() => undefined);
    }
    return response;
  };
}

/** Brings a state up to the test's controls: reset if the test reset since, then the settings. */
async function apply(
  mock: Mock,
  state: MockState,
  seen: Applied | undefined,
  wanted: PageControl,
): Promise<void> {
  if (seen?.version === wanted.version) return;
  // A state first seen here is the page's fresh start: nothing of an earlier reset to undo.
  if (seen !== undefined && seen.resets !== wanted.resets) await mock.states.reset(state);
  await state.scenarios.update(wanted.settings);
}
