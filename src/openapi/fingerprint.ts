import { createHash } from 'node:crypto';
import type { LoadedSpec } from './load.js';

/** What tells one spec from another, for mocks that share a store: a hash, and a name to show. */
export interface SpecFingerprint {
  /** SHA-256 of the document as read (its `$ref`s as written), hex. */
  readonly hash: string;
  /** Its title and version, and the hash's start, e.g. `"Categories API" 1.0.0 (sha256 1a2b3c4d5e6f)`. */
  readonly label: string;
}

/**
 * The fingerprint of a loaded spec. The same document, however it is formatted (YAML or
 * JSON, spacing, key order kept), gives the same hash; any change to what it says gives another.
 * @example specFingerprint(spec).label // '"Categories API" 1.0.0 (sha256 1a2b3c4d5e6f)'
 */
export function specFingerprint(spec: LoadedSpec): SpecFingerprint {
  const hash = createHash('sha256').update(JSON.stringify(spec.document)).digest('hex');
  const info = (spec.document as { info?: { title?: unknown; version?: unknown } }).info;
  const title = typeof info?.title === 'string' ? info.title : 'untitled';
  const version = typeof info?.version === 'string' ? ` ${info.version}` : '';
  return { hash, label: `${JSON.stringify(title)}${version} (sha256 ${hash.slice(0, 12)})` };
}
