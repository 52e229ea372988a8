import { createHash } from 'node:crypto';
import { SpecError, type SchemaObject } from '../../openapi/load.js';
import { realisticRecords, type SchemaFacts } from '../../openapi/realistic.js';
import type { Resource } from '../../openapi/resources.js';
import type { DataGenerator } from '../../openapi/sample.js';
import { linkOf } from '../../openapi/link-key.js';
import { admittedTypes, isNumeric, propertiesOf } from '../../openapi/schema-parts.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import type { Collection, RecordId, Store } from '../../store/store.js';
import { keyIn, withKeyIn } from '../../vocabulary/record.js';
import { propertyWithin } from '../../openapi/item-key.js';
import { descriptorOf } from './descriptor.js';
import { hasMeaningfulKey, madeUpKey } from './record-maker.js';
import { inOrder } from './timestamps.js';
import { storeKeysOf } from './store-keys.js';

export interface SeedOptions {
  /** Records generated for each collection. */
  count: number;
  /** The same seed gives the same records. */
  seed: number;
  /** The mock's generator: each collection draws from its own seed with it (withSeed), sharing its trees. */
  generator: DataGenerator;
  /**
   * Told, in one line, of a collection left empty because no record valid against its schema
   * could be made (a pattern the generator cannot meet, say): the mock still starts.
   */
  onWarning?: (line: string) => void;
}

/**
 * Fills every top-level collection with `count` records generated from its schema: valid against
 * every keyword of it, and the same for the same seed. Nested collections (`/users/{id}/posts`)
 * are seeded under each parent when first asked for (see resourceHandlers). Where a table of realistic records
 * fits what the schema says (openapi/realistic.ts), its fields are used wherever they fit. Each collection draws from its own
 * sequence (seeded by the seed and its name), so adding a collection to the spec leaves the
 * data of the others as it was.
 * @example await seedResources(resources, store, { count: 10, seed: 1, generator });
 */
export async function seedResources(
  resources: readonly Resource[],
  store: Store,
  options: SeedOptions,
): Promise<void> {
  for (const resource of resources) {
    if (resource.scope.length > 0) continue;
    try {
      await seedCollection(resource, store.collection(descriptorOf(resource)), options);
    } catch (err) {
      if (!(err instanceof SpecError)) throw err;
      options.onWarning?.(`${resource.name} starts empty: ${err.message}`);
    }
  }
}

/**
 * Fills one collection (of a resource, or of one parent of a nested one) with `count` records,
 * `fixed` fields set in each (a post's `userId`). Every record is made before any is stored, so
 * a failure stores none. The records depend on the seed and the collection's name only; with
 * `fields` (a nested collection's, from its SeedPool), their fields are those, the same under
 * every parent, and only their keys are drawn for this collection.
 * @throws {SpecError} when no record valid against the schema could be made.
 * @example await seedCollection(posts, store.collection(descriptorOf(posts, ['7'])), { count: 3, seed: 1, generator, fixed: { userId: 7 } });
 */
