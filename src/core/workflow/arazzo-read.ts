import { readFile } from 'node:fs/promises';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { LineCounter, isNode, parseDocument, type Document } from 'yaml';
import schema10 from './arazzo-1.0.schema.json' with { type: 'json' };
import schema11 from './arazzo-1.1.schema.json' with { type: 'json' };
import type { ArazzoDocument } from './arazzo-types.js';

/** One thing wrong with an Arazzo document, where it is and what to do. */
export interface Problem {
  /** 1-based line of the document, when known. */
  line: number | undefined;
  message: string;
  hint?: string | undefined;
}

/** An Arazzo document that cannot be run: every problem found, each with its line. */
export class ArazzoError extends Error {
  override name = 'ArazzoError';
  constructor(
    readonly file: string,
    readonly problems: readonly Problem[],
  ) {
    super(problems.map((problem) => describeProblem(file, problem)).join('\n'));
  }
}

/** A problem as one line: `flows.arazzo.yaml:12: ... (hint)`. */
function describeProblem(file: string, problem: Problem): string {
  const where = problem.line === undefined ? file : `${file}:${problem.line}`;
  return `${where}: ${problem.message}${problem.hint ? ` (${problem.hint})` : ''}`;
}

/** A read Arazzo document, with the line of each of its parts for later messages. */
export interface ReadArazzo {
  file: string;
  document: ArazzoDocument;
  /** The 1-based line of the value at a path of keys (`['workflows', 0, 'steps', 1]`). */
  lineOf(path: readonly (string | number)[]): number | undefined;
}

/**
 * Reads an Arazzo 1.0.x or 1.1.x document (YAML or JSON) and checks it against the JSON Schema
 * of its version (OAI's, shipped in this folder).
 * @throws {ArazzoError} with the line of each problem.
 * @example const { document } = await readArazzo('flows.arazzo.yaml');
 */
export async function readArazzo(file: string): Promise<ReadArazzo> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code ?? String(err);
    throw new ArazzoError(file, [
      { line: undefined, message: `cannot read the document (${code})` },
    ]);
  }
  return parseArazzo(text, file);
}

/** readArazzo on a text already read. */
function parseArazzo(text: string, file: string): ReadArazzo {
  const counter = new LineCounter();
  const parsed: Document = parseDocument(text, { lineCounter: counter, uniqueKeys: true });
  if (parsed.errors.length > 0) {
    const [error] = parsed.errors;
    const line = error?.linePos?.[0].line;
    throw new ArazzoError(file, [
      { line, message: `not YAML or JSON: ${error?.message.split('\n')[0] ?? ''}` },
    ]);
  }
  const lineOf = (path: readonly (string | number)[]): number | undefined => {
    for (let length = path.length; length >= 0; length--) {
      const node = parsed.getIn(path.slice(0, length), true);
      if (isNode(node) && node.range) return counter.linePos(node.range[0]).line;
    }
    return undefined;
  };
  const document: unknown = parsed.toJS({ maxAliasCount: 100 });
  const version =
    typeof document === 'object' && document !== null
      ? (document as { arazzo?: unknown }).arazzo
      : undefined;
  const schema = typeof version === 'string' ? schemaOf(version) : undefined;
  if (!schema)
    throw new ArazzoError(file, [
      {
        line: lineOf(['arazzo']),
        message:
          version === undefined
            ? 'not an Arazzo document: it has no "arazzo" version'
            : `Arazzo ${JSON.stringify(version)} is not a version this runner reads`,
        hint: 'arazzo: 1.0.1 or arazzo: 1.1.0',
      },
    ]);
  const validate = validatorOf(schema);
  if (!validate(document))
    throw new ArazzoError(file, [schemaProblem(validate.errors ?? [], document, lineOf)]);
  return { file, document: document as ArazzoDocument, lineOf };
}

function schemaOf(version: string): object | undefined {
  if (/^1\.0\.\d+(-.+)?$/.test(version)) return schema10;
  if (/^1\.1\.\d+(-.+)?$/.test(version)) return schema11;
  return undefined;
}

// Compiled once per process and schema: compiling the 2020-12 meta-schema takes a while.
const validators = new WeakMap<object, ReturnType<Ajv2020['compile']>>();

function validatorOf(schema: object): ReturnType<Ajv2020['compile']> {
  let validate = validators.get(schema);
  if (!validate) {
    // Formats are not asserted (2020-12 makes them annotations); strict off for the schema's
    // `if`s without `then` and its `$comment`s.
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/**
 * The one problem to tell of a document the schema refuses: the error deepest in the document
 * (a `oneOf` reports every arm's complaint; the deepest is the one about what was written).
 */
function schemaProblem(
  errors: readonly ErrorObject[],
  document: unknown,
  lineOf: ReadArazzo['lineOf'],
): Problem {
  const depth = (error: ErrorObject) => error.instancePath.split('/').length;
  const useful = errors.filter(
    (error) => !['oneOf', 'anyOf', 'if', 'allOf'].includes(error.keyword),
  );
  const pool = useful.length > 0 ? useful : errors;
  const [deepest] = [...pool].sort((a, b) => depth(b) - depth(a) || rank(a) - rank(b));
  if (!deepest) return { line: undefined, message: 'the document does not fit the Arazzo schema' };
  const path = deepest.instancePath
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((token) => (/^\d+$/.test(token) ? Number(token) : token));
  const params = deepest.params as Record<string, unknown>;
  const where = deepest.instancePath === '' ? 'the document' : deepest.instancePath;
  let message = `${where} ${deepest.message ?? 'is invalid'}`;
  let hint: string | undefined;
  let linePath = path;
  if (deepest.keyword === 'unevaluatedProperties' || deepest.keyword === 'additionalProperties') {
    const extra = String(params.unevaluatedProperty ?? params.additionalProperty);
    message = `${where === 'the document' ? 'the document' : where} has "${extra}", which Arazzo does not define there`;
    hint = 'extensions start with x-';
    linePath = [...path, extra];
  } else if (deepest.keyword === 'required') {
    message = `${where} lacks "${String(params.missingProperty)}"`;
  } else if (deepest.keyword === 'enum') {
    hint = `one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
  }
  void document;
  return { line: lineOf(linePath), message, hint };
}

/** Of errors at one depth, the one a person fixes first: a stray or missing property. */
function rank(error: ErrorObject): number {
  const order = ['unevaluatedProperties', 'additionalProperties', 'required', 'enum', 'type'];
  const index = order.indexOf(error.keyword);
  return index === -1 ? order.length : index;
}
