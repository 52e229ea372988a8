import { pointerOf } from './schema-walk.js';

/** At most this many lines of defects; the rest are counted in one more line. */
const MAX_LINES = 10;

interface CheckError {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * The defects the official OpenAPI check (`@seriousme/openapi-schema-validator`, against the
 * schema of the document's own version) finds in a parsed document, one line each: empty for
 * a valid document. The check reports a defect in a schema once for every shape the spec
 * allows there ("not a Reference Object", "not a Schema Object"...): only the deepest place of
 * each is kept, with its most telling complaint. `$ref`s are left to the resolver, which reads
 * other files, where the check only reads this one.
 * @example await specDefects(document) // ['#/info must have required property \'version\'']
 */
export async function specDefects(document: object): Promise<string[]> {
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const { errors } = await new Validator({ allErrors: true }).validate(document as never);
  if (!Array.isArray(errors)) return [];
  const lines = deepest(errors as CheckError[]).map((error) => describe(error, document));
  return lines.length <= MAX_LINES
    ? lines
    : [
        ...lines.slice(0, MAX_LINES),
        `and ${lines.length - MAX_LINES} more places the OpenAPI check refuses`,
      ];
}

/** Keywords that only say that none of the alternatives matched: the least telling. */
const VAGUE = new Set(['oneOf', 'anyOf', 'if', 'not', '$ref', 'false schema']);

function deepest(errors: readonly CheckError[]): CheckError[] {
  const paths = new Set(errors.map((error) => error.instancePath));
  const isAncestor = (path: string) =>
    [...paths].some((other) => other !== path && other.startsWith(`${path}/`));
  const byPath = new Map<string, CheckError>();
  for (const error of errors) {
    if (isAncestor(error.instancePath)) continue;
    const kept = byPath.get(error.instancePath);
    if (!kept || (VAGUE.has(kept.keyword) && !VAGUE.has(error.keyword)))
      byPath.set(error.instancePath, error);
  }
  return [...byPath.values()];
}

function describe(error: CheckError, document: object): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  const where = pointerOf(segments);
  const params = error.params ?? {};
  let what = error.message ?? 'is not valid';
  if (error.keyword === 'additionalProperties')
    what = `has "${String(params.additionalProperty)}", which is not allowed there`;
  else if (error.keyword === 'enum' && Array.isArray(params.allowedValues))
    what = `must be one of ${params.allowedValues.join(', ')}`;
  const value = valueAt(document, segments);
  const found =
    value === undefined || typeof value === 'object' ? '' : ` (it is ${JSON.stringify(value)})`;
  return `${where} ${what}${found}`;
}

function valueAt(document: unknown, segments: readonly string[]): unknown {
  let value = document;
  for (const segment of segments) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
