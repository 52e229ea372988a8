// What counts as an origin, apart from the CORS middleware: the options' check reads it with
// no HTTP library loaded (petstore-kit/msw runs in a browser).

/**
 * Browsers send an origin serialized as the URL standard does; anything else never matches.
 * @example isOrigin('http://localhost:5173') // true
 * @example isOrigin('localhost:5173') // false
 */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}
