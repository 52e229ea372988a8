import { createHash } from 'node:crypto';
import type { SchemaObject } from '../../openapi/load.js';
import { realisticRecords, type SchemaFacts } from '../../openapi/realistic.js';
import type { Resource } from '../../openapi/resources.js';
import { createDataGenerator } from '../../openapi/sample.js';
import { propertiesOf } from '../../openapi/schema-parts.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import type { Store } from '../../store/store.js';
import { descriptorOf } from './handlers.js';
import { hasMeaningfulKey } from './record-maker.js';
import { inOrder } from './timestamps.js';

export interface SeedOptions {
  /** Records generated for each collection. */
  count: number;
  /** The same seed gives the same records. */
  seed: number;
  compiler: SchemaCompiler;
}

/**
 * Fills every top-level collection with `count` records generated from its schema: valid against
 * every keyword of it, and the same for the same seed. Nested collections (`/users/{id}/posts`)
 * start empty under every parent. Where a table of realistic records
 * fits what the schema says (openapi/realistic.ts), its fields are used wherever they fit. Each collection draws from its own
 * sequence (seeded by the seed and its name), so adding a collection to the spec leaves the
 * data of the others as it was.
 * @example await seedResources(resources, store, { count: 10, seed: 1, compiler });
 */
export async function seedResources(
  resources: readonly Resource[],
  store: Store,
  options: SeedOptions,
): Promise<void> {
  for (const resource of resources) {
    if (resource.scope.length > 0) continue;
    const generator = createDataGenerator({
      seed: seedFor(options.seed, resource.name),
      compiler: options.compiler,
    });
    const check = options.compiler.response(resource.schema);
    const collection = store.collection(descriptorOf(resource));
    const realistic = realisticRecords(factsOf(resource), options.count, options.seed);
    const known = new Set(Object.keys(propertiesOf(resource.schema)));
    const placeholderId =
      resource.idKind === 'integer' ? 1 : '00000000-0000-4000-8000-000000000000';

    for (let i = 0; i < options.count; i++) {
      const overlay = pick(realistic?.[i], known);
      // The realistic fields alone, when they make a whole record; else generated ones under them.
      let fields: Record<string, unknown> | undefined =
        overlay && check({ ...overlay, [resource.idProperty]: placeholderId }).length === 0
          ? overlay
          : undefined;
      if (!fields) {
        const generated = generator.value(resource.schema, resource.name) as Record<
          string,
          unknown
        >;
        const mixed = { ...generated, ...overlay };
        fields = check(mixed).length === 0 ? mixed : generated;
      }
      // UUIDs from the seeded generator: the same seed gives the same ids, as it gives the same
      // data; a key of another kind (a username, a slug) is the one generated with the record.
      const generatedKey = fields[resource.idProperty];
      const id =
        resource.idKind === 'uuid'
          ? (generator.value({ type: 'string', format: 'uuid' }, 'a uuid') as string)
          : hasMeaningfulKey(resource) &&
              (typeof generatedKey === 'string' || typeof generatedKey === 'number') &&
              !(await collection.get(generatedKey))
            ? generatedKey
            : undefined;
      await collection.create(inOrder(withoutId(fields, resource.idProperty)), id);
    }
  }
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