export async function seedCollection(
  resource: Resource,
  collection: Collection,
  options: SeedOptions & {
    fixed?: Readonly<Record<string, unknown>>;
    fields?: readonly Record<string, unknown>[];
  },
): Promise<void> {
  const generator = options.generator.withSeed(seedFor(options.seed, collection.descriptor.name));
  const { compiler } = generator;
  const made: { fields: Record<string, unknown>; id: RecordId | undefined }[] = [];
  const keys = new Set<RecordId>();
  // Integer ids the spec's examples use are left to the documented requests that send them
  // (only where a client may choose the id: a read-only one is never sent).
  const reserved =
    resource.idKind === 'integer' && resource.clientChosenId
      ? documentedIds(resource)
      : new Set<number>();
  let nextId = 0;
  const storeKeys = storeKeysOf(resource, compiler);
  const draw = options.fields ? undefined : fieldsMaker(resource, generator, options);
  const count = options.fields?.length ?? options.count;

  for (let i = 0; i < count; i++) {
    // A pool's fields are copied: they are every parent's, and a store may keep what it is given.
    const given = options.fields?.[i];
    let fields = given ? structuredClone(given) : (draw?.(i) as Record<string, unknown>);
    if (options.fixed) fields = { ...fields, ...options.fixed };
    // UUIDs from the seeded generator: the same seed gives the same ids, as it gives the same
    // data; a key of another kind (a username, a slug, a `sid` with a pattern) is the one
    // generated with the record, else one made from its schema.
    const generatedKey = keyIn(fields, resource);
    const free = async (key: RecordId) => !keys.has(key) && !(await collection.get(key));
    // The generated record's own key, when it also fits the item path (a slug's pattern).
    const fitsPath = (key: unknown) => compiler.response(resource.keySchema)(key).length === 0;
    let id: RecordId | undefined;
    const documented = documentedKeyOf(resource, i, fitsPath, compiler);
    if (documented !== undefined && (await free(documented))) id = documented;
    else if (resource.idKind === 'uuid' && storeKeys !== 'schema') {
      const made = generator.value({ type: 'string', format: 'uuid' }, 'a uuid') as string;
      id = storeKeys === 'upper' ? made.toUpperCase() : made;
    } else if (hasMeaningfulKey(resource) || storeKeys === 'schema')
      id =
        // An empty text names no record: no path can hold it (Dialogporten's transmissions).
        ((typeof generatedKey === 'string' && generatedKey !== '') ||
          typeof generatedKey === 'number') &&
        fitsPath(generatedKey) &&
        (await free(generatedKey))
          ? generatedKey
          : await madeUpKey(resource, generator, async (key) => !(await free(key)));
    if (id !== undefined && !(await free(id))) id = undefined;
    // A key that says what it holds and has no free value left (a short enum): no more records.
    if (id === undefined && (hasMeaningfulKey(resource) || storeKeys === 'schema')) break;
    if (id === undefined && reserved.size > 0) {
      do nextId++;
      while (reserved.has(nextId) || !(await free(nextId)));
      id = nextId;
    }
    if (id !== undefined) keys.add(id);
    made.push({
      fields: inOrder(resource.idWithin ? fields : withoutId(fields, resource.idProperty)),
      id,
    });
  }
  for (const { fields, id } of made) await collection.create(fields, id);
}

/**
 * The i-th key the documentation reads a record by (Resource.documentedKeys), as a key of the
 * resource's kind, where the service chooses keys and it addresses a record; else none. Where a
 * client chooses them, the documented create sends it, and a seeded record holding it was a 409.
 */
function documentedKeyOf(
  resource: Resource,
  i: number,
  fits: (key: unknown) => boolean,
  compiler: SchemaCompiler,
): RecordId | undefined {
  if (resource.clientChosenId) return undefined;
  const value = resource.documentedKeys[i];
  if (value === undefined) return undefined;
  const { keyLink } = resource;
  if (keyLink) {
    // A link's value is checked as the value it is; the link is made of the (scoped) template.
    const typed = isNumeric(keyLink.value) ? Number(value) : String(value);
    return compiler.response(keyLink.value)(typed).length === 0
      ? linkOf(keyLink.template, [String(typed)])
      : undefined;
  }
  const key = resource.idKind === 'integer' ? Number(value) : String(value);
  if (resource.idKind === 'integer' && !(Number.isSafeInteger(key) && (key as number) > 0))
    return undefined;
  return fits(key) ? key : undefined;
}

/**
 * The fields of the i-th seeded record of a resource, drawn from `generator`: the realistic
 * table's where they make a whole record, else generated ones under them.
 */
function fieldsMaker(
  resource: Resource,
  generator: DataGenerator,
  options: SeedOptions,
): (i: number) => Record<string, unknown> {
  const check = generator.compiler.response(resource.schema);
  const realistic = realisticRecords(factsOf(resource), options.count, options.seed);
  const known = new Set(Object.keys(propertiesOf(resource.schema)));
  const placeholderId = resource.idKind === 'integer' ? 1 : '00000000-0000-4000-8000-000000000000';
  const made = recordOnly(resource.schema);
  return (i) => {
    const overlay = pick(realistic?.[i], known);
    // The realistic fields alone, when they make a whole record; else generated ones under them.
    if (overlay && check(withKeyIn(overlay, resource, placeholderId)).length === 0) return overlay;
    const generated = generator.value(made, resource.name) as Record<string, unknown>;
    const mixed = { ...generated, ...overlay };
    return check(mixed).length === 0 ? mixed : generated;
  };
}

