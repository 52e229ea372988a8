import { createGeneratorSync, type JsonSchema } from 'json-schema-faker';
import { seededFaker } from './english-faker.js';
import { SpecError, type SchemaObject } from './load.js';
import { requiredOf, typesOf } from './schema-parts.js';
import { CUT, schemaGraph, schemaTree } from './schema-trees.js';
import { referencesUnder } from './schema-walk.js';
import type { SchemaCheck, SchemaCompiler } from './schemas.js';
import { pointerTokens } from './json-pointer.js';

/**
 * The generator ran out of its time for one value (VALUE_BUDGET_MS) before it made a valid
 * one: on a busy machine a schema it can satisfy may do so too, so this says nothing of the
 * schema, unlike any other SpecError of `value`.
 */
export class ValueTimeError extends SpecError {
  override name = 'ValueTimeError';
}

/** Makes data valid against the spec's schemas: seeds, example answers, server-set fields. */
export interface DataGenerator {
  /**
   * A value valid against `schema` (every keyword: formats, patterns, ranges, enums,
   * `allOf`), with realistic strings where a property's name says what it holds.
   * With `minimal`, only what the schema requires is made (no optional property, the fewest
   * items): the filler of an error body, whose optional parts may reach much of the document.
   * @throws {SpecError} when no valid value could be made for the schema; a ValueTimeError
   * when the time for it ran out first.
   */
  value(schema: SchemaObject, where?: string, options?: { minimal?: boolean }): unknown;
  /** What its values are checked with. */
  readonly compiler: SchemaCompiler;
  /** The seed of its sequence (`--seed`): what a value made apart from it mixes in. */
  readonly seed: number;
  /**
   * A generator of another seed's sequence that shares this one's trees: a tree depends on
   * the schema alone, and a nested collection seeds under each parent, each with its own seed:
   * made anew per seed, every tree would be made again for each parent.
   * @example generator.withSeed(7).value(schema)
   */
  withSeed(seed: number): DataGenerator;
}

export interface DataGeneratorOptions {
  /** The same seed gives the same sequence of values. */
  seed: number;
  compiler: SchemaCompiler;
}

/**
 * Faker methods for string properties by name, when the schema itself says nothing more
 * precise (no format, pattern, enum or const): what makes `email` look like an address.
 */
const FAKER_BY_NAME: readonly [RegExp, string][] = [
  [/^e-?mail(address)?$/i, 'internet.email'],
  [/^(first_?name|given_?name)$/i, 'person.firstName'],
  [/^(last_?name|family_?name|surname)$/i, 'person.lastName'],
  [/^(full_?name|display_?name|owner|author)$/i, 'person.fullName'],
  [/^(user_?name|login|handle)$/i, 'internet.username'],
  [/^(phone|phone_?number|mobile|tel)$/i, 'phone.number'],
  [/^city$/i, 'location.city'],
  [/^country$/i, 'location.country'],
  [/^(street|address|street_?address)$/i, 'location.streetAddress'],
  [/^(zip|zip_?code|postal_?code|postcode)$/i, 'location.zipCode'],
  [/^(company|organization|organisation)$/i, 'company.name'],
  [/^(url|website|homepage|link)$/i, 'internet.url'],
  [/^(avatar|image|photo|photo_?url|image_?url|picture)$/i, 'image.url'],
  [/^(colou?r)$/i, 'color.human'],
  [/^(description|summary|bio|about|notes?|comment)$/i, 'lorem.sentence'],
  [/^(title|subject|headline)$/i, 'lorem.words'],
  [/^(tag|label|keyword)s?$/i, 'word.noun'],
  [/^(breed)$/i, 'animal.dog'],
  [/^(species|kind|animal)$/i, 'animal.type'],
  [/^(pet_?name|nickname)$/i, 'animal.petName'],
  [/^name$/i, 'person.firstName'],
];

/** Generated instants fall in this range, fixed rather than ending today: the same seed must give the same data on any day. */
const EARLIEST = Date.UTC(2020, 0, 1);
const LATEST = Date.UTC(2026, 0, 1);

