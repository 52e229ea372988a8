// What a run wrote to its target: every request of an unsafe method with its answer, and the
// records it created, so that the run deletes them at its end and the report lists it all.

/** One request that may have changed the target, and what it answered. */
export interface Write {
  method: string;
  /** Relative to the base URL, without the query (which may carry a credential). */
  path: string;
  status: number;
}

/** A record the run created, with the path parameters that name it (its parents' too). */
interface Created {
  collection: string;
  params: Record<string, unknown>;
}

/** The run's writes, shared by its rules. */
export interface Ledger {
  writes: Write[];
  /** Newest last: children after their parents, so that cleaning up in reverse goes bottom up. */
  created: Created[];
  /** The records deleted since (by the run's rules), keyed by `recordKey`. */
  deleted: Set<string>;
}

/** What the run's clean-up did: the deletes it sent, and what it had to leave, with why. */
export interface Cleanup {
  deletes: Write[];
  left: { collection: string; count: number; why: string }[];
}

/** A new ledger, for one run. */
export function newLedger(): Ledger {
  return { writes: [], created: [], deleted: new Set() };
}

/** Methods that change nothing on a server (RFC 9110, section 9.2.1) that the suite sends. */
const SAFE = new Set(['get', 'head', 'options']);

/** Whether a method is safe: the only ones a `--read-only` run sends. */
export function isSafe(method: string): boolean {
  return SAFE.has(method.toLowerCase());
}

/** A record as the ledger keys it: its collection and its path parameters. */
export function recordKey(collection: string, params: Record<string, unknown>): string {
  const sorted = Object.keys(params)
    .sort()
    .map((name) => [name, params[name]]);
  return `${collection} ${JSON.stringify(sorted)}`;
}
