// The in-process dispatcher the contract proof reaches its fixture servers through: what the
// client sends reaches the app as over a socket, and what the app answers reaches the client.
import express from 'express';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { InProcessDispatcher } from './in-process-dispatcher.js';

const ORIGIN = 'http://deployment.localhost';

function app(): express.Express {
  const served = express();
  served.use(express.json());
  served.post('/echo', (req, res) => {
    res
      .status(201)
      .set('X-Seen', req.get('x-asked') ?? '')
      .json({ body: req.body, host: req.get('host'), url: req.originalUrl, proto: req.protocol });
  });
  served.get('/chunks', (_req, res) => {
    res.status(200).type('text/plain');
    res.write('one,');
    setTimeout(() => res.end('two'), 5);
  });
  served.get('/dropped', (req) => req.socket.destroy());
  served.get('/gone', (_req, res) => res.status(204).send('ignored'));
  return served;
}

describe('InProcessDispatcher', () => {
  const dispatcher = new InProcessDispatcher(app());

  it('gives the app the method, path, query, headers, Host and body; the client its answer', async () => {
    const res = await request(`${ORIGIN}/echo?a=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Asked': 'yes' },
      body: JSON.stringify({ name: 'Ada' }),
      dispatcher,
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-seen']).toBe('yes');
    expect(await res.body.json()).toEqual({
      body: { name: 'Ada' },
      host: 'deployment.localhost',
      url: '/echo?a=1',
      proto: 'http',
    });
  });

  it('passes a body written in chunks, and none for HEAD or 204', async () => {
    const chunks = await request(`${ORIGIN}/chunks`, { dispatcher });
    expect(await chunks.body.text()).toBe('one,two');
    const head = await request(`${ORIGIN}/chunks`, { method: 'HEAD', dispatcher });
    expect(head.statusCode).toBe(200);
    expect(await head.body.text()).toBe('');
    const gone = await request(`${ORIGIN}/gone`, { dispatcher });
    expect(gone.statusCode).toBe(204);
    expect(await gone.body.text()).toBe('');
  });

  it('answers a connection the app drops with the socket error undici gives', async () => {
    await expect(request(`${ORIGIN}/dropped`, { dispatcher })).rejects.toMatchObject({
      code: 'UND_ERR_SOCKET',
    });
  });

  it('answers a 404 for a path the app does not serve, and an abort with its reason', async () => {
    const missing = await request(`${ORIGIN}/nothing`, { dispatcher });
    expect(missing.statusCode).toBe(404);
    await missing.body.dump();
    const stalled = express().get('/stall', () => {});
    const aborted = request(`${ORIGIN}/stall`, {
      dispatcher: new InProcessDispatcher(stalled),
      signal: AbortSignal.timeout(50),
    });
    await expect(aborted).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
