import type { Operation } from '../../openapi/operations.js';
import type { Step } from './arazzo-types.js';
import { pointerTokens } from '../../openapi/json-pointer.js';

/** An OpenAPI source description, read. */
export interface SourceApi {
  name: string;
  /** Its `url` as the Arazzo document writes it. */
  url: string;
  operations: readonly Operation[];
}

/** The operation a step calls, or why none is found, with a hint. */
export type OperationLookup =
  | { found: true; source: SourceApi; operation: Operation }
  | { found: false; message: string; hint?: string | undefined };

/**
 * The operation a step names by `operationId` (bare, or `$sourceDescriptions.<name>.<operationId>`
 * when several sources have it) or by `operationPath` (`{$sourceDescriptions.<name>.url}#/paths/~1pets/get`).
 * @example findOperation({ stepId: 'a', operationId: 'getPet' }, sources)
 */
export function findOperation(step: Step, sources: readonly SourceApi[]): OperationLookup {
  if (step.operationPath !== undefined) return byPath(step.operationPath, sources);
  const written = step.operationId ?? '';
  const qualified = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(written);
  const pool = qualified ? sources.filter((source) => source.name === qualified[1]) : sources;
  if (qualified && pool.length === 0)
    return {
      found: false,
      message: `operationId "${written}" names the source "${qualified[1]}", which the document does not describe`,
      hint: `its sources: ${sources.map((source) => source.name).join(', ')}`,
    };
  const id = qualified?.[2] ?? written;
  const matches = pool.flatMap((source) =>
    source.operations
      .filter((operation) => operation.definition.operationId === id)
      .map((operation) => ({ source, operation })),
  );
  const [first] = matches;
  if (first && matches.length === 1) return { found: true, ...first };
  if (first)
    return {
      found: false,
      message: `operationId "${id}" is in several sources (${matches.map((match) => match.source.name).join(', ')})`,
      hint: `write $sourceDescriptions.${first.source.name}.${id}`,
    };
  const ids = pool.flatMap((source) =>
    source.operations.flatMap((operation) => operation.definition.operationId ?? []),
  );
  return {
    found: false,
    message: `operationId "${id}" is not an operation of ${pool.map((source) => source.name).join(' or ')}`,
    hint: nearest(id, ids),
  };
}

function byPath(path: string, sources: readonly SourceApi[]): OperationLookup {
  const hash = path.indexOf('#');
  if (hash === -1)
    return {
      found: false,
      message: `operationPath "${path}" has no JSON pointer`,
      hint: 'write {$sourceDescriptions.<name>.url}#/paths/~1pets/get',
    };
  const head = path.slice(0, hash);
  const named = /^\{\$sourceDescriptions\.([^.}]+)\.url\}$/.exec(head);
  const source = named
    ? sources.find((candidate) => candidate.name === named[1])
    : sources.find((candidate) => candidate.url === head);
  if (!source)
    return {
      found: false,
      message: `operationPath "${path}" names no source description of the document`,
      hint: `its sources: ${sources.map((candidate) => candidate.name).join(', ')}`,
    };
  let tokens: string[];
  try {
    tokens = pointerTokens(path.slice(hash + 1));
  } catch (err) {
    return { found: false, message: (err as Error).message };
  }
  const [paths, route, method] = tokens;
  const operation =
    paths === 'paths' && tokens.length === 3
      ? source.operations.find(
          (candidate) => candidate.path === route && candidate.method === method,
        )
      : undefined;
  if (operation) return { found: true, source, operation };
  return {
    found: false,
    message: `operationPath "${path}" points at no operation of ${source.name}`,
    hint: nearest(
      `${route ?? ''} ${method ?? ''}`,
      source.operations.map((candidate) => `${candidate.path} ${candidate.method}`),
      (text) =>
        `#/paths/${(text.split(' ')[0] ?? '').replace(/~/g, '~0').replace(/\//g, '~1')}/${text.split(' ')[1] ?? ''}`,
    ),
  };
}

/**
 * A hint naming the closest of some names, or listing a few.
 * @example nearest('getPet', ['getPetById', 'listPets']) // 'did you mean "getPetById"?'
 */
export function nearest(
  name: string,
  names: readonly string[],
  show: (text: string) => string = (text) => text,
): string | undefined {
  if (names.length === 0) return undefined;
  const scored = names
    .map((candidate) => ({
      candidate,
      distance: distance(name.toLowerCase(), candidate.toLowerCase()),
    }))
    .sort((a, b) => a.distance - b.distance);
  const [best] = scored;
  if (!best) return undefined;
  if (
    best.distance <= Math.max(3, Math.floor(name.length / 3)) ||
    best.candidate.toLowerCase().includes(name.toLowerCase())
  )
    return `did you mean "${show(best.candidate)}"?`;
  const few = names.slice(0, 6).map(show);
  return `it has ${few.map((text) => `"${text}"`).join(', ')}${names.length > few.length ? ', ...' : ''}`;
}

/** Levenshtein distance. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length] ?? 0;
}
