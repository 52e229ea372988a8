// A create may answer 201 with an empty body and the new record's URL in `Location`: the
// suite reads the id there, against the collection's item path, as a client would.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../contract-tests/http.js';
import type { CollectionKit } from '../contract-tests/kit.js';
import { idFromLocation } from '../contract-tests/kit-records.js';
import type { PlanCollection } from '../contract-tests/plan.js';

const collection = (plan: Partial<PlanCollection>): CollectionKit => ({
  plan: {
    name: 'tickets',
    collectionPath: '/projects/{projectId}/tickets',
    itemPath: '/projects/{projectId}/tickets/{ticketId}',
    itemParameter: 'ticketId',
    idProperty: 'id',
    idKind: 'integer',
    schema: {},
    operations: {},
    envelopes: {},
    ...plan,
  },
});
const created = (location?: string): Exchange => ({
  request: {
    method: 'post',
    path: '/projects/{projectId}/tickets',
    headers: {},
    url: 'http://h:8080/api/projects/7/tickets',
  },
  status: 201,
  headers: location === undefined ? {} : { location },
  text: '',
  json: undefined,
  retries: [],
});

describe('the id a Location gives', () => {
  it('is read from a path, an absolute URL or a relative reference, under the base path', () => {
    const tickets = collection({});
    expect(idFromLocation(tickets, created('/api/projects/7/tickets/12'))).toBe(12);
    expect(idFromLocation(tickets, created('http://h:8080/api/projects/7/tickets/12'))).toBe(12);
    expect(idFromLocation(tickets, created('tickets/13'))).toBe(13);
  });

  it('keeps a string or uuid id as written, decoded', () => {
    const named = collection({ idKind: 'string' });
    expect(idFromLocation(named, created('/api/projects/7/tickets/a%20b'))).toBe('a b');
    expect(idFromLocation(named, created('/api/projects/7/tickets/0012'))).toBe('0012');
  });

  it('is none when the header is missing, elsewhere, or names no item of the collection', () => {
    const tickets = collection({});
    expect(idFromLocation(tickets, created())).toBeUndefined();
    expect(
      idFromLocation(tickets, created('https://other.example/api/projects/7/tickets/12')),
    ).toBe(undefined);
    expect(idFromLocation(tickets, created('/api/projects/7/comments/12'))).toBeUndefined();
    expect(idFromLocation(tickets, created('/12'))).toBeUndefined();
    expect(idFromLocation(collection({ itemPath: undefined }), created('/x/1'))).toBeUndefined();
  });
});