type Generator = ReturnType<typeof createGeneratorSync>;

/** The part of json-schema-faker's seeded random source that formats use. */
interface Random {
  next(): number;
}

/** A seeded instant, in UTC whatever the machine's time zone: ISO 8601 to the second. */
function instant(random: Random): string {
  const time = EARLIEST + Math.floor((random.next() * (LATEST - EARLIEST)) / 1000) * 1000;
  return new Date(time).toISOString().replace('.000Z', 'Z');
}

const below = (random: Random, limit: number) => Math.floor(random.next() * limit);

/**
 * The longer ways RFC 3339 writes an instant, by their length (`instant` writes the shortest,
 * 20 characters), for a `date-time` whose length bounds rule it out (see instantOfLength).
 */
const LONGER_INSTANTS = [
  { format: 'date-time, 24 characters', length: 24 },
  { format: 'date-time, 25 characters', length: 25 },
  { format: 'date-time, 29 characters', length: 29 },
] as const;

/** The length of the instants `instant` writes (`2021-03-04T05:06:07Z`). */
const INSTANT_LENGTH = 20;

const FORMATS = {
  // Dates and times of our own: the library's read the local time zone, so the same seed
  // gave other data in another zone.
  'date-time': instant,
  // The same instants in their longer forms: milliseconds, an offset, or both.
  'date-time, 24 characters': (random: Random) => instant(random).replace('Z', '.000Z'),
  'date-time, 25 characters': (random: Random) => instant(random).replace('Z', '+00:00'),
  'date-time, 29 characters': (random: Random) => instant(random).replace('Z', '.000+00:00'),
  date: (random: Random) => instant(random).slice(0, 10),
  // Formats ajv checks and the generator does not know (it makes any string): OpenAPI's
  // `byte` (base64), and `url`, an older name of `uri`.
  byte: (random: Random) =>
    Buffer.from(Array.from({ length: 1 + below(random, 24) }, () => below(random, 256))).toString(
      'base64',
    ),
  url: (random: Random) => `https://example.com/${1 + below(random, 99_999)}`,
};

/** How many times a value is made before the generator gives up on a schema. */
const ATTEMPTS = 20;
/** How many of those must be whole, before the parts that break their schema are left out. */
const WHOLE_ATTEMPTS = 3;
/** Attempts at a minimal value made from its lean tree, before the whole one (see requiredOnly). */
const LEAN_ATTEMPTS = 2;
/** How many rounds of leaving out a value may take (each goes one level up, at most). */
const PRUNING_ROUNDS = 8;
/**
 * How long the attempts at one value may take together, in milliseconds: each is bounded in
 * size (BOUNDS), so this is checked between attempts, and a schema that keeps failing gives up
 * in about this long instead of blocking every other request.
 */
const VALUE_BUDGET_MS = 1_000;

/**
 * What the generator fills of a bound a schema leaves wide, and the most a schema may ask for.
 * A real description declares a base64 payload of `maxLength: 70254592`: filled at random, one
 * value is tens of megabytes, and every attempt makes another. A wide bound is narrowed to its
 * minimum plus `room` (the value still meets the schema); a minimum beyond `largest` is not
 * generated at all, and a SpecError names it.
 */
const BOUNDS = [
  { min: 'minLength', max: 'maxLength', room: 1_024, largest: 65_536, what: 'characters' },
  { min: 'minItems', max: 'maxItems', room: 20, largest: 1_000, what: 'items' },
  { min: 'minProperties', max: 'maxProperties', room: 20, largest: 1_000, what: 'properties' },
] as const;

/**
 * Narrows, in place, the bounds of a tree's copy the generator would otherwise fill (BOUNDS);
 * a copy that asks for more than the generator makes is left out where its schema allows
 * (CUT), and the first such reason is told to `tooLarge`.
 */
