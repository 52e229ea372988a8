import type { OpenAPIV3_1 } from 'openapi-types';
import type { OpenApiDocument, OperationObject } from './load.js';

type SecurityRequirement = OpenAPIV3_1.SecurityRequirementObject;

/** The method keys a Path Item may hold (fixed by OpenAPI itself, not by our spec). */
const PATH_ITEM_METHODS = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
] as const;
export type HttpMethod = (typeof PATH_ITEM_METHODS)[number];

/** One operation of the spec, with what the mock needs to serve it. */
export interface Operation {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The path as the spec writes it, e.g. `/pets/{petId}`. */
  readonly path: string;
  /** The same path in express syntax, e.g. `/pets/:petId`. */
  readonly expressPath: string;
  /** Matches the concrete paths (relative to the base path) of this operation's template. */
  readonly pattern: RegExp;
  /** The operation object, `$ref`s resolved. */
  readonly definition: OperationObject;
  /** The requirements in force: the operation's own `security`, else the document's. */
  readonly security: readonly SecurityRequirement[];
  /** Whether those requirements demand a credential (an empty requirement allows none). */
  readonly requiresCredential: boolean;
  /** The status the operation answers on success: its lowest 2xx response. */
  readonly successStatus: number;
}

/**
 * Every operation of a (resolved) document, in the spec's order.
 * @example listOperations(spec.resolved).map((op) => op.operationId) // ['listCategories', ...]
 */
export function listOperations(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of PATH_ITEM_METHODS) {
      const definition = item?.[method];
      if (!definition) continue;
      const security = definition.security ?? document.security ?? [];
      operations.push({
        operationId: definition.operationId ?? `${method} ${path}`,
        method,
        path,
        expressPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        pattern: templateToRegExp(path),
        definition,
        security,
        requiresCredential: requiresCredential(security),
        successStatus: lowestSuccessStatus(definition),
      });
    }
  }
  return operations;
}

/**
 * Whether security requirements demand a credential: an empty requirement object
 * means anonymous access is allowed.
 */
export function requiresCredential(requirements: readonly SecurityRequirement[]): boolean {
  return (
    requirements.length > 0 &&
    requirements.every((requirement) => Object.keys(requirement).length > 0)
  );
}

/**
 * A lookup of the operation a request (method, path relative to the base path) is for.
 * Paths without parameters are found in a map, so the common case costs no matching.
 * @example operationFinder(operations)('GET', '/pets/7')?.operationId // 'getPetById'
 */
export function operationFinder(
  operations: readonly Operation[],
): (method: string, path: string) => Operation | undefined {
  const literal = new Map<string, Operation>();
  const templated = operations.filter((op) => op.path.includes('{'));
  for (const op of operations)
    if (!op.path.includes('{')) literal.set(`${op.method} ${op.path}`, op);
  return (method, path) => {
    const lower = method.toLowerCase();
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    return (
      literal.get(`${lower} ${trimmed}`) ??
      templated.find((op) => op.method === lower && op.pattern.test(trimmed))
    );
  };
}

function templateToRegExp(template: string): RegExp {
  const source = template
    .split(/\{[^}]+\}/)
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}/?$`);
}

function lowestSuccessStatus(definition: OperationObject): number {
  const statuses = Object.keys(definition.responses ?? {})
    .map(Number)
    .filter((status) => status >= 200 && status < 300)
    .sort((a, b) => a - b);
  return statuses[0] ?? 200;
}
