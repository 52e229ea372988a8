// The fields of a record a write makes: what the client may write, what the service sets
// (ids, timestamps, references to the parent, required fields the client does not send), and
// nothing that would break what the spec says of the record.
import { errors } from '../../vocabulary/error-catalogue.js';
import type { SchemaObject } from '../../openapi/load.js';
import type { Operation } from '../../openapi/operations.js';
import { SpecError } from '../../openapi/load.js';
import type { Resource } from '../../openapi/resources.js';
import { ID_WORDS, wordsOf } from '../../openapi/item-key.js';
import { linkOf } from '../../openapi/link-key.js';
import { objectArmsOf } from '../../openapi/envelopes.js';
import type { DataGenerator } from '../../openapi/sample.js';
import {
  carries,
  isReadOnly,
  propertiesOf,
  requiredOf,
  typesOf,
} from '../../openapi/schema-parts.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import type { Collection, RecordId, StoredRecord } from '../../store/store.js';
import { applyMergePatch } from './merge-patch.js';
import { CREATED, UPDATED } from './timestamps.js';
import { storeKeysOf, upperCaseUuid, type StoreKeys } from './store-keys.js';
import { withoutWriteOnly } from './write-only.js';
import { isJsonObject, keyIn, setField } from '../../vocabulary/record.js';

/** The fields of a new record, and its id when it is not the store's to make. */
export interface NewRecord {
  fields: Record<string, unknown>;
  id?: RecordId;
}

export interface RecordMakerOptions {
  compiler: SchemaCompiler;
  generator: DataGenerator;
  /** @default () => new Date() */
  now?: () => Date;
}

/** How many made-up keys are tried before the store is left to make one. */
const KEY_ATTEMPTS = 10;
/** The last word of a property that holds an opaque id: the store makes those (UUIDs). */
const OPAQUE_ID = new Set([...ID_WORDS, 'key', 'token']);

/**
 * Makes the fields of new and changed records of one resource.
 * @example await new RecordMaker(users, options).create({ username: 'ada' }, [], collection) // { fields: {...}, id: 'ada' }
 */
export class RecordMaker {
  readonly #properties: Readonly<Record<string, SchemaObject>>;
  /** The record's property names by their words, for bodies that spell them otherwise. */
  readonly #byWords: ReadonlyMap<string, string>;
  readonly #required: ReadonlySet<string>;
  /** Fields of S the service sets: not written by clients, or `readOnly`. */
  readonly #serverSet: readonly [string, SchemaObject][];
  /** Properties a client never writes: those the service sets, and `writeOnly` ones. */
  readonly #notClients: ReadonlySet<string>;
  /** The properties each operation's request body declares (see #declaredBy), by operation. */
  readonly #declared = new Map<Operation, ReadonlySet<string>>();
  /** The words of the properties each operation's request body declares, by operation. */
  readonly #declaredWords = new Map<Operation, ReadonlySet<string>>();
  /** The properties each operation's request body lets a client set to null, by operation. */
  readonly #nullable = new Map<Operation, ReadonlySet<string>>();
  /** Whether new keys are made from the key's schema (see hasMeaningfulKey), not by the store. */
  readonly #meaningfulKey: boolean;
  /** Who writes the keys the store would (see StoreKeys): known on the first create. */
  #storeKeys: StoreKeys | undefined;
  readonly #now: () => Date;
  /** A maker for each kind of record of a polymorphic collection (see Resource.variants). */
  readonly #variants: readonly { schema: SchemaObject; maker: RecordMaker }[];
  /** The record's own property that holds its key; none where an object of it does (idWithin). */
  readonly #ownKey: string | undefined;