function narrowBounds(tooLarge: (reason: string) => void) {
  return (copy: Record<string, unknown>): typeof CUT | undefined => {
    for (const { min, max, room, largest, what } of BOUNDS) {
      const low = typeof copy[min] === 'number' ? copy[min] : 0;
      if (low > largest) {
        tooLarge(`a ${min} of ${low} ${what}, beyond the ${largest} the mock generates`);
        return CUT;
      }
      const high = copy[max];
      if (typeof high === 'number' && high > low + room) copy[max] = low + room;
    }
    positive(copy);
    instantOfLength(copy);
    unexpanded(copy);
    listedOnly(copy);
    return undefined;
  };
}

/**
 * A `date-time` whose length bounds rule out the shortest form is made in a longer one that
 * fits: Unicourt's 146 dates say `minLength: 25, maxLength: 25` (`2021-03-04T05:06:07+00:00`),
 * and every value made (`...07Z`) broke them: 16 of its 158 operations answered the 500 for a
 * schema no value satisfies.
 */
function instantOfLength(copy: Record<string, unknown>): void {
  if (copy.format !== 'date-time') return;
  const min = typeof copy.minLength === 'number' ? copy.minLength : 0;
  const max = typeof copy.maxLength === 'number' ? copy.maxLength : Infinity;
  if (min <= INSTANT_LENGTH && INSTANT_LENGTH <= max) return;
  const form = LONGER_INSTANTS.find(({ length }) => min <= length && length <= max);
  if (form) copy.format = form.format;
}

/**
 * A value listed by `enum` or `const` is made from the list alone, its composition left to the
 * check (`type: {enum: [17], allOf: [{oneOf: [{const: 1}, ...]}]}`, at any depth):
 * json-schema-faker draws from the composition and misses the listed value.
 */
function listedOnly(copy: Record<string, unknown>): void {
  const listed = (Array.isArray(copy.enum) && copy.enum.length > 0) || 'const' in copy;
  if (!listed) return;
  delete copy.allOf;
  delete copy.oneOf;
  delete copy.anyOf;
}

/**
 * A union of a string and objects is made as the string: it is an id or the object it names
 * (an expandable field: `customer` is `cus_...` unless the client asks to expand it), and a
 * real service sends the id; made as objects, each holding more such unions, it grows without
 * bound.
 */
function unexpanded(copy: Record<string, unknown>): void {
  const arms = copy.anyOf;
  if (!Array.isArray(arms) || arms.length < 2) return;
  const scalar = arms.filter(
    (arm) =>
      typeof arm === 'object' &&
      arm !== null &&
      ((arm as { type?: unknown }).type === 'string' ||
        (arm as { type?: unknown }).type === 'null'),
  );
  if (
    scalar.length < arms.length &&
    scalar.some((arm) => (arm as { type?: unknown }).type === 'string')
  )
    copy.anyOf = scalar;
}

/**
 * A number the schema leaves unbounded below is made positive (an integer from 1): ids,
 * counts, indexes and amounts of real services are, and `"id": -982` reads as a broken
 * service to the developer looking at it. A schema bounded below, or only above below zero,
 * is left as it is.
 */
function positive(copy: Record<string, unknown>): void {
  const types = Array.isArray(copy.type) ? copy.type : [copy.type];
  const integer = types.includes('integer');
  if (!integer && !types.includes('number')) return;
  if (copy.minimum !== undefined || copy.exclusiveMinimum !== undefined) return;
  const floor = integer ? 1 : 0;
  const { maximum, exclusiveMaximum } = copy;
  if (typeof maximum === 'number' && maximum < floor) return;
  if (typeof exclusiveMaximum === 'number' && exclusiveMaximum <= floor) return;
  copy.minimum = floor;
}

/**
 * A seeded generator built on json-schema-faker, with faker for realistic strings. Every
 * value is checked against its schema before it is handed out, so a schema keyword the
 * generator misses shows as a retry, and in the end as a clear error, never as bad data.
 * @example createDataGenerator({ seed: 1, compiler }).value({ type: 'string', format: 'email' }) // 'Kyla.Hahn@yahoo.com'
 */
