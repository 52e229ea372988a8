// Media types as HTTP reads them (RFC 9110 §8.3.1): case-insensitive, parameters aside. A leaf
// module, so that the contract suite and the judge read them without loading a document.

/**
 * A media type without its parameters, in lower case.
 * @example essenceOf('Application/JSON; charset=utf-8') // 'application/json'
 */
export function essenceOf(type: string): string {
  return (type.split(';')[0] ?? '').trim().toLowerCase();
}

/** The answers of isJsonMediaType for the media types seen so far (a handful, in practice). */
const jsonTypes = new Map<string, boolean>();

/** `application/json`, `application/problem+json` and the like. */
export function isJsonMediaType(type: string): boolean {
  let json = jsonTypes.get(type);
  if (json === undefined) {
    const essence = essenceOf(type);
    json = essence === 'application/json' || /^application\/[\w.-]+\+json$/.test(essence);
    // Bounded, whatever clients send as Content-Type.
    if (jsonTypes.size < 256) jsonTypes.set(type, json);
  }
  return json;
}

/** `application/xml`, `text/xml` and `application/<vendor>+xml`. */
export function isXmlMediaType(type: string): boolean {
  const essence = essenceOf(type);
  return (
    essence === 'application/xml' ||
    essence === 'text/xml' ||
    /^application\/[\w.-]+\+xml$/.test(essence)
  );
}