  constructor(
    readonly resource: Resource,
    readonly options: RecordMakerOptions,
  ) {
    this.#properties = propertiesOf(resource.schema);
    this.#required = requiredOf(resource.schema);
    this.#byWords = new Map(
      Object.keys(this.#properties).map((name) => [wordsOf(name).join(' '), name]),
    );
    const { writable, references } = resource;
    this.#ownKey = resource.idWithin ? undefined : resource.idProperty;
    this.#serverSet = Object.entries(this.#properties).filter(
      ([name, schema]) =>
        name !== this.#ownKey &&
        !references.has(name) &&
        (isReadOnly(schema) || (writable !== undefined && !writable.has(name))),
    );
    this.#notClients = new Set([
      ...this.#serverSet.map(([name]) => name),
      ...Object.entries(this.#properties)
        .filter(([, schema]) => carries(schema, 'writeOnly'))
        .map(([name]) => name),
    ]);
    this.#meaningfulKey = hasMeaningfulKey(resource);
    this.#now = options.now ?? (() => new Date());
    // The first kind is the one S was made of: this maker.
    this.#variants = (resource.variants ?? []).map((schema, index) => ({
      schema,
      maker:
        index === 0 ? this : new RecordMaker({ ...resource, schema, variants: undefined }, options),
    }));
  }

  /**
   * The maker of the kind of record the client's fields fit (none of them refused by that
   * kind's definition of it, the most of them declared by it), else the one a `current`
   * record is, else this one: a keyword rule's `trigger_type: 1` made a record of the first
   * kind, whose `trigger_type` is 4, and was "made anew" as 4.
   */
  #makerFor(body: unknown, current?: StoredRecord): RecordMaker {
    if (this.#variants.length === 0) return this;
    const fits = (schema: SchemaObject, fields: unknown): number => {
      if (!isJsonObject(fields)) return 0;
      const properties = propertiesOf(schema);
      // By words, as fields are stored: a form's `PrivacyPolicyUrl` is the field
      // `privacy_policy_url` of the one kind that holds it.
      const byWords = new Map(
        Object.keys(properties).map((name) => [wordsOf(name).join(' '), name]),
      );
      let declared = 0;
      for (const name of Object.keys(fields)) {
        const property = properties[name] ?? properties[byWords.get(wordsOf(name).join(' ')) ?? ''];
        if (!property) continue;
        if (this.options.compiler.response(property)(fields[name], name).length > 0) return -1;
        declared++;
      }
      return declared;
    };
    // The client's fields decide; between kinds they fit alike, the current record's kind.
    let best: { maker: RecordMaker; score: number } | undefined;
    for (const { schema, maker } of this.#variants) {
      const sent = fits(schema, body);
      if (sent < 0) continue;
      const score = sent * 2 + (current && fits(schema, current) >= 0 ? 1 : 0);
      if (!best || score > best.score) best = { maker, score };
    }
    // Fields no kind's record holds as sent (a `null` a patch clears with) choose no kind.
    if (!best && current)
      return this.#variants.find(({ schema }) => fits(schema, current) >= 0)?.maker ?? this;
    return best?.maker ?? this;
  }

  /**
   * The fields of a new record, and its id when it is not the store's to make: the one the
   * client chose (when the create body lets it), or one made from the id property's schema.
   * A promise only when the store is asked about the key; the store making the id, none.
   * @throws {ApiError} 409 when the client's id is taken; 400 when a field would break the record's schema.
   */
  create(
    body: unknown,
    scope: readonly string[],
    collection: Collection,
    operation: Operation,
    query: Readonly<Record<string, unknown>> = {},
  ): NewRecord | Promise<NewRecord> {
    const maker = this.#makerFor(this.#unwrap(body, operation));
    if (maker !== this) return maker.create(body, scope, collection, operation, query);
    body = this.#unwrap(body, operation);
    // Each source in turn, a later one's field in place of an earlier one's. Set into one
    // object rather than spread: spreads of objects of many shapes are V8's slow path.
    const fields: Record<string, unknown> = {};
    this.#serverFields(undefined, fields);
    this.references(scope, fields);
    this.#fromQuery(query, fields);
    this.#clientFields(body, fields);
    this.#fill(fields, undefined);
    this.#fit(fields, body, this.#declaredBy(operation), 'new');
    const sent = this.#sentKey(body) ?? this.#keyNamedIn(body);
    if (sent !== undefined) return this.#withFreeKey(fields, sent, collection);
    // Kept, it could not be read back; made anew, it would not be what the client sent.
    if (this.resource.clientChosenId && isJsonObject(body) && keyIn(body, this.resource) === '')
      throw errors.emptyKey(this.resource.name, this.resource.idProperty);
    // The store makes the id (integers, UUIDs): nothing to look up, no promise to wait for.
    const keys = this.#meaningfulKey ? 'schema' : this.#keysOfStore();
    if (keys === 'store') return { fields };
    if (keys === 'upper')
      return upperCaseUuid(async (id) => (await collection.get(id)) !== undefined).then((id) => ({
        fields,
        id,
      }));
    return this.#madeUpId(collection, scope).then((id) => ({ fields, id }));
  }

  /** The fields with the key the client chose, once the store is known not to hold it. */
  async #withFreeKey(
    fields: Record<string, unknown>,
    sent: RecordId,
    collection: Collection,
  ): Promise<NewRecord> {
    if (await collection.get(sent))
      throw errors.recordExists(this.resource.name, this.resource.idProperty, sent);
    return { fields, id: sent };
  }

  /**
   * The fields of a record after a `put` (the client's fields replaced; required ones it left
   * out kept) or a `patch` (a JSON Merge Patch of the client's fields), the service's kept and
   * its update timestamps refreshed. The id is the caller's to keep or change (see renamedTo).
   * @throws {ApiError} 400 when the record would break its schema.
   */
  change(
    current: StoredRecord,
    body: unknown,
    action: 'replace' | 'update',
    operation: Operation,
    scope: readonly string[],
  ): Record<string, unknown> {
    const maker = this.#makerFor(this.#unwrap(body, operation), current);
    if (maker !== this) return maker.change(current, body, action, operation, scope);
    body = this.#unwrap(body, operation);
    const client =
      action === 'replace'
        ? this.#clientFields(body)
        : this.#patched(this.#clientFields(current), this.#clientFields(body), operation);
    const fields: Record<string, unknown> = {};
    this.#serverFields(current, fields);
    this.references(scope, fields);
    for (const [name, value] of Object.entries(client)) setField(fields, name, value);
    if (action === 'replace') {
      this.#keepUnexpressed(current, fields, operation);
      this.#fill(fields, current);
    }
    this.#fit(fields, body, this.#declaredBy(operation), action === 'update' ? 'patched' : 'new');
    return fields;
  }

  /**
   * A replace keeps the client's fields its body cannot express: Intercom's PUT of a
   * conversation attribute declares its name and description, not the `data_type` the create
   * chose, and a replace that dropped it left a record of no kind (a 500 on every answer). A
   * field the body declares and leaves out is removed, as a replace does.
   */
  #keepUnexpressed(
    current: StoredRecord,
    fields: Record<string, unknown>,
    operation: Operation,
  ): void {
    const declared = this.#declaredBy(operation);
    if (declared.size === 0) return;
    let words = this.#declaredWords.get(operation);
    if (!words) {
      words = new Set([...declared].map((name) => wordsOf(name).join(' ')));
      this.#declaredWords.set(operation, words);
    }
    for (const [name, value] of Object.entries(this.#clientFields(current)))
      if (!(name in fields) && !words.has(wordsOf(name).join(' '))) setField(fields, name, value);
  }

  /**
   * The client's fields after a patch: a JSON Merge Patch, where `null` removes a field (and
   * removing one the record requires is refused), except where the operation's request body
   * itself declares the field may be null and the record requires it: that `null` empties it,
   * null where the record allows it, else an empty list, else a value made anew (an edit
   * that documents `embeds: null` to clear a list the record requires).
   */
  #patched(
    current: Record<string, unknown>,
    patch: Record<string, unknown>,
    operation: Operation,
  ): Record<string, unknown> {
    const merged = applyMergePatch(current, patch) as Record<string, unknown>;
    for (const name of Object.keys(patch)) {
      if (patch[name] !== null || !this.#required.has(name)) continue;
      if (!this.#nullableBy(operation).has(name)) continue;
      const schema = this.#properties[name] ?? {};
      const types = typesOf(schema);
      if (this.options.compiler.response(schema)(null, name).length === 0) merged[name] = null;
      else if (types.includes('array')) merged[name] = [];
      else merged[name] = this.#made(name, schema);
    }
    return merged;
  }

  /**
   * The new id a `put` or `patch` body gives the record, when the client chooses ids (a
   * `username`) and sends another one than the path's: the record moves there. A key within
   * an object of the record (as `metadata.name`) is its name for life: it stays.
   */
  renamedTo(body: unknown, operation: Operation, id: RecordId): RecordId | undefined {
    if (this.resource.idWithin) return undefined;
    const sent = this.#sentKey(this.#unwrap(body, operation));
    return sent === undefined || String(sent) === String(id) ? undefined : sent;
  }

  /**
   * The id a (unwrapped) body chooses, when the client chooses ids: a number, or a string that
   * is not empty (an empty one could not address the record in its path, so it is left out).
   */
  #sentKey(body: unknown): RecordId | undefined {
    if (!this.resource.clientChosenId || !isJsonObject(body)) return undefined;
    const sent = keyIn(body, this.resource);
    return typeof sent === 'number' || (typeof sent === 'string' && sent !== '') ? sent : undefined;
  }

  /**
   * The key a create body names in another property than the key (see Resource.keyInBody),
   * where it is one the key property can hold: any other is left to the service to make.
   */
  #keyNamedIn(body: unknown): RecordId | undefined {
    const { keyInBody, idKind, idProperty } = this.resource;
    if (keyInBody === undefined || !isJsonObject(body)) return undefined;
    const sent = body[keyInBody];
    const key = idKind === 'integer' && typeof sent === 'string' ? Number(sent) : sent;
    if (!(
      (typeof key === 'string' && key !== '') ||
      (typeof key === 'number' && Number.isFinite(key))
    ))
      return undefined;
    const fits =
      this.options.compiler.response(this.#properties[idProperty] ?? {})(key, idProperty).length ===
        0 && this.options.compiler.response(this.resource.keySchema)(key, idProperty).length === 0;
    return fits ? key : undefined;
  }

  /**
   * The fields of a body the client may write: those the request bodies declare, or any the
   * service does not set, with the `writeOnly` properties nested in them left out (taken in,
   * never shown: see withoutWriteOnly); set into `fields`, which is returned.
   */
  #clientFields(body: unknown, fields: Record<string, unknown> = {}): Record<string, unknown> {
    if (!isJsonObject(body)) return fields;
    const { writable, references } = this.resource;
    for (const sent of Object.keys(body)) {
      const value = body[sent];
      // Stored under the record's name for it: a body's `FriendlyName` is the record's `friendly_name`.
      const name =
        sent in this.#properties ? sent : (this.#byWords.get(wordsOf(sent).join(' ')) ?? sent);
      if (name === this.#ownKey || references.has(name)) continue;
      const allowed = writable ? writable.has(name) : !this.#notClients.has(name);
      if (allowed) setField(fields, name, withoutWriteOnly(value, this.#properties[name] ?? {}));
    }
    return fields;
  }

  /** Server-set fields, set into `fields`: kept from `current`, made on create (`readOnly` and required ones), timestamps refreshed. */
  #serverFields(current: StoredRecord | undefined, fields: Record<string, unknown>): void {
    for (const [name, schema] of this.#serverSet) {
      if (isTimestamp(schema) && (UPDATED.test(name) || (!current && CREATED.test(name))))
        fields[name] = this.#now().toISOString();
      else if (current && name in current) fields[name] = current[name];
      else if (!current && (isReadOnly(schema) || this.#required.has(name)))
        fields[name] = this.#made(name, schema);
    }
  }

  /**
   * Query parameters of a create that name a record property (`POST /hooks?site_id=...`): the
   * record's, where the body does not say otherwise; set into `fields`.
   */
  #fromQuery(query: Readonly<Record<string, unknown>>, fields: Record<string, unknown>): void {
    for (const sent of Object.keys(query)) {
      const value = query[sent];
      const name = sent in this.#properties ? sent : this.#byWords.get(wordsOf(sent).join(' '));
      if (name === undefined || name === this.#ownKey || value === undefined) continue;
      if (this.#serverSet.some(([server]) => server === name)) continue;
      setField(fields, name, value);
    }
  }

  /**
   * The properties that repeat a parameter of the collection path (`userId` of a post), from
   * the path; set into `fields`, which is returned.
   */
  references(
    scope: readonly string[],
    fields: Record<string, unknown> = {},
  ): Record<string, unknown> {
    for (const [name, index] of this.resource.references) {
      const text = scope[index];
      if (text === undefined) continue;
      const types = typesOf(this.#properties[name] ?? {});
      const number = Number(text);
      const numeric = types.includes('integer') || types.includes('number');
      if (numeric && text !== '' && Number.isFinite(number)) fields[name] = number;
      // A path value no number reads (an id that may also be a file name) leaves a numeric
      // field as the record has it: written as text, it would break every answer.
      else if (!numeric || types.includes('string')) fields[name] = text;
    }
    return fields;
  }

  /** Required fields still missing: kept from `current`, else made. */
  #fill(fields: Record<string, unknown>, current: StoredRecord | undefined): void {
    for (const name of this.#required) {
      if (name === this.#ownKey || name in fields) continue;
      // Required and described nowhere: any value will do.
      const schema = this.#properties[name] ?? {};
      if (current && name in current) fields[name] = current[name];
      else
        fields[name] = isTimestamp(schema) ? this.#now().toISOString() : this.#made(name, schema);
    }
  }

  /**
   * Every field checked against what S says of it. A value the request body's own schema
   * declared (and so the request check accepted) that S defines otherwise is one the service
   * transforms: it is made anew. Any other misfit, or a required field removed, is the client's: a 400.
   */
  #fit(
    fields: Record<string, unknown>,
    body: unknown,
    declared: ReadonlySet<string>,
    change: 'patched' | 'new',
  ): void {
    const problems: string[] = [];
    for (const name of Object.keys(fields)) {
      const value = fields[name];
      const schema = this.#properties[name];
      if (!schema) continue;
      const found = this.options.compiler.response(schema)(value, `/body/${name}`);
      if (found.length === 0) continue;
      const fromClient = isJsonObject(body) && name in body;
      if (fromClient && !declared.has(name)) problems.push(...found);
      else this.#remade(fields, name, schema);
    }
    for (const name of this.#required)
      if (name !== this.#ownKey && !(name in fields))
        problems.push(`/body must have required property '${name}'`);
    if (problems.length > 0) throw errors.recordWouldBreak(change, problems);
  }

  /**
   * A field the service transforms, made anew from S; left out when S allows no value of it
   * and the record does not require it. An array whose `enum` lists strings, which no array fits,
   * is such a field.
   * @throws {SpecError} when the record requires the field and no value of it can be made.
   */
  #remade(fields: Record<string, unknown>, name: string, schema: SchemaObject): void {
    try {
      fields[name] = this.#made(name, schema);
    } catch (err) {
      if (!(err instanceof SpecError) || this.#required.has(name)) throw err;
      Reflect.deleteProperty(fields, name);
    }
  }

  /** The properties the operation's request body declares for the record. */
  #declaredBy(operation: Operation): ReadonlySet<string> {
    let names = this.#declared.get(operation);
    if (!names) {
      names = new Set(
        this.#bodySchemasOf(operation).flatMap((schema) => Object.keys(propertiesOf(schema))),
      );
      this.#declared.set(operation, names);
    }
    return names;
  }

  /** The schemas of the record in the operation's request bodies (unwrapped from their envelope). */
  #bodySchemasOf(operation: Operation): SchemaObject[] {
    const envelope = this.resource.bodies.get(operation);
    return envelope ? [envelope.record] : [...(operation.requestBody?.content.values() ?? [])];
  }

  /** The properties the operation's request body declares that may be null. */
  #nullableBy(operation: Operation): ReadonlySet<string> {
    let names = this.#nullable.get(operation);
    if (!names) {
      // Each kind a body of several kinds may be: the kind that lets a field be null is the
      // one a `{trigger_metadata: null}` is (a patch clearing one kind's field), whichever kind is first.
      const kinds = [...(operation.requestBody?.content.values() ?? [])].flatMap(objectArmsOf);
      names = new Set(
        [...this.#bodySchemasOf(operation), ...kinds].flatMap((schema) =>
          Object.entries(propertiesOf(schema))
            .filter(([, property]) => this.options.compiler.request(property)(null).length === 0)
            .map(([name]) => name),
        ),
      );
      this.#nullable.set(operation, names);
    }
    return names;
  }

  /** The client's fields out of a wrapped body (`{data: {...}}`). */
  #unwrap(body: unknown, operation: Operation): unknown {
    const envelope = this.resource.bodies.get(operation);
    return envelope?.kind === 'wrapped' && isJsonObject(body) ? body[envelope.property] : body;
  }

  /** Who writes the keys the store would make (see StoreKeys), asked of the key's schema once. */
  #keysOfStore(): StoreKeys {
    return (this.#storeKeys ??= storeKeysOf(this.resource, this.options.generator.compiler));
  }

  /**
   * An id made from the key's schema, for a key whose schema says what it looks like.
   * @throws {ApiError} 409 when every id the schema allows (a short enum) is taken.
   */
  async #madeUpId(collection: Collection, scope: readonly string[]): Promise<RecordId> {
    const { keyLink } = this.resource;
    const id = await madeUpKey(
      keyLink && scope.length > 0
        ? { ...this.resource, keyLink: { ...keyLink, template: linkOf(keyLink.template, scope) } }
        : this.resource,
      this.options.generator,
      async (key) => (await collection.get(key)) !== undefined,
    );
    if (id === undefined) throw errors.keysExhausted(this.resource.name, this.resource.idProperty);
    return id;
  }

  #made(name: string, schema: SchemaObject): unknown {
    return this.options.generator.value(schema, `${this.resource.name}.${name}`);
  }
}

/**
 * Whether new keys of a resource are made from the id property's schema (a `username`, a
 * `slug`, a string with a pattern) rather than by the store (integers counting up, UUIDs).
 * @example hasMeaningfulKey(users) // true: `username` says what it holds
 */
export function hasMeaningfulKey(resource: Resource): boolean {
  const opaque =
    OPAQUE_ID.has(wordsOf(resource.idProperty).at(-1) ?? '') && !hasShape(resource.keySchema);
  return resource.idKind === 'string' && !opaque;
}

/**
 * A new key made from the resource's key schema, not `taken`, for a resource whose keys say
 * something (the caller has asked hasMeaningfulKey); undefined when none was found free.
 * @example await madeUpKey(users, generator, async (id) => Boolean(await collection.get(id))) // 'Kyla.Hahn'
 */
export async function madeUpKey(
  resource: Resource,
  generator: DataGenerator,
  taken: (id: RecordId) => Promise<boolean>,
): Promise<RecordId | undefined> {
  const { keyLink } = resource;
  for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
    // A link key is its template filled with a value made for its last parameter: its scope
    // is the one the caller filled in (see Resource.keyLink).
    const id = keyLink
      ? linkOf(keyLink.template, [
          String(generator.value(keyLink.value, `${resource.name}.${resource.idProperty}`)),
        ])
      : generator.value(resource.keySchema, `${resource.name}.${resource.idProperty}`);
    // An empty text names no record: no path can hold it.
    if (((typeof id === 'string' && id !== '') || typeof id === 'number') && !(await taken(id)))
      return id;
  }
  return undefined;
}

function isTimestamp(schema: SchemaObject): boolean {
  return [schema, ...((schema.allOf ?? []) as SchemaObject[])].some(
    (part) => part.format === 'date-time',
  );
}

/** Whether a string schema says what its values look like (beyond "a string"). */
function hasShape(schema: SchemaObject): boolean {
  return [schema, ...((schema.allOf ?? []) as SchemaObject[])].some(
    (part) =>
      (part !== schema && hasShape(part)) ||
      part.pattern !== undefined ||
      part.enum !== undefined ||
      'const' in part ||
      (part.format !== undefined && part.format !== 'uuid') ||
      (part.maxLength !== undefined && part.maxLength < 36),
  );
}
