// A record's schema is merged from every schema the spec gives the record in. Dialogporten's
// search results close a dialog's `content` over fewer fields than its read does: both at once
// (`allOf`) let no content a create took through, and the mock made the field anew (500s and
// altered values). Nested objects now merge as the record does, open; each answer still shows
// only what its own closed schema declares.
import { describe, expect, it } from 'vitest';
import { projectionFor } from '../src/core/resources/record-serializer.js';
import type { SchemaObject } from '../src/openapi/load.js';
import { mergeRecordSchemas } from '../src/openapi/record-schema.js';
import { createSchemaCompiler } from '../src/openapi/schemas.js';

const closed = (...names: string[]) => ({
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
});
// As the description writes them: a lone `oneOf` arm, to carry a description.
const read = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    content: { description: 'read', oneOf: [closed('title', 'summary', 'additionalInfo')] },
  },
} as unknown as SchemaObject;
const search = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    content: { description: 'search', oneOf: [closed('title', 'summary')] },
  },
} as unknown as SchemaObject;

describe('a record schema merged from answers that close a nested object differently', () => {
  const record = mergeRecordSchemas([read, search]);
  const content = { title: 't', summary: 's', additionalInfo: 'more' };

  it('holds every field either answer shows', () => {
    const check = createSchemaCompiler().response(record);
    expect(check({ id: '1', content }, '/body')).toEqual([]);
  });

  it('shows each answer what its own closed schema declares', () => {
    expect(projectionFor(search)({ id: '1', content })).toEqual({
      id: '1',
      content: { title: 't', summary: 's' },
    });
    expect(projectionFor(read)({ id: '1', content })).toEqual({ id: '1', content });
  });
});
