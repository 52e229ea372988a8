// The one judge of an answer against what the description documents for it: the validating
// proxy, `petstore-kit traffic`, the workflow runner and the contract suite all ask it, so that
// the same exchange gets the same verdict from each. Which schema engine checks a value is the
// caller's (the mock's compiled schemas, the suite's own ajv): the judgements are made here.
import { referenceHeaderFormat } from './formats.js';
import { essenceOf, isJsonMediaType } from './media-types.js';

/** A schema as the judge reads it: plain JSON Schema, `$ref`s resolved. */
export type JudgedSchema = Readonly<Record<string, unknown>>;

/** One documented response, as the contract plan writes it (`PlanResponse` is one). */
export interface DocumentedAnswer {
  /** Media types (as the spec writes them) and their schemas (`{}` when none is given). */
  readonly content: Readonly<Record<string, JudgedSchema | undefined>>;
  /** By lower-case name; `content-type` is not one (OpenAPI ignores it). */
  readonly headers: Readonly<
    Record<string, { readonly required: boolean; readonly schema: JudgedSchema }>
  >;
}

/** An operation as the judge reads it: its id and its documented responses by status key. */
export interface JudgedOperation {
  readonly operationId: string;
  readonly responses: Readonly<Record<string, DocumentedAnswer | undefined>>;
}

/** An answer as the judge reads it: as it was received. */
export interface JudgedAnswer {
  /** The request's method, when known: a HEAD's answer has no body to check. */
  readonly method?: string | undefined;
  readonly status: number;
  /** By lower-case name. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The body as text; undefined when it was not kept (too large to hold). */
  readonly text: string | undefined;
}

/** How the caller checks a value against a schema: each reason it breaks it, none when it fits. */
export interface AnswerValidator {
  /** A JSON body, in the response direction (`writeOnly` properties are not required). */
  body(schema: JudgedSchema, value: unknown): string[];
  /** A header's text, read as the type its schema gives (headers travel as text). */
  header(name: string, schema: JudgedSchema, text: string): string[];
}

/** Which part of the answer breaks the description (the proxy's violation rules use these names). */
type AnswerRule = 'status' | 'headers' | 'content-type' | 'body' | 'error-shape';

/**
 * One way an answer breaks the description. `what` says it in words that alike answers share
 * (a report groups by it); `details` say where, one line each.
 */
interface AnswerBreach {
  readonly rule: AnswerRule;
  readonly what: string;
  readonly details: readonly string[];
}

/**
 * The documented response of an operation for a status: the exact one, its range (`4XX`),
 * else `default`, as OpenAPI reads them.
 * @example documentedFor(createCategory, 400)?.key // '400'
 */
function documentedFor<T extends DocumentedAnswer>(
  operation: { readonly responses: Readonly<Record<string, T | undefined>> },
  status: number,
): { key: string; response: T } | undefined {
  const range = String(status)[0];
  for (const key of [String(status), `${range}XX`, `${range}xx`, 'default']) {
    const response = operation.responses[key];
    if (response) return { key, response };
  }
  return undefined;
}

/** Judges an answer against what its operation documents (see createAnswerJudge). */
export type AnswerJudge = (operation: JudgedOperation, answer: JudgedAnswer) => AnswerBreach[];

/**
 * The judge of answers, checking values with the caller's validator: the status (exact, range
 * or `default`), the headers the answer's response requires and their schemas (a `Location`
 * read as the URI reference HTTP defines), the media type, a body where one is documented, the body against its schema, and an error body's own `status` field
 * agreeing with the answer's.
 * @example createAnswerJudge(validator)(createThing, { status: 201, headers, text }) // []
 */
export function createAnswerJudge(validator: AnswerValidator): AnswerJudge {
  /** A Location's schema read as a URI reference, made once per schema so that it compiles once. */
  const references = new WeakMap<JudgedSchema, JudgedSchema>();
  const referenceSchema = (schema: JudgedSchema, format: string): JudgedSchema => {
    let relaxed = references.get(schema);
    if (!relaxed) references.set(schema, (relaxed = { ...schema, format }));
    return relaxed;
  };
  return (operation, answer) => judgeAnswer(operation, answer, validator, referenceSchema);
}

