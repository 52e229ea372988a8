import type { Request } from 'express';
import { CheckedJson, type RecordSerializer } from '../http/checked-json.js';
import type { CategoryStore } from './category-store.js';
import type { NewCategory } from '../types.js';

/**
 * Serves one operation: returns the body of the success response, which the app sends
 * with the status the spec gives that operation. Throw an ApiError to fail.
 */
export type OperationHandler = (req: Request) => unknown;

/** How the handlers check and serialize records, from the spec's response schemas. */
export interface CategorySerializers {
  /** For each item of the listCategories success response. */
  listItem: RecordSerializer;
  /** For the createCategory success response. */
  created: RecordSerializer;
}

/**
 * The stateful handlers of the categories operations, keyed by the spec's operationId.
 * The list is serialized once per version of the store, from records each checked once.
 * @example categoryHandlers(createMemoryStore(), serializers).listCategories(req) // CheckedJson of []
 */
export function categoryHandlers(
  store: CategoryStore,
  serializers: CategorySerializers,
): Record<string, OperationHandler> {
  let listed: { version: number; body: CheckedJson } | undefined;

  return {
    listCategories: () => {
      if (listed?.version !== store.version) {
        const items = store
          .list()
          .map((record, index) => serializers.listItem(record, `/${index}`));
        listed = {
          version: store.version,
          body: new CheckedJson(Buffer.from(`[${items.join(',')}]`)),
        };
      }
      return listed.body;
    },
    createCategory: (req) => {
      // The validator has checked the body against NewCategory, `id` (read-only) included.
      const { name, description } = req.body as NewCategory;
      const record = store.create(description === undefined ? { name } : { name, description });
      return new CheckedJson(Buffer.from(serializers.created(record, '')));
    },
  };
}
