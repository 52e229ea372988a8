import { describe, expect, it } from 'vitest';
import { basePathOf, findServer, resolveServerUrl } from '../src/openapi/servers.js';
import { loadSpec, SpecError, type OpenApiDocument } from '../src/openapi/load.js';

const doc = (servers: OpenApiDocument['servers']): OpenApiDocument =>
  ({ openapi: '3.1.0', info: { title: 't', version: '1' }, servers }) as OpenApiDocument;

describe('the spec servers', () => {
  it('the bundled spec serves under /v1 in production and staging', async () => {
    const { resolved } = await loadSpec();
    expect(basePathOf(resolved)).toBe('/v1');
    expect(resolveServerUrl(findServer(resolved, 'production'))).toMatch(/^https:\/\/.+\/v1$/);
    expect(resolveServerUrl(findServer(resolved, 'Staging'))).toMatch(/^https:\/\/.+\/v1$/);
  });

  it('fills variables from overrides, else from defaults', () => {
    const server = {
      url: 'https://{host}:{port}/v1',
      variables: { host: { default: 'a.example' }, port: { default: '443' } },
    };
    expect(resolveServerUrl(server)).toBe('https://a.example:443/v1');
    expect(resolveServerUrl(server, { host: 'localhost', port: '8080' })).toBe(
      'https://localhost:8080/v1',
    );
  });

  it('refuses an override of a variable the server does not have', () => {
    expect(() => resolveServerUrl({ url: 'https://x/v1' }, { host: 'y' })).toThrow(
      /no variable "host"/,
    );
  });

  it('names the servers it has when asked for one it does not', async () => {
    const { resolved } = await loadSpec();
    expect(() => findServer(resolved, 'qa')).toThrow(/production, staging/);
  });

  it('derives the base path, and refuses servers that disagree on it', () => {
    expect(basePathOf(doc([{ url: 'https://a/api/v1/' }]))).toBe('/api/v1');
    expect(basePathOf(doc([{ url: '/v1' }]))).toBe('/v1');
    expect(basePathOf(doc(undefined))).toBe('');
    expect(() => basePathOf(doc([{ url: 'https://a/v1' }, { url: 'https://b/v2' }]))).toThrow(
      SpecError,
    );
  });
});