function judgeAnswer(
  operation: JudgedOperation,
  answer: JudgedAnswer,
  validator: AnswerValidator,
  referenceSchema: (schema: JudgedSchema, format: string) => JudgedSchema,
): AnswerBreach[] {
  const { status } = answer;
  const documented = documentedFor(operation, status);
  if (!documented) {
    const statuses = Object.keys(operation.responses).join(', ');
    return [
      {
        rule: 'status',
        what: `undocumented ${status} answers`,
        details: [
          `${operation.operationId} does not document ${status} (it documents ${statuses || 'no response'})`,
        ],
      },
    ];
  }
  const { response } = documented;
  const found = headerBreaches(response, answer, validator, referenceSchema);
  const types = Object.keys(response.content);
  const { text } = answer;
  if (answer.method === 'HEAD' || status === 204 || status === 304 || text === '') {
    if (
      types.length > 0 &&
      text === '' &&
      answer.method !== 'HEAD' &&
      status !== 204 &&
      status !== 304
    )
      found.push({
        rule: 'body',
        what: `${status} answers without a body`,
        details: [
          `the answer has no body; the spec gives ${status} a body of ${types.join(' or ')}`,
        ],
      });
    return found;
  }
  const sent = headerText(answer.headers['content-type']);
  // A response documented with no content says nothing of a body, rather than that there is
  // none (`400: Invalid username supplied`, which a correct server answers with an error
  // body): failing it would be a false alarm; nothing to judge.
  if (types.length === 0) return found;
  const essence = sent === undefined ? undefined : essenceOf(sent);
  const matched = essence === undefined ? undefined : matchType(types, essence);
  if (matched === undefined) {
    found.push({
      rule: 'content-type',
      what: `${status} answers that are not ${types.join(' or ')}`,
      details: [`expected a body of ${types.join(' or ')}, got ${sent ?? 'no Content-Type'}`],
    });
    return found;
  }
  if (text === undefined || essence === undefined || !isJsonMediaType(essence)) return found;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    found.push({
      rule: 'body',
      what: `${status} answers whose body is not JSON`,
      details: [`the body is not valid JSON: ${JSON.stringify(text.slice(0, 80))}`],
    });
    return found;
  }
  const schema = response.content[matched] ?? {};
  const rule = status >= 400 ? 'error-shape' : 'body';
  const reasons = validator.body(schema, value);
  if (reasons.length > 0)
    found.push({
      rule,
      what: `${status} answers that do not fit the ${schemaName(schema)} schema`,
      details: reasons,
    });
  // An error body that repeats the status (the bundled Error schema, RFC 9457's Problem
  // Details) must repeat the one it was sent with.
  const reported = (value as { status?: unknown } | null)?.status;
  if (status >= 400 && typeof reported === 'number' && reported !== status)
    found.push({
      rule: 'error-shape',
      what: `${status} answers whose body gives another status`,
      details: [`the error body says status ${reported}, the HTTP status is ${status}`],
    });
  return found;
}

/**
 * The name a report gives a schema: its component's name (the plan's `x-schema-name`), else
 * what it is.
 * @example schemaName({ 'x-schema-name': 'Error' }) // 'Error'
 */
export function schemaName(schema: JudgedSchema): string {
  const name = schema['x-schema-name'];
  if (typeof name === 'string' && name) return name;
  const items = schema.items;
  if (schema.type === 'array' && typeof items === 'object' && items !== null)
    return `array of ${schemaName(items as JudgedSchema)}`;
  return 'documented';
}

function headerBreaches(
  response: DocumentedAnswer,
  answer: JudgedAnswer,
  validator: AnswerValidator,
  referenceSchema: (schema: JudgedSchema, format: string) => JudgedSchema,
): AnswerBreach[] {
  const found: AnswerBreach[] = [];
  for (const [name, header] of Object.entries(response.headers)) {
    if (name === 'content-type') continue;
    const value = headerText(answer.headers[name]);
    if (value === undefined) {
      if (header.required)
        found.push({
          rule: 'headers',
          what: `${answer.status} answers without the required ${name} header`,
          details: [`the spec requires a ${name} header on this answer`],
        });
      continue;
    }
    const format = referenceHeaderFormat(name, header.schema.format);
    const schema = format === undefined ? header.schema : referenceSchema(header.schema, format);
    const reasons = validator.header(name, schema, value);
    if (reasons.length > 0)
      found.push({
        rule: 'headers',
        what: `${answer.status} answers whose ${name} header breaks its schema`,
        details: reasons,
      });
  }
  return found;
}

/** The spec's media type an answer's matches: exact, then `type/*`, then `*\/*`. */
function matchType(types: readonly string[], essence: string): string | undefined {
  const lower = types.map(essenceOf);
  const range = `${essence.split('/')[0] ?? ''}/*`;
  for (const wanted of [essence, range, '*/*']) {
    const at = lower.indexOf(wanted);
    if (at !== -1) return types[at];
  }
  return undefined;
}

function headerText(value: string | readonly string[] | undefined): string | undefined {
  return value === undefined || typeof value === 'string' ? value : value.join(', ');
}
