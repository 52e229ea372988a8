// One judge of an exchange against the spec, as the validating proxy applies it: what offline
// traffic, a workflow's steps and the proxy all call.
import { describe, expect, it } from 'vitest';
import { judgeExchange } from '../src/core/proxy/judge.js';
import { loadSpec } from '../src/openapi/load.js';
import { createApp } from '../src/wiring/create-app.js';
import { KEY } from './helpers.js';

describe('judgeExchange', async () => {
  const app = createApp({ spec: await loadSpec(), apiKeys: [KEY], seedCount: 0 });
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

  it('finds nothing in an exchange that fits the spec', async () => {
    const judged = await judgeExchange(app.mock, {
      request: {
        method: 'POST',
        target: '/v1/categories',
        headers,
        body: Buffer.from('{"name":"Dogs"}'),
      },
      answer: {
        method: 'POST',
        status: 201,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"id":1,"name":"Dogs"}'),
      },
    });
    expect(judged.operation?.operationId).toBe('createCategory');
    expect(judged).toMatchObject({ request: [], answer: [], advisories: [] });
  });

  it('names what the request and the answer each break', async () => {
    const judged = await judgeExchange(app.mock, {
      request: { method: 'POST', target: '/v1/categories', headers, body: Buffer.from('{}') },
      answer: {
        method: 'POST',
        status: 201,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"name":"Dogs"}'),
      },
    });
    expect(judged.request).toEqual([expect.objectContaining({ rule: 'body' })]);
    expect(judged.answer).toEqual([expect.objectContaining({ rule: 'body' })]);
  });

  it('holds an undeclared query parameter as an advisory, not a breach', async () => {
    const judged = await judgeExchange(app.mock, {
      request: { method: 'GET', target: '/v1/categories?utm=1', headers },
      answer: {
        method: 'GET',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('[]'),
      },
    });
    expect(judged.request).toEqual([]);
    expect(judged.advisories).toEqual([expect.objectContaining({ rule: 'parameters' })]);
  });
});
