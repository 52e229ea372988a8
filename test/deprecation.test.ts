import { describe, expect, it } from 'vitest';
import { deprecationHeaders } from '../src/openapi/deprecation.js';
import { SpecError, type OperationObject } from '../src/openapi/load.js';

const operation = (extra: object): OperationObject => ({
  operationId: 'op',
  responses: {},
  ...extra,
});

describe('deprecationHeaders', () => {
  it('is empty for an operation that is not deprecated, even with dates', () => {
    expect(deprecationHeaders(operation({ 'x-sunset': '2027-06-30' }))).toEqual({});
  });

  it('gives Deprecation as @unix-time and Sunset as an HTTP-date', () => {
    expect(
      deprecationHeaders(
        operation({ deprecated: true, 'x-deprecated-at': '2026-01-01', 'x-sunset': '2027-06-30' }),
      ),
    ).toEqual({ Deprecation: '@1767225600', Sunset: 'Wed, 30 Jun 2027 00:00:00 GMT' });
  });

  it('gives only the headers whose dates the spec holds', () => {
    expect(
      deprecationHeaders(operation({ deprecated: true, 'x-sunset': '2027-06-30T12:00:00Z' })),
    ).toEqual({
      Sunset: 'Wed, 30 Jun 2027 12:00:00 GMT',
    });
    expect(deprecationHeaders(operation({ deprecated: true }))).toEqual({});
  });

  it('rejects a date that does not parse', () => {
    expect(() =>
      deprecationHeaders(operation({ deprecated: true, 'x-sunset': 'next summer' })),
    ).toThrow(SpecError);
  });
});
