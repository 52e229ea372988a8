// Media types as HTTP reads them (RFC 9110 §8.3.1): case-insensitive, parameters aside. A leaf
// module, so that the contract suite and the judge read them without loading a document.

/**
 * A media type without its parameters, in lower case.
 * @example essenceOf('Application/JSON; charset=utf-8') // 'application/json'
 */
export function essenceOf(type: string): string {
  return (type.split(';')[0] ?? '').trim().toLowerCase();
}

/** The subtype of a structured-syntax `+json` type, between `application/` and `+json`. */
const JSON_SUBTYPE = /^[\w.-]+$/;

/** `application/json`, `application/problem+json` and the like. */
export function isJsonMediaType(type: string): boolean {
  if (type === 'application/json') return true;
  const essence = essenceOf(type);
  return (
    essence === 'application/json' ||
    (essence.startsWith('application/') &&
      essence.endsWith('+json') &&
      JSON_SUBTYPE.test(essence.slice('application/'.length, -'+json'.length)))
  );
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
