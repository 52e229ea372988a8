import { createHash } from 'node:crypto';
import { createDataGenerator } from '../../openapi/sample.js';
import type { SchemaCompiler } from '../../openapi/schemas.js';
import { propertiesOf } from '../../openapi/schema-parts.js';
import { collectionSpecOf, type Resource } from '../../openapi/resources.js';
import { generateCategories } from './seed-data.js';
import { inOrder } from './timestamps.js';
import type { Store } from '../../store/store.js';

export interface SeedOptions {
  /** Records generated for each collection. */
  count: number;
  /** The same seed gives the same records. */
  seed: number;
  compiler: SchemaCompiler;
}

/**
 * Record fields that look real for what a collection holds, where a generic generator
 * would give random words: categories of pets look like pet categories. Each is used only
 * where the result still fits the collection's schema.
 */
const REALISTIC: readonly {
  matches: RegExp;
  fields: (count: number, seed: number) => Record<string, unknown>[];
}[] = [
  {
    matches: /categor/i,
    fields: (count, seed) => generateCategories({ count, seed }),
  },
];

/**
 * Fills every collection with `count` records generated from its schema: valid against
 * every keyword of it, and the same for the same seed. Each collection draws from its own
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
    const generator = createDataGenerator({
      seed: seedFor(options.seed, resource.name),
      compiler: options.compiler,
    });
    const check = options.compiler.response(resource.schema);
    const collection = store.collection(collectionSpecOf(resource));
    const realistic = REALISTIC.find((entry) => entry.matches.test(resource.name))?.fields(
      options.count,
      options.seed,
    );
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
      // UUIDs from the seeded generator: the same seed gives the same ids, as it gives the same data.
      const id =
        resource.idKind === 'uuid'
          ? (generator.value({ type: 'string', format: 'uuid' }, 'a uuid') as string)
          : undefined;
      await collection.create(inOrder(withoutId(fields, resource.idProperty)), id);
    }
  }
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
