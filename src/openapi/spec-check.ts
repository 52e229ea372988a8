import { createRequire } from 'node:module';
import { fragmentOf, pointerTokens } from './json-pointer.js';

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
  const errors = await schemaErrors(document);
  if (!Array.isArray(errors)) return [];
  const lines = deepest(errors as CheckError[]).map((error) => describe(error, document));
  return lines.length <= MAX_LINES
    ? lines
    : [
        ...lines.slice(0, MAX_LINES),
        `and ${lines.length - MAX_LINES} more places the OpenAPI check refuses`,
      ];
}

/** The check's compiled schema of one OpenAPI version (a method its types leave out). */
type SchemaCheck = ((document: unknown) => boolean) & { errors?: CheckError[] | null };

/**
 * Each version's check, compiled once a process, as `require` keeps the precompiled one: from
 * src/, compiling it is most of a reading's CPU (about 0.2 s a document).
 */
const compiledChecks = new Map<string, SchemaCheck>();

/**
 * What the check's schema of the document's version finds. Its `validate` also resolves every
 * `$ref` of a valid document, on a copy of it, and says what it found in a string, which
 * specDefects ignores (the resolver reads them), at the cost of a copy of the document. The
 * schema alone finds the same errors.
 */
async function schemaErrors(document: object): Promise<readonly CheckError[] | undefined> {
  const version = checkVersionOf(document as Record<string, unknown>);
  const compiled = version ? compiledChecks.get(version) : undefined;
  if (compiled) return compiled(document) ? undefined : (compiled.errors ?? undefined);
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const validator = new Validator({ allErrors: true }) as InstanceType<typeof Validator> & {
    getAjvValidator?: (version: string) => SchemaCheck;
  };
  if (typeof validator.getAjvValidator !== 'function' || !version) {
    const { errors } = await validator.validate(document as never);
    return Array.isArray(errors) ? (errors as CheckError[]) : undefined;
  }
  const check = precompiledCheck(version) ?? validator.getAjvValidator(version);
  compiledChecks.set(version, check);
  return check(document) ? undefined : (check.errors ?? undefined);
}

/**
 * The check of a version compiled at build time (scripts/build-openapi-checks.mjs writes it
 * beside the built module), when it was compiled from the check installed: loading it is far
 * cheaper than compiling it at start-up. Undefined from src/, or for a version only compiled
 * at run time.
 */
function precompiledCheck(version: string): SchemaCheck | undefined {
  const require = createRequire(import.meta.url);
  try {
    const check = require(`./checks/openapi-${version}.cjs`) as SchemaCheck & {
      checkVersion?: string;
    };
    const installed = require('@seriousme/openapi-schema-validator/package.json') as {
      version?: string;
    };
    return check.checkVersion === installed.version ? check : undefined;
  } catch {
    return undefined;
  }
}

/** The version whose schema the check picks: the first its field starts with, as the package reads it. */
function checkVersionOf(document: Record<string, unknown>): string | undefined {
  return ['2.0', '3.0', '3.1', '3.2'].find((version) => {
    const field = document[version === '2.0' ? 'swagger' : 'openapi'];
    return typeof field === 'string' && field.startsWith(version);
  });
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
  const segments = pointerTokens(error.instancePath);
  const where = fragmentOf(segments);
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
