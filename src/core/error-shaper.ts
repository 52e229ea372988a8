import type { OpenAPIV3_1 } from 'openapi-types';
import type { SchemaObject } from '../openapi/load.js';
import { jsonMediaOf, responseFor, type Operation } from '../openapi/operations.js';
import { ValueTimeError, type DataGenerator } from '../openapi/sample.js';
import { partsOf, propertiesOf } from '../openapi/schema-parts.js';
import type { SchemaCompiler } from '../openapi/schemas.js';
import { reasonPhrase, type ApiError } from '../vocabulary/errors.js';

type ResponseObject = OpenAPIV3_1.ResponseObject;

/** An error as it is sent: its body and the media type the spec gives it. */
export interface ShapedError {
  body: unknown;
  contentType: string;
}

/**
 * Shapes errors to fit the spec: the body the spec declares for the operation and status
 * (the exact status, its range, else `default`; for an error of no operation, such as a path
 * the spec lacks, the response the document's operations give that status most). Our `{code, message, status}` is used
 * whenever it fits that schema, as it does for the Error schema of our spec; a spec with
 * another error shape (Problem Details, `{error: ...}`) gets its own shape, with our
 * status, code and message put where its property names say they go.
 * @example errorAnswerFor(err, createCategory).body // { code: 'validation_failed', message: '...', status: 400 }
 */
export function createErrorShaper(
  compiler: SchemaCompiler,
  generator: DataGenerator,
  /** The document's own error response for a status, for errors of no operation. */
  fallback: (status: number) => ResponseObject | undefined,
  options: {
    /**
     * The process's CPU time so far, ms; undefined where there is none to read.
     * @default process.cpuUsage's user + system
     * @example () => undefined // every out-of-time failure counted as the schema's
     */
    cpuMs?: () => number | undefined;
  } = {},
): (error: ApiError, operation: Operation | undefined) => ShapedError {
  const cpuMs = options.cpuMs ?? processCpuMs;
  // Error schemas no value satisfies, remembered so that each error does not pay for every
  // attempt again; running out of time marks one only twice over, as a busy machine runs out too
  // (decisions/033-comments-say-why.md).
  const unsatisfiable = new WeakSet<object>();
  const outOfTime = new WeakMap<object, number>();
  // The filler of each error schema, made once: a large one is slow to make, on every 404.
  const samples = new WeakMap<object, unknown>();
  // When the error being shaped first made a filler: only making one can run out of time, and
  // an error whose fillers are made (nearly every one) reads no CPU time.
  let generating: { wall: number; cpu: number | undefined } | undefined;
  const sampleOf = (schema: SchemaObject): unknown => {
    if (!samples.has(schema)) {
      generating ??= { wall: performance.now(), cpu: cpuMs() };
      samples.set(schema, generator.value(schema, 'an error schema', { minimal: true }));
    }
    return samples.get(schema);
  };
  return (error, operation) => {
    const ours = error.toBody();
    const documented = operation
      ? responseFor(operation, error.status)?.response
      : fallback(error.status);
    const json = jsonMediaOf(documented);
    if (!json) return { body: ours, contentType: 'application/json' };
    const own = inShape(json, error, ours);
    if (own) return own;
    // An operation's own error schema that no value satisfies (Cloudflare's allOf of a success
    // envelope and a failure one) gives way to the shape the document's operations give most.
    const common = operation ? jsonMediaOf(fallback(error.status)) : undefined;
    const widely =
      common && common.schema !== json.schema ? inShape(common, error, ours) : undefined;
    // An error is always answered: when no documented shape can be made, our own body says
    // what went wrong, rather than a connection closed with nothing (a client cannot tell
    // that from a crash).
    return widely ?? { body: ours, contentType: json.type };
  };

  /** The error in a media type's schema; undefined when no value of it can be made. */
  function inShape(
    { type, schema }: { type: string; schema: SchemaObject },
    error: ApiError,
    ours: object,
  ): ShapedError | undefined {
    if (unsatisfiable.has(schema)) return undefined;
    generating = undefined;
    try {
      return { body: shaped(schema, error, ours), contentType: type };
    } catch (err) {
      if (!(err instanceof ValueTimeError)) {
        // A SpecError naming the schema; a compiler's own failure is answered the same way.
        unsatisfiable.add(schema);
        return undefined;
      }
      const after = cpuMs();
      const { wall, cpu } = generating ?? { wall: performance.now(), cpu: after };
      // Where there is no CPU time to read (a browser), the time is taken as the mock's own.
      const hadTheCpu =
        cpu === undefined ||
        after === undefined ||
        after - cpu >= OWN_CPU_SHARE * (performance.now() - wall);
      if (hadTheCpu) {
        const strikes = (outOfTime.get(schema) ?? 0) + 1;
        outOfTime.set(schema, strikes);
        if (strikes >= STRIKES_OUT_OF_TIME) unsatisfiable.add(schema);
      }
      return undefined;
    }
  }

  /** Ours when it fits, else ours mapped onto a sample of the schema, else a sample. */
  function shaped(schema: SchemaObject, error: ApiError, ours: object): unknown {
    const check = compiler.response(schema);
    if (check(ours).length === 0) return ours;
    const sample = () => sampleOf(schema);
    const fits = (property: SchemaObject, value: unknown) =>
      compiler.response(property)(value).length === 0;
    const mapped = mapOnto(schema, error, sample, { fits, sampleOf });
    return check(mapped).length === 0 ? mapped : structuredClone(sample());
  }
}

