import type { Request } from 'express';
import type { CategoryStore } from './store.js';
import type { NewCategory } from './types.js';

/**
 * Serves one operation: returns the body of the success response, which the app sends
 * with the status the spec gives that operation. Throw an ApiError to fail.
 */
export type OperationHandler = (req: Request) => unknown;

/**
 * The stateful handlers of the categories operations, keyed by the spec's operationId.
 * @example categoryHandlers(createMemoryStore()).listCategories(req) // []
 */
export function categoryHandlers(store: CategoryStore): Record<string, OperationHandler> {
  return {
    listCategories: () => store.list(),
    createCategory: (req) => {
      // The validator has checked the body against NewCategory, `id` (read-only) included.
      const { name, description } = req.body as NewCategory;
      return store.create(description === undefined ? { name } : { name, description });
    },
  };
}
