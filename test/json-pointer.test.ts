import { describe, expect, it } from 'vitest';
import {
  escapeToken,
  fragmentOf,
  fragmentTokens,
  pointerTokens,
  setValueAt,
  valueAt,
} from '../src/openapi/json-pointer.js';

describe('JSON Pointer (RFC 6901), the one reading every layer uses', () => {
  it('escapes and reads back a token holding / and ~', () => {
    expect(escapeToken('a/b~c')).toBe('a~1b~0c');
    expect(pointerTokens('/a~1b~0c/~01')).toEqual(['a/b~c', '~1']);
    expect(fragmentTokens(fragmentOf(['paths', '/pets/{id}', 'get']))).toEqual([
      'paths',
      '/pets/{id}',
      'get',
    ]);
  });

  it('reads a fragment percent-encoded as a URI writes it, and refuses one that is no pointer', () => {
    expect(fragmentTokens('#/components/schemas/Pet%20Category')).toEqual([
      'components',
      'schemas',
      'Pet Category',
    ]);
    expect(fragmentTokens('#/a/100%')).toEqual(['a', '100%']);
    expect(fragmentTokens('#')).toEqual([]);
    expect(fragmentTokens('other.yaml#/a')).toBeUndefined();
    expect(fragmentTokens('#name')).toBeUndefined();
    expect(() => pointerTokens('a')).toThrow(/must start with \//);
  });

  it('gets and sets values, arrays by index and - to append', () => {
    const document = { pets: [{ id: 7 }] };
    expect(valueAt(document, '/pets/0/id')).toBe(7);
    expect(valueAt(document, '/pets/01')).toBeUndefined();
    expect(valueAt(document, '/toString')).toBeUndefined();
    setValueAt(document, '/pets/-', { id: 8 });
    setValueAt(document, '/owner/name', 'Ada');
    expect(document).toEqual({ pets: [{ id: 7 }, { id: 8 }], owner: { name: 'Ada' } });
  });
});
