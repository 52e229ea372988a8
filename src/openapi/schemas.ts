import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { DataValidationCxt, RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';
import addFormats from 'ajv-formats';
import { URI_FORMATS } from './formats.js';
import { SpecError, type OpenApiDocument, type SchemaObject } from './load.js';
import { schemaTree, type Hidden } from './schema-trees.js';

/** The reasons a value breaks a schema, as `<where> <what>`; empty when it conforms. */
export type SchemaCheck = (value: unknown, where?: string) => string[];

/** Where a value is checked: each refuses what the spec says never travels that way. */
type Direction = 'request' | 'response' | 'parameters' | 'form';

/**
 * Compiles schemas of a (resolved) spec for the three places the mock checks them. Each
 * schema object is compiled once per compiler and direction, on its first check.
 */
export interface SchemaCompiler {
  /** For request bodies: a `readOnly` property is refused, and never required. */
  request(schema: SchemaObject): SchemaCheck;
  /** For response bodies: a `writeOnly` property is refused, and never required. */
  response(schema: SchemaObject): SchemaCheck;
  /**
   * For parameters, which arrive as strings: the check converts the values of `record`
   * to the types their schemas give, in place, then checks them. Nothing is hidden: a
   * parameter is no property of a record, and `readOnly` on its schema (an account id in a
   * path) says the service sets it in answers, not that a client may not name it.
   */
  parameters(schema: SchemaObject): SchemaCheck;
  /**
   * For request bodies that arrive as strings (forms, multipart, text): converted as
   * parameters are, and a `readOnly` property is refused as in `request`.
   */
  form(schema: SchemaObject): SchemaCheck;
  /**
   * Compiles a schema now rather than on its first check, to hear at once of a defect.
   * @throws {SpecError} when ajv cannot compile it (its checks then throw the same).
   */
  prepare(direction: Direction, schema: SchemaObject): void;
}

/** Marks a property the current direction refuses (see FORBIDDEN). */
const FORBIDDEN_KEYWORD = 'x-petstore-forbidden';

/**
 * Refers to another schema kept on its own, which is compiled on the first check that reaches
 * it (see `lazyRefs`), where ajv compiles every schema a `$ref` can reach before the first check.
 */
const LAZY_REF_KEYWORD = 'x-petstore-lazy-ref';

const FORBIDDEN: Readonly<Record<Hidden, object>> = {
  readOnly: { [FORBIDDEN_KEYWORD]: 'is read-only: the service sets it, a client cannot send it' },
  writeOnly: { [FORBIDDEN_KEYWORD]: 'is write-only: it is never sent back' },
};

export interface SchemaCompilerOptions {
  /**
   * Called once for each of the patterns the compiler reads leniently: not a regular expression
   * with the `u` flag JSON Schema asks for, or not one at all.
   */
  warn?: (line: string) => void;
  /**
   * Whether the schemas a request or response body schema refers to are compiled when a check
   * first reaches them, rather than all with it: where every answer reaches one large graph of
   * named schemas, a first check compiles the few its value has, not the whole graph while the
   * event loop waits (decisions/033). Off, a small document pays nothing per check
   * for references read through a keyword. Parameters and forms, whose checks convert values in
   * place, always compile whole (their schemas are small).
   * @default false
   */
  lazyRefs?: boolean;
}

/**
 * Compiles schemas lazily and once: a schema is compiled on its first check (or `prepare`),
 * and each named schema of the document (`components/schemas`), and each recursive one, is
 * compiled once per direction and referred to by every schema that holds it, so a large
 * document's shared schemas are not compiled again inside each operation's. A schema ajv
 * cannot compile makes its checks throw a SpecError naming why, each time. A `pattern` that is
 * not a valid regular expression with the `u` flag is read without it, and one that is no
 * regular expression at all is ignored (each with a warning): a broken pattern loses its
 * check, not its operation.
 * @param document the resolved document whose named schemas are compiled once; without it,
 * only recursive schemas are.
 * @example const check = createSchemaCompiler(spec.resolved).response(categorySchema); check({ id: 1, name: 'Dog' }) // []
 */
export function createSchemaCompiler(
  document?: OpenApiDocument,
  options: SchemaCompilerOptions = {},
): SchemaCompiler {
  const names = new Map<object, string>();
  for (const [name, schema] of Object.entries(document?.components?.schemas ?? {}))
    if (typeof schema === 'object' && schema !== null) names.set(schema, name);
  const warned = new Set<string>();
  const regExp = tolerantRegExp((line) => {
    if (!warned.has(line)) options.warn?.(line);
    warned.add(line);
  });
  /** The name of each schema kept on its own, by its id: for the message when it cannot compile. */
  const namesById = new Map<string, string | undefined>();
  /**
   * The schemas given an id that only lazy references name so far: their trees are made when a
   * check first reaches one, so that a first check does not pay for them all.
   */
  const pending = new Map<string, () => void>();
  const strict = newAjv(false, regExp, {
    failure: (id, err) => compileFailure(namesById.get(id), err),
    added: (id) => pending.get(id)?.(),
  });
  let count = 0;

  /** One direction's compiler: its ajv, what it hides, and the schemas it keeps on their own. */
  function direction(
    ajv: Ajv2020,
    marker: Hidden | undefined,
    lazyRefs: boolean,
    alike: Map<string, ValidateFunction>,
    /**
     * The same direction with lazy references, for a schema whose compile overflowed the call
     * stack: ajv compiles every schema a `$ref` reaches inside the compile of the one holding
     * it, so a chain of a few hundred named schemas (each referring to the next) was one
     * recursion too deep; referred to lazily, each is compiled on its own, when a value reaches it.
     */
    deep?: () => { ready(schema: SchemaObject): SchemaCheck },
  ) {
    const ids = new WeakMap<object, string>();
    const compiled = new WeakMap<object, SchemaCheck | SpecError>();
    const lazy = new WeakMap<object, SchemaCheck>();
    const tree = {
      refer,
      hide: marker && { marker, forbidden: FORBIDDEN[marker] },
      ...(lazyRefs ? { lazyRef: LAZY_REF_KEYWORD } : {}),
    };
    function refer(schema: object, depth: number, lazily = false): string | undefined {
      if (depth === 0 && !names.has(schema)) return undefined;
      let id = ids.get(schema);
      if (id === undefined) {
        const own = `petstore-kit:schema/${++count}`;
        id = own;
        ids.set(schema, id);
        namesById.set(id, names.get(schema));
        // Added, not compiled: ajv compiles it when a check first refers to it.
        pending.set(id, () => {
          pending.delete(own);
          ajv.addSchema(schemaTree(schema as SchemaObject, { ...tree, rootReferred: true }), own);
        });
      }
      // A `$ref` needs its target in ajv before the tree holding it is compiled.
      if (!lazily) pending.get(id)?.();
      return id;
    }
    const compile = (schema: SchemaObject): SchemaCheck | SpecError => {
      try {
        // A named schema is compiled once, whether it is checked itself or inside another.
        const validate = names.has(schema)
          ? ajv.getSchema(refer(schema, 0) as string)
          : compileAlike(ajv, schemaTree(schema, tree), alike);
        if (!validate) throw new Error('it was not registered');
        return checkWith(validate);
      } catch (err) {
        if (deep && isStackOverflow(err)) {
          try {
            return deep().ready(schema);
          } catch (again) {
            return again instanceof SpecError ? again : compileFailure(names.get(schema), again);
          }
        }
        // A schema reached through a lazy reference names itself (see lazyReferences).
        return err instanceof SpecError ? err : compileFailure(names.get(schema), err);
      }
    };
    const ready = (schema: SchemaObject): SchemaCheck => {
      let check = compiled.get(schema);
      if (!check) compiled.set(schema, (check = compile(schema)));
      if (check instanceof SpecError) throw check;
      return check;
    };
    /** A check that compiles on its first call: a large spec's unused schemas cost nothing. */
    const check = (schema: SchemaObject): SchemaCheck => {
      let found = lazy.get(schema);
      if (!found) {
        let target: SchemaCheck | undefined;
        found = (value, where) => (target ??= ready(schema))(value, where);
        lazy.set(schema, found);
      }
      return found;
    };
    return { check, ready };
  }

  const coercing = newAjv('array', regExp);
  const lazyRefs = options.lazyRefs ?? false;
  // One per ajv: a tree compiled by one ajv is checked alike by another only if their options are.
  const alikeStrict = new Map<string, ValidateFunction>();
  const alikeCoercing = new Map<string, ValidateFunction>();
  // Made when a schema first needs them (see `deep`): with lazy references throughout.
  let deepRequest: ReturnType<typeof direction> | undefined;
  let deepResponse: ReturnType<typeof direction> | undefined;
  const directions: Record<Direction, ReturnType<typeof direction>> = {
    request: direction(
      strict,
      'readOnly',
      lazyRefs,
      alikeStrict,
      lazyRefs
        ? undefined
        : () => (deepRequest ??= direction(strict, 'readOnly', true, alikeStrict)),
    ),
    response: direction(
      strict,
      'writeOnly',
      lazyRefs,
      alikeStrict,
      lazyRefs
        ? undefined
        : () => (deepResponse ??= direction(strict, 'writeOnly', true, alikeStrict)),
    ),
    parameters: direction(coercing, undefined, false, alikeCoercing),
    form: direction(coercing, 'readOnly', false, alikeCoercing),
  };
  return {
    request: directions.request.check,
    response: directions.response.check,
    parameters: directions.parameters.check,
    form: directions.form.check,
    prepare(kind, schema) {
      directions[kind].ready(schema);
    },
  };
}

/**
 * The check of a tree, compiled once for every tree written alike: a large description writes
 * the same schema out again and again (decisions/033 has the counts), and each copy compiled
 * on its own would cost its compile and keep its own function and ajv's record of it. A tree is
 * plain JSON whose references name schemas by their ids, so the same text is the same check.
 */
function compileAlike(
  ajv: Ajv2020,
  tree: Record<string, unknown>,
  alike: Map<string, ValidateFunction>,
): ValidateFunction {
  // JSON writes Infinity (YAML's 1e309) and NaN as null: the replacer keeps them apart (and a
  // string that starts as it writes them apart from them).
  const text = JSON.stringify(tree, (_key, value: unknown) =>
    (typeof value === 'number' && !Number.isFinite(value)) ||
    (typeof value === 'string' && value.startsWith('\u0000'))
      ? `\u0000${String(value)}`
      : value,
  );
  let validate = alike.get(text);
  if (!validate) {
    validate = ajv.compile(tree);
    alike.set(text, validate);
  }
  return validate;
}

/** Whether an error is the call stack's overflow (directly, or as the SpecError that names it). */
function isStackOverflow(err: unknown): boolean {
  return (
    err instanceof RangeError ||
    (err instanceof SpecError && err.message.endsWith('Maximum call stack size exceeded'))
  );
}

/** Why a schema (named, when it is one of the document's) cannot be compiled, in one line. */
function compileFailure(name: string | undefined, err: unknown): SpecError {
  if (err instanceof SpecError) return err;
  const reason = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
  return new SpecError(
    `${name === undefined ? 'a schema' : `the schema #/components/schemas/${name}`} cannot be compiled: ${reason}`,
  );
}

/**
 * `new RegExp(pattern, 'u')` as ajv asks, else without the `u` flag (most specs write
 * patterns for the JavaScript of browsers: `\-` and `\:` are errors with it), else a pattern
 * that matches everything: a broken pattern loses its check, not its operation.
 */
function tolerantRegExp(warn: (line: string) => void): RegExpEngine {
  const engine = (pattern: string, flags: string): RegExpLike => {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // Below.
    }
    try {
      const loose = new RegExp(pattern, flags.replace('u', ''));
      warn(
        `the pattern ${JSON.stringify(pattern)} is not valid with the u flag JSON Schema asks for: read without it`,
      );
      return loose;
    } catch (err) {
      warn(
        `the pattern ${JSON.stringify(pattern)} is not a regular expression, so it is not checked: ${err instanceof Error ? err.message : String(err)}`,
      );
      return { test: () => true };
    }
  };
  return Object.assign(engine, { code: 'tolerantRegExp' });
}

