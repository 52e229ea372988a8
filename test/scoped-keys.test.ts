// Keys given with the scopes they hold, `token[read,write]`, as --api-key and API_KEYS take them.
import { describe, expect, it } from 'vitest';
import { settleCredentials } from '../src/core/accepted-credentials.js';
import type { SecurityScheme } from '../src/openapi/security-schemes.js';
import { splitList } from '../src/wiring/option-kinds.js';

const SCHEMES = new Map<string, SecurityScheme>([['oauth', { type: 'oauth2' }]]);

describe('keys with scopes', () => {
  it('keeps a comma inside brackets with its key, in a variable and on the command line', () => {
    expect(splitList('a, t[read,write], b')).toEqual(['a', 't[read,write]', 'b']);
    expect(splitList('t[inventory:read,inventory:write],u')).toEqual([
      't[inventory:read,inventory:write]',
      'u',
    ]);
  });

  it('accepts the key without its brackets, holding those scopes; a key without them holds all', () => {
    const { accepted } = settleCredentials(SCHEMES, {
      apiKeys: ['t[read,write]', 'oauth=r[read]', 'all'],
      basic: [],
      defaults: false,
    });
    expect(accepted.keys).toEqual(['t', 'all']);
    expect(accepted.byScheme.get('oauth')).toEqual(['r']);
    expect([...(accepted.scopes?.get('t') ?? [])]).toEqual(['read', 'write']);
    expect([...(accepted.scopes?.get('r') ?? [])]).toEqual(['read']);
    expect(accepted.scopes?.has('all')).toBe(false);
  });
});
