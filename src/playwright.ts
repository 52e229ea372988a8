// petstore-kit/playwright: Playwright's test with the mock, a session per worker.
export {
  expect,
  test,
  type ForceOptions,
  type LoggedRequest,
  type MockFixtureOptions,
  type RequestQuery,
  type TestMock,
} from './wiring/playwright-fixture.js';
