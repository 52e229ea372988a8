// The proxy's request line is the mock's: an API key the spec puts in the query is redacted in
// it, as the mock's own lines and the request log redact it.
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/http/logger.js';
import { specFromDocument } from '../src/openapi/document-spec.js';
import { loadSpec } from '../src/openapi/load.js';
import { startProxy, type RunningProxy } from '../src/wiring/start-proxy.js';
import { categoriesTarget } from './proxy-target.js';

const target = categoriesTarget();
const lines: string[] = [];
let proxy: RunningProxy;

beforeAll(async () => {
  await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
  const port = (target.server.address() as AddressInfo).port;
  // The bundled spec with its key in the query.
  const document = structuredClone((await loadSpec()).document);
  document.components = {
    ...document.components,
    securitySchemes: { key: { type: 'apiKey', in: 'query', name: 'api_key' } },
  };
  document.security = [{ key: [] }];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  proxy = await startProxy({
    spec: specFromDocument(document),
    target: `http://127.0.0.1:${port}/api/v1`,
    apiKeys: ['admin-key'],
    logger: createLogger(sink),
    logRequests: true,
  });
});

afterAll(async () => {
  await proxy.close();
  target.server.closeAllConnections();
  await new Promise((resolve) => target.server.close(resolve));
});

describe('petstore-kit proxy: the request line', () => {
  it('shows the path with the query key redacted', async () => {
    const res = await fetch(`${proxy.url}/categories?api_key=SECRET-KEY-1`);
    await res.arrayBuffer();
    const deadline = Date.now() + 10_000;
    while (!lines.some((line) => line.includes('/v1/categories')) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const line = lines.find((text) => text.includes('/v1/categories'));
    expect(line).toContain('api_key=***');
    expect(lines.join('\n')).not.toContain('SECRET-KEY-1');
  });
});
