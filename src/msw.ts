// petstore-kit/msw: the mock as MSW request handlers, for tests and pages with no server.
export { mockHandlers, type MswMock, type MswMockOptions } from './wiring/msw-handlers.js';
