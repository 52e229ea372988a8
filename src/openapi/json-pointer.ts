import { isJsonObject } from '../vocabulary/record.js';

/** One reference token written as RFC 6901 writes it: `a/b~c` is `a~1b~0c`. */
export function escapeToken(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** One reference token as it reads: `a~1b~0c` is `a/b~c` (`~1` first, as RFC 6901 §4 says). */
function unescapeToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * The tokens of a JSON Pointer (RFC 6901): `/a~1b/0` is `['a/b', '0']`; `''` is the whole document.
 * @throws {Error} when the pointer is neither empty nor starts with `/`.
 */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`the JSON pointer "${pointer}" must start with /`);
  return pointer.slice(1).split('/').map(unescapeToken);
}

/**
 * The tokens of a reference within one document (`#/paths/~1pets/get`, percent-encoding allowed,
 * as a URI fragment is), or `undefined` for a reference elsewhere or a fragment that is no pointer.
 * @example fragmentTokens('#/components/schemas/Pet%20Category') // ['components', 'schemas', 'Pet Category']
 */
export function fragmentTokens(ref: string): string[] | undefined {
  if (!ref.startsWith('#')) return undefined;
  const pointer = ref.slice(1);
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => unescapeToken(percentDecoded(token)));
}

/**
 * The reference within one document to the value at `tokens`.
 * @example fragmentOf(['paths', '/pets', 'get']) // '#/paths/~1pets/get'
 */
export function fragmentOf(tokens: readonly (string | number)[]): string {
  return `#/${tokens.map(escapeToken).join('/')}`;
}

/** A token's percent-encoding decoded; one that does not decode is kept as written. */
function percentDecoded(token: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    return token;
  }
}

/**
 * The value a JSON Pointer names in a document, or `undefined` when it names nothing.
 * @example valueAt({ pets: [{ id: 7 }] }, '/pets/0/id') // 7
 */
export function valueAt(document: unknown, pointer: string): unknown {
  let value = document;
  for (const token of pointerTokens(pointer)) {
    if (Array.isArray(value))
      value = /^(0|[1-9]\d*)$/.test(token) ? value[Number(token)] : undefined;
    else if (isJsonObject(value) && Object.hasOwn(value, token)) value = value[token];
    else return undefined;
  }
  return value;
}

/**
 * Sets the value a JSON Pointer names, making the objects on its way; `-` appends to an array.
 * Returns the document (a new one when the pointer is empty).
 */
export function setValueAt(document: unknown, pointer: string, value: unknown): unknown {
  const tokens = pointerTokens(pointer);
  const last = tokens.pop();
  if (last === undefined) return value;
  let parent = document;
  for (const token of tokens) {
    const next: unknown = Array.isArray(parent)
      ? parent[Number(token)]
      : isJsonObject(parent)
        ? parent[token]
        : undefined;
    if (next === undefined || next === null || typeof next !== 'object') {
      const made = {};
      if (Array.isArray(parent)) parent[Number(token)] = made;
      else if (isJsonObject(parent)) parent[token] = made;
      else throw new Error(`nothing to hold ${pointer} in the payload`);
      parent = made;
    } else parent = next;
  }
  if (Array.isArray(parent)) {
    if (last === '-') parent.push(value);
    else parent[Number(last)] = value;
  } else if (isJsonObject(parent)) parent[last] = value;
  else throw new Error(`nothing to hold ${pointer} in the payload`);
  return document;
}