/**
 * Out of time with at least this share of the time spent on the mock's own CPU: the schema's
 * doing, not a machine too busy to give the generator its time.
 */
const OWN_CPU_SHARE = 0.8;
/** The process's CPU time so far, ms; undefined where there is none to read (a browser). */
function processCpuMs(): number | undefined {
  const usage = globalThis.process?.cpuUsage?.();
  return usage ? (usage.user + usage.system) / 1000 : undefined;
}

/** How often a schema may run out of time, with the CPU the mock's own, before it is given up. */
const STRIKES_OUT_OF_TIME = 2;

/** Property names that say where the status, the code and the message go. */
const STATUS_NAMES = /^(status|statusCode|status_code|httpStatus|code)$/i;
const CODE_NAMES = /^(code|error|error_?code|type|error_?type|reason|kind)$/i;
const MESSAGE_NAMES = /^(message|detail|details|description|error_description|msg)$/i;

/**
 * The message cut to the length its property allows, where it is longer: Unicourt's
 * `Exception` says `message: {maxLength: 255}`, and the mock's 500 naming a schema no value
 * satisfies is longer, so the property kept its sample's random text and the client read
 * `"message": "5bZHJxgfQxaF..."` in place of the mock's explanation.
 */
function cutToFit(message: string, property: SchemaObject): string[] {
  const max = property.maxLength;
  if (typeof max !== 'number' || max < 2 || [...message].length <= max) return [];
  return [`${[...message].slice(0, max - 1).join('')}…`];
}

/** The item schema of a property that lists errors (`errors`), when its items name a message or a code. */
function errorItemOf(name: string, property: SchemaObject): SchemaObject | undefined {
  if (!/^errors$/i.test(name)) return undefined;
  // `errors: { allOf: [$ref messages] }`: the items are a part's.
  const items = [property, ...partsOf(property)]
    .map((part): unknown => ('items' in part ? part.items : undefined))
    .find((found) => typeof found === 'object' && found !== null);
  if (items === undefined) return undefined;
  const item = items as SchemaObject;
  const names = Object.keys(propertiesOf(item));
  return names.some((key) => MESSAGE_NAMES.test(key) || CODE_NAMES.test(key)) ? item : undefined;
}

/**
 * Words that name an error of each kind, by status (the class's first, then HTTP's own). Read
 * from HTTP's meaning of a status, not from any document.
 */
const STATUS_WORDS: readonly [(status: number) => boolean, readonly string[]][] = [
  [
    (status) => status === 401,
    [
      'unauthorized',
      'unauthenticated',
      'authentication',
      'credential',
      'api_key',
      'token',
      'security',
    ],
  ],
  [(status) => status === 403, ['forbidden', 'permission', 'denied', 'security']],
  [
    (status) => status === 404,
    ['not_found', 'notfound', 'no_such', 'missing', 'invalid_request', 'unknown'],
  ],
  [(status) => status === 409, ['conflict', 'already_exists', 'duplicate']],
  [(status) => status === 429, ['rate_limit', 'too_many', 'throttl']],
  [(status) => status === 413 || status === 507, ['too_large', 'limit', 'quota', 'storage']],
  // What was sent is at fault: its body, its parameters, its media type.
  [
    (status) => [400, 405, 406, 411, 415, 422, 431].includes(status),
    ['validation', 'invalid', 'bad_request', 'malformed'],
  ],
  [
    (status) => status >= 500,
    ['internal', 'server', 'system', 'unavailable', 'unknown', 'unspecified', 'error'],
  ],
];