export function createDataGenerator({ seed, compiler }: DataGeneratorOptions): DataGenerator {
  return generatorOf(seed, compiler, {
    hinted: new WeakMap(),
    trees: { hinted: new WeakMap(), plain: new WeakMap(), lean: new WeakMap() },
    leanSchemas: new WeakMap(),
    children: new WeakMap(),
    large: new WeakMap(),
  });
}

/** What a generator makes of a schema whatever its seed, shared by the generators of other seeds. */
interface Shapes {
  /** Each schema with its faker hints. */
  hinted: WeakMap<object, SchemaObject>;
  /** A schema no tree can be made of is remembered as the reason, said again on each use. */
  trees: {
    hinted: WeakMap<object, JsonSchema | string>;
    plain: WeakMap<object, JsonSchema | string>;
    /** Of what a minimal value holds: the required properties only (see requiredOnly). */
    lean: WeakMap<object, JsonSchema | string>;
  };
  /** Each schema with only its required properties (see requiredOnly). */
  leanSchemas: WeakMap<object, SchemaObject>;
  /** The schemas directly inside each schema, for the walks of schemaGraph (some reach most of the document each). */
  children: WeakMap<object, readonly object[]>;
  /** Whether a tree is large (see isLarge). */
  large: WeakMap<object, boolean>;
}

/** How much of what a schema allows a value holds: see FILLS. */
type Fill = 'full' | 'large' | 'minimal';

/**
 * The generator's settings by fill. `full`: most optional fields (0.8 of them) and arrays of up
 * to 3 items, a record a UI shows whole. `large`, for a schema whose tree is large (isLarge):
 * half of its optional fields and arrays of up to 2 items, at every depth; with `full`, a record
 * of nested optional parts (replies, embeds, attachments...) is many times what a service
 * sends. `minimal`: only what is required, the fewest
 * items (error fillers).
 */
const FILLS: Record<Fill, { optionalsProbability: number; maxDefaultItems: number }> = {
  full: { optionalsProbability: 0.8, maxDefaultItems: 3 },
  large: { optionalsProbability: 0.5, maxDefaultItems: 2 },
  minimal: { optionalsProbability: 0, maxDefaultItems: 1 },
};

/** A tree whose JSON is longer than this describes a large record (see FILLS). */
const LARGE_TREE_CHARACTERS = 16_000;

function isLarge(tree: JsonSchema, shapes: Shapes): boolean {
  let large = shapes.large.get(tree as object);
  if (large === undefined) {
    large = JSON.stringify(tree).length > LARGE_TREE_CHARACTERS;
    shapes.large.set(tree as object, large);
  }
  return large;
}