/**
 * The schema a record is made from: the record's own, but never null. A record schema may
 * also admit null (Unicourt's master data: `CaseType` says `nullable: true` on the record
 * itself), and a record made null cannot be stored: seeding threw a TypeError, and every
 * operation of the collection answered 500 `internal_error` (28 of Unicourt's 158).
 */
function recordOnly(schema: SchemaObject): SchemaObject {
  if (!admittedTypes(schema)?.has('null')) return schema;
  return { allOf: [schema, { type: 'object' }] } as SchemaObject;
}

/**
 * The fields of a nested collection's seeded records, made once per resource and seeding and
 * given to the collection of every parent (see seedCollection's `fields`): a nested collection
 * is seeded the first time it is asked for under a parent, and making its records there took
 * that request long on large schemas, under every parent; precompiling makes them before any
 * is asked for.
 */
export interface SeedPool {
  /** @throws {SpecError} when no record valid against the schema could be made (each time asked). */
  fieldsOf(
    resource: Resource,
    seeding: { count: number; seed: number },
  ): readonly Record<string, unknown>[];
}

/** @example createSeedPool(generator).fieldsOf(messages, { count: 2, seed: 1 }) */
export function createSeedPool(generator: DataGenerator): SeedPool {
  const made = new Map<Resource, Map<string, readonly Record<string, unknown>[] | SpecError>>();
  return {
    fieldsOf(resource, seeding) {
      let bySeeding = made.get(resource);
      if (!bySeeding) made.set(resource, (bySeeding = new Map()));
      const key = `${seeding.seed}\0${seeding.count}`;
      let fields = bySeeding.get(key);
      if (!fields) {
        const options = { ...seeding, generator };
        const draw = fieldsMaker(
          resource,
          generator.withSeed(seedFor(seeding.seed, `${resource.name}\0fields`)),
          options,
        );
        try {
          fields = Array.from({ length: seeding.count }, (_, i) => draw(i));
        } catch (err) {
          if (!(err instanceof SpecError)) throw err;
          fields = err;
        }
        bySeeding.set(key, fields);
      }
      if (fields instanceof SpecError) throw fields;
      return fields;
    },
  };
}

/**
 * The integer ids the spec's examples give a record (`id: { example: 10 }`, in its answers' or
 * its request bodies' schemas): the Pet Store's documented create sends `"id": 10`, which a
 * seeded record with id 10 turned into a 409 on a fresh mock.
 */
function documentedIds(resource: Resource): Set<number> {
  const schemas = [resource.schema, ...[...resource.bodies.values()].map((body) => body.record)];
  const ids = new Set<number>();
  for (const schema of schemas) {
    const property = propertyWithin(schema, resource.idWithin ?? [], resource.idProperty);
    for (const value of property ? examplesOf(property) : [])
      if (Number.isSafeInteger(value) && (value as number) > 0) ids.add(value as number);
  }
  return ids;
}

/** What the realistic tables read of a resource: its name, its properties and their examples. */
function factsOf(resource: Resource): SchemaFacts {
  const properties = new Map<string, readonly unknown[]>();
  for (const [name, schema] of Object.entries(propertiesOf(resource.schema)))
    properties.set(name, examplesOf(schema));
  return { collection: resource.name, properties };
}

function examplesOf(schema: SchemaObject): unknown[] {
  const { examples, example } = schema as { examples?: unknown; example?: unknown };
  return [
    ...(Array.isArray(examples) ? examples : []),
    ...(example === undefined ? [] : [example]),
  ];
}

function pick(
  fields: Record<string, unknown> | undefined,
  known: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  if (!fields) return undefined;
  return Object.fromEntries(Object.entries(fields).filter(([name]) => known.has(name)));
}

function withoutId(fields: Record<string, unknown>, idProperty: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => name !== idProperty));
}

function seedFor(seed: number, name: string): number {
  return createHash('sha256').update(`${seed}\0${name}`).digest().readUInt32BE(0);
}