/**
 * The values a code property's `enum` lists that name an error like ours, the likeliest first
 * (an `error_type` enum of `security` and `system`, an `error_code` one of `unauthorized` and
 * `unknown`): where our own code is not listed, a sample's value is any of them, and a 401
 * would say `trial_expired`, a 500 `forbidden`.
 */
function listedFor(property: SchemaObject, error: ApiError): string[] {
  const listed = [property, ...partsOf(property)].flatMap((part) =>
    Array.isArray(part.enum) ? part.enum : [],
  );
  const texts = listed.filter((value): value is string => typeof value === 'string');
  if (texts.length === 0) return [];
  const words = STATUS_WORDS.filter(([applies]) => applies(error.status)).flatMap(
    ([, named]) => named,
  );
  const flat = (text: string) => text.toLowerCase().replace(/[^a-z]+/g, '_');
  // A value naming a credential or a permission is an error of those only: `invalid_api_key`
  // holds `invalid`, and a 400 of a body was answered as a bad key.
  const mentionsAccess = (text: string) => ACCESS.test(flat(text));
  const candidates =
    error.status === 401 || error.status === 403
      ? texts
      : texts.filter((text) => !mentionsAccess(text));
  // Of the values a word finds, the shortest first: a 500 is `api_error`, not
  // `api_connection_error`.
  return words.flatMap((word) =>
    candidates.filter((text) => flat(text).includes(word)).sort((a, b) => a.length - b.length),
  );
}

/** Words of a value that names a credential or a permission (see listedFor). */
const ACCESS = /auth|credential|api_?key|token|permission|forbidden|unauthori[sz]ed|security/;

function firstOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : undefined;
}

/**
 * Our error put into another schema's properties, by their names; each value only where it
 * fits its property (a `type` that must be a URI gets the code as a URN). The rest comes
 * from a generated sample of the schema.
 */
function mapOnto(
  schema: SchemaObject,
  error: ApiError,
  sample: () => unknown,
  schemas: {
    fits: (schema: SchemaObject, value: unknown) => boolean;
    /** A sample of a list's item, where the list's own sample is empty. */
    sampleOf: (schema: SchemaObject) => unknown;
  },
  depth = 0,
): unknown {
  const properties = propertiesOf(schema);
  const base = sample();
  const body: Record<string, unknown> =
    typeof base === 'object' && base !== null && !Array.isArray(base) ? { ...base } : {};
  const hasMessage = Object.keys(properties).some((name) => MESSAGE_NAMES.test(name));
  for (const [name, property] of Object.entries(properties)) {
    const candidates: unknown[] = [];
    if (STATUS_NAMES.test(name)) candidates.push(error.status);
    // JSON:API's `status` is the code as text ("404"); a `code` text is ours (`not_found`).
    if (STATUS_NAMES.test(name) && !/^code$/i.test(name)) candidates.push(String(error.status));
    if (CODE_NAMES.test(name)) {
      candidates.push(error.code, `urn:petstore-kit:error:${error.code}`);
      candidates.push(...listedFor(property, error));
    }
    if (MESSAGE_NAMES.test(name))
      candidates.push(error.message, ...cutToFit(error.message, property));
    if (/^title$/i.test(name))
      candidates.push(hasMessage ? (reasonPhrase(error.status) ?? error.code) : error.message);
    // An error wrapped in an object of its own (`{ error: { ... } }`):
    // the same names, one level down.
    if (depth === 0 && /^error$/i.test(name) && Object.keys(propertiesOf(property)).length > 0)
      candidates.push(mapOnto(property, error, () => body[name], schemas, depth + 1));
    // A list of errors (`errors: [{code, message}]`, JSON:API's, `error.errors`): ours as its one item, where a sample put a made-up message.
    const item = errorItemOf(name, property);
    if (depth <= 1 && item)
      candidates.push([
        mapOnto(
          item,
          error,
          () => firstOf(body[name]) ?? schemas.sampleOf(item),
          schemas,
          depth + 1,
        ),
      ]);
    const value = candidates.find((candidate) => schemas.fits(property, candidate));
    if (value !== undefined) body[name] = value;
  }
  return body;
}