function generatorOf(seed: number, compiler: SchemaCompiler, shapes: Shapes): DataGenerator {
  const { hinted, trees, children } = shapes;
  // Made on first use: most mocks answer from examples and seed realistic categories.
  const generators: Partial<Record<Fill, Generator>> = {};
  const made = (kind: Fill): Generator => {
    return (generators[kind] ??= createGeneratorSync({
      seed,
      ...FILLS[kind],
      // Deep enough for any document: the tree it is given is finite (see finiteTree).
      maxDepth: 64,
      formats: FORMATS,
      extensions: {
        faker: seededFaker(seed),
      },
    } as never));
  };
  const treeOf = (
    schema: SchemaObject,
    kind: 'hinted' | 'plain' | 'lean',
    where: string,
  ): JsonSchema => {
    const memo = trees[kind];
    let tree = memo.get(schema);
    if (tree === undefined) {
      let tooLarge: string | undefined;
      const made = finiteTree(
        kind === 'lean'
          ? withHints(requiredOnly(schema, shapes.leanSchemas), hinted)
          : kind === 'hinted'
            ? withHints(schema, hinted)
            : schema,
        (reason) => {
          tooLarge ??= reason;
        },
        children,
      );
      tree = made === false ? (tooLarge ?? 'it cannot leave its own recursion out') : made;
      memo.set(schema, tree);
    }
    if (typeof tree === 'string')
      throw new SpecError(`cannot generate data valid against ${where}: ${tree}`);
    return tree;
  };

  return {
    compiler,
    seed,
    withSeed: (other) => generatorOf(other, compiler, shapes),
    value(schema, where = 'a schema', { minimal = false } = {}) {
      // A schema that cannot be compiled fails now, by its name, not after every attempt.
      compiler.prepare('response', schema);
      const check = compiler.response(schema);
      const listed = enumeratedValueOf(schema, check);
      if (listed.found) return listed.value;
      // Made when needed: a minimal value is made from the lean tree first, since an error
      // schema may reach most of its document, a whole tree for a body of a type and a message.
      let hinted: JsonSchema | undefined;
      const hintedTree = () => (hinted ??= treeOf(schema, 'hinted', where));
      const lean = minimal ? treeOf(schema, 'lean', where) : undefined;
      const started = performance.now();
      let problems: string[] = [];
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        if (attempt > 0 && performance.now() - started > VALUE_BUDGET_MS)
          throw new ValueTimeError(
            `cannot generate data valid against ${where}: no valid value was made within ${VALUE_BUDGET_MS} ms; ${problems.slice(0, 2).join('; ')}`,
          );
        // Hints first; if they keep breaking a constraint (a maxLength, say), plain data. The
        // plain tree is made only then: nearly every value is made from the hinted one, and
        // making (and keeping) both spends time and memory on trees seldom used.
        // A lean value that breaks its schema (a property required by a sibling the lean copy
        // could not see, a `minProperties`) is made from the whole tree next.
        const tree =
          lean !== undefined && attempt < LEAN_ATTEMPTS
            ? lean
            : attempt < ATTEMPTS / 2
              ? hintedTree()
              : treeOf(schema, 'plain', where);
        try {
          const fill = minimal ? 'minimal' : isLarge(hintedTree(), shapes) ? 'large' : 'full';
          const value = made(fill).generate(tree);
          problems = check(value);
          if (problems.length === 0) return value;
          // After a few tries, what keeps breaking its schema is left out where it may be.
          if (attempt >= WHOLE_ATTEMPTS && pruned(value, problems, check)) return value;
        } catch (err) {
          // The generator's own limits (a pattern it cannot read, a recursion it cannot end).
          problems = [err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err)];
        }
      }
      throw new SpecError(
        `cannot generate data valid against ${where}: ${problems.slice(0, 3).join('; ')}`,
      );
    },
  };
}

/**
 * A value of a schema that lists its values (`enum`, `const`) and narrows them by composition
 * (`allOf: [{oneOf: [{const: 1}, {const: 3}, ...]}]`): the first of its values the whole
 * schema accepts. json-schema-faker draws from the composition and often misses the listed
 * value. Other
 * schemas: not found, for the generator.
 */
function enumeratedValueOf(
  schema: SchemaObject,
  check: SchemaCheck,
): { found: true; value: unknown } | { found: false } {
  const composed = ['allOf', 'oneOf', 'anyOf'].some((keyword) => keyword in schema);
  const values = Array.isArray(schema.enum)
    ? (schema.enum as unknown[])
    : 'const' in schema
      ? [schema.const]
      : undefined;
  if (!composed || !values) return { found: false };
  for (const value of values) if (check(value).length === 0) return { found: true, value };
  return { found: false };
}

/**
 * How deep recursion goes in generated data: a recursive schema holds itself (or another)
 * this many times, then the recursion is left out where the schema allows (an optional
 * property, an empty array, another arm of a union).
 */
const RECURSION = 3;

/** Where a generator's tree keeps the copies its `$ref`s name. */
const DEFS = '#/$defs/';

/**
 * How many subschemas deep a generator's tree (and each `$defs` entry of it) is copied: below,
 * what may be left out is (see TreeOptions.maxDepth). json-schema-faker goes 64 deep at most.
 */
const TREE_DEPTH = 48;

/** How deep the walks that prepare a schema for the generator go (hints, the lean copy). */
const WALK_DEPTH = 64;