/** What lazy references ask of the compiler: see lazyReferences. */
interface LazyTargets {
  /** Why the schema of an id cannot be compiled. */
  failure(id: string, err: unknown): SpecError;
  /** Adds the schema of an id to ajv, unless it is already there. */
  added(id: string): void;
}

function newAjv(
  coerceTypes: false | 'array',
  regExp: RegExpEngine,
  targets?: LazyTargets,
): Ajv2020 {
  // validateSchema off: checking each schema against the 2020-12 meta-schema first compiles
  // that meta-schema, a fifth of a second per instance; ajv still refuses a schema it cannot
  // compile (a bad type, a keyword of the wrong kind), which compile() turns into a warning.
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    coerceTypes,
    logger: false,
    validateSchema: false,
    // ajv's optimizing pass costs a large share of a big schema's compile, and its checks run
    // as fast without it (decisions/033).
    code: { regExp, optimize: false },
  });
  addFormats.default(ajv);
  // URIs as RFC 3986 defines them (ajv-formats' url refuses loopback hosts and relative ones).
  for (const [name, pattern] of Object.entries(URI_FORMATS)) ajv.addFormat(name, pattern);
  // OpenAPI's own formats, which JSON Schema does not define.
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  const forbidden: { (reason: string): boolean; errors?: Partial<ErrorObject>[] } = (reason) => {
    forbidden.errors = [{ keyword: FORBIDDEN_KEYWORD, message: reason, params: {} }];
    return false;
  };
  ajv.addKeyword({
    keyword: FORBIDDEN_KEYWORD,
    schemaType: 'string',
    errors: true,
    validate: forbidden,
  });
  if (targets) lazyReferences(ajv, targets);
  return ajv;
}

