import { describe, expect, it } from 'vitest';
import { createKeyChecker, readCredential } from '../src/core/credentials.js';

describe('readCredential', () => {
  it.each([
    { header: undefined, expected: { kind: 'missing' } },
    { header: '', expected: { kind: 'missing' } },
    { header: '   ', expected: { kind: 'missing' } },
    { header: 'Bearer abc', expected: { kind: 'bearer', token: 'abc' } },
    { header: 'bearer abc', expected: { kind: 'bearer', token: 'abc' } },
    // RFC 9110: one or more spaces after the scheme; Node trims around the value.
    { header: 'BEARER   abc', expected: { kind: 'bearer', token: 'abc' } },
    { header: 'Bearer abc==', expected: { kind: 'bearer', token: 'abc==' } },
    { header: 'Bearer', expected: { kind: 'empty-token' } },
    { header: 'Bearer ', expected: { kind: 'empty-token' } },
    { header: 'Bearer ab c', expected: { kind: 'malformed' } },
    { header: 'Bearer\tabc', expected: { kind: 'malformed' } },
    { header: 'Bearer abc ', expected: { kind: 'malformed' } },
    { header: 'Basic dXNlcjpwYXNz', expected: { kind: 'other-scheme' } },
    { header: 'abc', expected: { kind: 'other-scheme' } },
    { header: 'Token abc', expected: { kind: 'other-scheme' } },
  ])('$header -> $expected.kind', ({ header, expected }) => {
    expect(readCredential(header)).toEqual(expected);
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

  it('refuses to be built without keys or with an empty key', () => {
    expect(() => createKeyChecker([])).toThrow(/at least one/);
    expect(() => createKeyChecker(['ok', ''])).toThrow(/empty/);
  });
});