/**
 * The schema as a finite tree json-schema-faker can walk, never with write-only properties.
 * Each recursion point (schemaGraph) becomes a `$ref` into `$defs`, one copy per level of
 * recursion, the copies of level n referring to those of level n + 1; a schema held in
 * several places is one `$ref`'d copy too (one per level when a recursion lies below it). The
 * tree grows with the number of such schemas times RECURSION, where copying every path would
 * grow exponentially (a document tree whose nodes are a union of thirty kinds of node).
 * Exported for its tests. `false` when the schema cannot leave its own recursion out.
 * @example finiteTree({ type: 'object', properties: { id: { type: 'string' } } }, () => {})
 * @internal for its tests: no part of the package's surface
 */
export function finiteTree(
  schema: SchemaObject,
  tooLarge: (reason: string) => void,
  children?: WeakMap<object, readonly object[]>,
): JsonSchema {
  const graph = schemaGraph(schema, children);
  const ids = new Map<object, number>();
  const defs: Record<string, unknown> = {};
  // The copies a `$ref` was put in place of, made only once a tree made refers to one: adjust
  // leaves arms out after they were met (expandable objects, `unexpanded`), and making every
  // schema met would make copies no tree refers to.
  const named = new Map<string, { sub: object; level: number }>();
  const defFor = (sub: object, level: number | undefined): string => {
    let id = ids.get(sub);
    if (id === undefined) ids.set(sub, (id = ids.size));
    const name = level === undefined ? `s${id}` : `s${id}_${level}`;
    if (!named.has(name)) named.set(name, { sub, level: level ?? 0 });
    return `${DEFS}${name}`;
  };
  const referAt =
    (level: number) =>
    (sub: object): string | typeof CUT | undefined => {
      if (graph.points.has(sub)) return level >= RECURSION ? CUT : defFor(sub, level + 1);
      if (!graph.shared.has(sub)) return undefined;
      return defFor(sub, graph.reaching.has(sub) ? level : undefined);
    };
  // Generated values are answers and records: never a write-only property.
  const hide = { marker: 'writeOnly' as const };
  const adjust = narrowBounds(tooLarge);
  let tree: Record<string, unknown>;
  try {
    tree = schemaTree(schema, {
      refer: referAt(0),
      hide,
      oneOfAsAnyOf: true,
      adjust,
      maxDepth: TREE_DEPTH,
    });
  } catch {
    return false;
  }
  const wanted = referencesUnder(tree, DEFS);
  for (let name = wanted.pop(); name !== undefined; name = wanted.pop()) {
    const next = named.get(name);
    if (name in defs || !next) continue;
    try {
      const made = schemaTree(next.sub as SchemaObject, {
        refer: referAt(next.level),
        hide,
        oneOfAsAnyOf: true,
        adjust,
        maxDepth: TREE_DEPTH,
      });
      defs[name] = made;
      wanted.push(...referencesUnder(made, DEFS));
    } catch {
      // It cannot leave its own recursion out: what refers to it fails to generate, and says so.
      defs[name] = false;
    }
  }
  return (Object.keys(defs).length > 0 ? { ...tree, $defs: defs } : tree) as JsonSchema;
}

/**
 * Leaves out, in place, the parts of a value that break its schema, as far as the schema
 * allows: an optional property whose schema no value can meet (a `date-time` that must also
 * match an id's pattern, say) goes; a required one takes its object with it, one level up, and
 * so on. Whether the value then conforms.
 */
function pruned(value: unknown, problems: readonly string[], check: SchemaCheck): boolean {
  let left = problems;
  for (let round = 0; round < PRUNING_ROUNDS && left.length > 0; round++) {
    const places = left.map((problem) => /^(\/\S*)/.exec(problem)?.[1]).filter(Boolean) as string[];
    if (places.length < left.length) return false; // a problem of the whole value
    // Deepest first, so that removing one place does not move another (array items).
    for (const place of [...new Set(places)].sort().reverse()) remove(value, place);
    left = check(value);
  }
  return left.length === 0;
}

/** Removes the value at a JSON pointer: a property, or an item of an array. */
function remove(value: unknown, pointer: string): void {
  const segments = pointerTokens(pointer);
  const last = segments.pop();
  let parent = value;
  for (const segment of segments) {
    if (typeof parent !== 'object' || parent === null) return;
    parent = (parent as Record<string, unknown>)[segment];
  }
  if (last === undefined || typeof parent !== 'object' || parent === null) return;
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else Reflect.deleteProperty(parent, last);
}

