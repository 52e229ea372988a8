import type { Kit } from '../kit.js';
import type { Rule } from '../rule.js';

/**
 * A write outside the collections that names no record and takes no body (`POST /cache/flush`,
 * httpbin's `DELETE /delete`) is called as its description says, without a body, and must
 * answer its documented success: an operation the suite cannot fill is still one it calls.
 */
export function bodilessRules(kit: Kit): Rule[] {
  return kit.plan.operations
    .filter(
      (operation) =>
        operation.method !== 'get' &&
        operation.method !== 'head' &&
        !kit.roleOf(operation) &&
        !operation.parameters.some((parameter) => parameter.in === 'path') &&
        operation.requestBody?.required !== true &&
        Object.keys(operation.requestBody?.content ?? {}).length === 0,
    )
    .map((operation) => {
      const success = kit.success(operation);
      return {
        name: kit.name(
          operation,
          undefined,
          `called without a body, as it takes none, answers ${success.label}`,
        ),
        createsData: true,
        async check(ctx) {
          kit.conforms(ctx, await kit.call(ctx, operation), operation, success);
        },
      };
    });
}
