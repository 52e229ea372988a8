import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createKeyChecker,
  decodeBasic,
  readAuthorization,
  readCookies,
} from '../src/core/credentials.js';

describe('readAuthorization, as a bearer credential (RFC 6750)', () => {
  it.each([
    { header: undefined, expected: { kind: 'missing' } },
    { header: '', expected: { kind: 'missing' } },
    { header: '   ', expected: { kind: 'missing' } },
    { header: 'Bearer abc', expected: { kind: 'token', token: 'abc' } },
    { header: 'bearer abc', expected: { kind: 'token', token: 'abc' } },
    // RFC 9110: one or more spaces after the scheme; Node trims around the value.
    { header: 'BEARER   abc', expected: { kind: 'token', token: 'abc' } },
    { header: 'Bearer abc==', expected: { kind: 'token', token: 'abc==' } },
    { header: 'Bearer', expected: { kind: 'empty-token' } },
    { header: 'Bearer ', expected: { kind: 'empty-token' } },
    { header: 'Bearer ab c', expected: { kind: 'malformed' } },
    { header: 'Bearer\tabc', expected: { kind: 'malformed' } },
    { header: 'Bearer abc ', expected: { kind: 'malformed' } },
    { header: 'Basic dXNlcjpwYXNz', expected: { kind: 'other-scheme' } },
    { header: 'abc', expected: { kind: 'other-scheme' } },
    { header: 'Token abc', expected: { kind: 'other-scheme' } },
  ])('$header -> $expected.kind', ({ header, expected }) => {
    expect(readAuthorization(header, 'Bearer')).toEqual(expected);
  });
});

describe('readAuthorization, against its plain reading (property)', () => {
  /** RFC 9110's reading, as regular expressions say it: what the fast path must agree with. */
  function plainReading(header: string | undefined, scheme: string) {
    if (header === undefined || header.trim() === '') return { kind: 'missing' };
    const sent = /^\S*/.exec(header)?.[0] ?? '';
    if (sent.toLowerCase() !== scheme.toLowerCase()) return { kind: 'other-scheme' };
    const rest = header.slice(sent.length);
    if (rest.trim() === '') return { kind: 'empty-token' };
    const token = /^ +(.*)$/s.exec(rest)?.[1];
    if (token === undefined || !/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) return { kind: 'malformed' };
    return { kind: 'token', token };
  }

  it('reads every header as the plain reading does', () => {
    const piece = fc.constantFrom(
      'Bearer',
      'bearer',
      'BEARER',
      'Basic',
      ' ',
      '  ',
      '\t',
      'abc',
      'a.b-c',
      '==',
      '=',
      'x y',
      '\u00e9',
      '',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 6 }),
        fc.constantFrom('Bearer', 'Basic'),
        (pieces, scheme) => {
          const header = pieces.join('');
          expect(readAuthorization(header, scheme)).toEqual(plainReading(header, scheme));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('createKeyChecker', () => {
  const check = createKeyChecker(['alpha', 'beta']);

  it('accepts each configured key', () => {
    expect(check('alpha')).toBe(true);
    expect(check('beta')).toBe(true);
  });

  it('rejects anything else, including prefixes, extensions and case changes', () => {
    for (const token of ['gamma', 'alph', 'alphaa', 'ALPHA', '', ' alpha'])
      expect(check(token), token).toBe(false);
  });

  it("tells apart what differs only past a secret's end, or only by a NUL or a character beyond ASCII", () => {
    const keys = createKeyChecker(['k', 'a\u0000b', 'κλειδί', '🔑x']);
    for (const token of ['k', 'a\u0000b', 'κλειδί', '🔑x']) expect(keys(token), token).toBe(true);
    for (const token of [
      'k\u0000',
      'a',
      'a\u0000',
      'a\u0000bb',
      'κλειδι',
      '🔑',
      '🔑y',
      'x'.repeat(10_000),
    ])
      expect(keys(token), JSON.stringify(token)).toBe(false);
  });

  it('accepts exactly the configured keys, whatever is sent (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme' }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.string({ maxLength: 16, unit: 'grapheme' }),
        (secrets, sent) => {
          const keys = createKeyChecker(secrets);
          expect(keys(sent)).toBe(secrets.includes(sent));
          for (const secret of secrets) {
            expect(keys(secret)).toBe(true);
            expect(keys(secret.slice(0, -1))).toBe(secrets.includes(secret.slice(0, -1)));
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses to be built without keys or with an empty key', () => {
    expect(() => createKeyChecker([])).toThrow(/at least one/);
    expect(() => createKeyChecker(['ok', ''])).toThrow(/empty/);
  });
});

describe('readAuthorization, for another scheme', () => {
  it.each([
    { header: 'Basic dXNlcjpwYXNz', scheme: 'Basic', kind: 'token' },
    { header: 'BASIC dXNlcjpwYXNz', scheme: 'Basic', kind: 'token' },
    { header: 'Bearer abc', scheme: 'Basic', kind: 'other-scheme' },
    { header: 'Token abc', scheme: 'Token', kind: 'token' },
    { header: 'Basic', scheme: 'Basic', kind: 'empty-token' },
  ])('$header as $scheme -> $kind', ({ header, scheme, kind }) => {
    expect(readAuthorization(header, scheme).kind).toBe(kind);
  });
});

describe('decodeBasic', () => {
  const b64 = (bytes: string | number[]) =>
    (typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes)).toString('base64');
  it.each([
    { what: 'user:password', token: b64('user:pass'), expected: 'user:pass' },
    { what: 'a password with colons', token: b64('u:a:b'), expected: 'u:a:b' },
    { what: 'UTF-8', token: b64('zoë:ünïcode'), expected: 'zoë:ünïcode' },
    { what: 'without its padding', token: b64('a:').replace(/=+$/, ''), expected: 'a:' },
    { what: 'no colon', token: b64('alice'), expected: undefined },
    { what: 'bits a plain encoder would not write', token: 'YTp=', expected: undefined },
    { what: 'bytes that are not UTF-8', token: b64([0xff, 0x3a]), expected: undefined },
    { what: 'characters base64 lacks', token: 'a:b', expected: undefined },
  ])('$what', ({ token, expected }) => {
    expect(decodeBasic(token)).toBe(expected);
  });
});

describe('readCookies', () => {
  it('keeps every value of a name sent twice, decoded', () => {
    const cookies = readCookies('a=1; b=x%20y; a=2;c');
    expect(cookies.get('a')).toEqual(['1', '2']);
    expect(cookies.get('b')).toEqual(['x y']);
    expect(cookies.has('c')).toBe(false);
    expect(readCookies(undefined).size).toBe(0);
  });
});