/**
 * The schema with only the properties a value must have (required by the schema, by one of its
 * `allOf` parts, or atop the `oneOf`/`anyOf` an arm belongs to), at every depth: what a minimal
 * value is made of. The rest of the graph is never walked, however much of the document the
 * optional properties reach. Names a part of the value's schema requires that this copy cannot
 * see make the value break its schema, and it is made from the whole tree instead.
 * @example requiredOnly({ required: ['a'], properties: { a: {}, b: hugeSchema } }, new WeakMap()) // { required: ['a'], properties: { a: {} } }
 * @internal for its tests: no part of the package's surface
 */
export function requiredOnly(
  schema: SchemaObject,
  memo: WeakMap<object, SchemaObject>,
  inherited: ReadonlySet<string> = NO_NAMES,
  path: Set<object> = new Set(),
  depth = 0,
): SchemaObject {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  // Reached again inside itself through its parts, or deeper than any tree is copied: the
  // schema as it is, which ends the walk.
  if (path.has(schema) || depth >= WALK_DEPTH) return schema;
  const memoized = inherited.size === 0;
  const done = memoized ? memo.get(schema) : undefined;
  if (done) return done;
  const out: Record<string, unknown> = { ...schema };
  if (memoized) memo.set(schema, out as SchemaObject);
  path.add(schema);
  const required = new Set([...requiredOf(schema), ...inherited]);
  const whole = (sub: unknown) =>
    requiredOnly(sub as SchemaObject, memo, NO_NAMES, new Set(), depth + 1);
  const part = (sub: unknown) => requiredOnly(sub as SchemaObject, memo, required, path, depth + 1);
  if (typeof schema.properties === 'object' && schema.properties !== null)
    out.properties = Object.fromEntries(
      Object.entries(schema.properties)
        .filter(([name]) => required.has(name))
        .map(([name, property]) => [name, whole(property)]),
    );
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map(part);
  }
  for (const key of ['items', 'additionalProperties'] as const) {
    const sub = (schema as Record<string, unknown>)[key];
    if (typeof sub === 'object' && sub !== null && !Array.isArray(sub)) out[key] = whole(sub);
  }
  path.delete(schema);
  return out as SchemaObject;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** The schema with faker hints on the string properties whose names say what they hold. */
function withHints(
  schema: SchemaObject,
  memo: WeakMap<object, SchemaObject>,
  depth = 0,
): SchemaObject {
  if (typeof schema !== 'object' || schema === null) return schema;
  const done = memo.get(schema);
  if (done) return done;
  // Deeper than any tree is copied (TREE_DEPTH): the schema as it is, unhinted.
  if (depth >= WALK_DEPTH) return schema;
  const out: Record<string, unknown> = { ...schema };
  memo.set(schema, out as SchemaObject);
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => {
        const hint = hintFor(name, property as SchemaObject);
        const inner = withHints(property as SchemaObject, memo, depth + 1);
        return [name, hint ? { ...inner, faker: hint } : inner];
      }),
    );
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list))
      out[key] = list.map((part) => withHints(part as SchemaObject, memo, depth + 1));
  }
  const items = (schema as { items?: unknown }).items;
  if (typeof items === 'object' && items !== null)
    out.items = withHints(items as SchemaObject, memo, depth + 1);
  return out as SchemaObject;
}

function hintFor(name: string, property: SchemaObject): string | undefined {
  if (!typesOf(property).includes('string')) return undefined;
  // Faker knows nothing of these: its value would break them, and hints are for realism only.
  if (property.format || property.pattern || property.enum || 'const' in property) return undefined;
  // Faker's words and sentences fit loose bounds; tight ones are left to the plain generator.
  if ((property.minLength ?? 0) > 10 || (property.maxLength ?? Infinity) < 30) return undefined;
  return FAKER_BY_NAME.find(([pattern]) => pattern.test(name))?.[1];
}
