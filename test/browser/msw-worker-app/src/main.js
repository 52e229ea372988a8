// A dev app's entry as docs/frontend.md shows it: the mock in the page's service worker.
/* global window, document -- a page's module */
import { setupWorker } from 'msw/browser';
import { mockHandlers } from 'petstore-kit/msw';

const mock = await mockHandlers({ apiKeys: ['page-key'], seedCount: 3 });
const worker = setupWorker(...mock.handlers);
// Both names: MSW 3 renamed onUnhandledRequest to onUnhandledFrame.
await worker.start({ onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass', quiet: true });

// For the test: the mock (its reset), and a sign that the worker is in place.
window.mock = mock.mock;
document.body.dataset.mock = 'ready';
