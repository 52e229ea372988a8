// @scalar/openapi-upgrader behind a plain signature. The build bundles this file with the
// upgrader inside (scripts/build-vendored.mjs): its package needs @scalar/openapi-types and zod,
// 8 MB that only its types use, which a user's install would otherwise get.
import { upgrade } from '@scalar/openapi-upgrader';

/**
 * A Swagger 2.0 document upgraded to OpenAPI 3.0, changed in place.
 * @example swaggerToOpenApi30({ swagger: '2.0', ... }).openapi // '3.0.4'
 */
export function swaggerToOpenApi30(document: Record<string, unknown>): Record<string, unknown> {
  return upgrade(document as never, '3.0') as unknown as Record<string, unknown>;
}
