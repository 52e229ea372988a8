// petstore-kit/express: the mock as middleware for an express (or connect) app of your own.
export {
  mockMiddleware,
  type MockMiddleware,
  type MockMiddlewareOptions,
  type NextFunction,
} from './wiring/express-middleware.js';
