/**
 * The tokens of a JSON Pointer (RFC 6901): `/a~1b/0` is `['a/b', '0']`; `''` is the whole document.
 * @throws {Error} when the pointer is neither empty nor starts with `/`.
 */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`the JSON pointer "${pointer}" must start with /`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
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
    else if (isRecord(value) && Object.hasOwn(value, token)) value = value[token];
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
      : isRecord(parent)
        ? parent[token]
        : undefined;
    if (next === undefined || next === null || typeof next !== 'object') {
      const made = {};
      if (Array.isArray(parent)) parent[Number(token)] = made;
      else if (isRecord(parent)) parent[token] = made;
      else throw new Error(`nothing to hold ${pointer} in the payload`);
      parent = made;
    } else parent = next;
  }
  if (Array.isArray(parent)) {
    if (last === '-') parent.push(value);
    else parent[Number(last)] = value;
  } else if (isRecord(parent)) parent[last] = value;
  else throw new Error(`nothing to hold ${pointer} in the payload`);
  return document;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
