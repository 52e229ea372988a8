import { fragmentOf } from '../openapi/json-pointer.js';
import type { Level } from './rules.js';

/** One change between two descriptions, as every format reports it. */
export interface Change {
  /** The rule, a stable kebab-case id: `response-required-property-removed`. */
  readonly id: string;
  readonly level: Level;
  /** `METHOD /path` (a webhook's or callback's own label), or undefined for the API as a whole. */
  readonly operation: string | undefined;
  /**
   * Where, as a JSON pointer into the document (the new one, or the old one for what was
   * removed), read through its `$ref`s: `#/paths/~1pets/get/responses/200/content/...`.
   */
  readonly pointer: string;
  /** One sentence saying what changed, and for whom. */
  readonly message: string;
}

/** The operation a change is in, and the pointer to the place in it. */
export interface Where {
  readonly operation: string | undefined;
  readonly path: readonly (string | number)[];
}

/** What a comparison gathers as it goes: one per run of diffDocuments. */
export interface DiffRun {
  readonly changes: Change[];
  readonly levels: ReadonlyMap<string, Level>;
  /**
   * The (old, new) schema pairs found alike, whole, by who reads them: compared again in
   * another message, they are skipped (a large spec shares its schemas among many operations).
   */
  readonly alike: Record<'api' | 'client', Map<object, Set<object>>>;
}

/** Adds a change of rule `id`, at its level in this run. */
export function report(run: DiffRun, id: string, where: Where, message: string): void {
  const level = run.levels.get(id);
  if (level === undefined) throw new Error(`no diff rule is named ${id}`);
  run.changes.push({
    id,
    level,
    operation: where.operation,
    pointer: fragmentOf(where.path),
    message,
  });
}

/** `where` one step further in. */
export function inside(where: Where, ...tokens: (string | number)[]): Where {
  return { operation: where.operation, path: [...where.path, ...tokens] };
}