/**
 * The keyword of a lazy reference: the schema with that id is compiled on the first check that
 * reaches it, then checks the value as `$ref` would, its problems at the value's own place. One
 * that cannot be compiled throws `failure`'s SpecError, as the check of a schema that cannot.
 */
function lazyReferences(ajv: Ajv2020, { failure, added }: LazyTargets): void {
  // A schema that cannot be compiled is tried once: its failure is kept, as compile()'s are.
  const found = new Map<string, ValidateFunction | SpecError>();
  const refer: {
    (id: string, data: unknown, parent: unknown, context?: DataValidationCxt): boolean;
    errors?: Partial<ErrorObject>[];
  } = (id, data, _parent, context) => {
    let validate = found.get(id);
    if (!validate) {
      try {
        added(id);
        validate = ajv.getSchema(id) ?? failure(id, new Error('it was not registered'));
      } catch (err) {
        validate = failure(id, err);
      }
      found.set(id, validate);
    }
    if (validate instanceof SpecError) throw validate;
    // The context carries the value's place: the problems found below say where they are.
    const valid = validate(data, context) as boolean;
    refer.errors = valid ? undefined : (validate.errors ?? undefined);
    return valid;
  };
  ajv.addKeyword({
    keyword: LAZY_REF_KEYWORD,
    schemaType: 'string',
    errors: true,
    validate: refer,
  });
}

function checkWith(validate: ValidateFunction): SchemaCheck {
  return (value, where = '') =>
    validate(value) ? [] : (validate.errors ?? []).map((error) => describe(error, where));
}

/** One ajv error in words a client developer reads: where, then what. */
function describe(error: ErrorObject, where: string): string {
  const at = `${where}${error.instancePath}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${at}/${String(params.additionalProperty)} is not a known property`;
    case 'unevaluatedProperties':
      return `${at}/${String(params.unevaluatedProperty)} is not a known property`;
    case 'enum':
      return `${at} must be one of ${JSON.stringify(params.allowedValues)}`;
    case 'const':
      return `${at} must be ${JSON.stringify(params.allowedValue)}`;
    case 'type':
      return `${at} must be ${article(String(params.type))}`;
    default:
      return `${at} ${error.message ?? 'is not valid'}`;
  }
}

function article(type: string): string {
  const types = type.split(',');
  return types.map((t) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`)).join(' or ');
}
