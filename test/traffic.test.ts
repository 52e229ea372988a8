// `petstore-kit traffic` (issue 49): a HAR recording judged offline, exchange by exchange, with
// the judge the proxy applies live; and the proxy's --har, which writes what passed.
import { readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHar, type Har } from '../src/core/traffic/har.js';
import { startProxy } from '../src/wiring/start-proxy.js';
import { QUICK_SHUTDOWN, runCli } from './helpers.js';
import { categoriesTarget, TARGET_AUTH, type Fault } from './proxy-target.js';
import { tempFolder } from './temp-folders.js';

const target = categoriesTarget();
let targetUrl: string;
let folder: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.server.address() as AddressInfo).port}/api/v1`;
  folder = await tempFolder('traffic');
});

afterAll(async () => {
  target.server.closeAllConnections();
  await new Promise((resolve) => target.server.close(resolve));
});

/** Sends a few calls through a proxy writing a HAR, with the target's fault of the moment. */
async function recorded(name: string, fault: Fault): Promise<string> {
  const har = join(folder, `${name}.har`);
  const proxy = await startProxy({ ...QUICK_SHUTDOWN, target: targetUrl, apiKeys: ['admin'], har });
  target.state.fault = fault;
  try {
    const json = { ...TARGET_AUTH, 'Content-Type': 'application/json' };
    await (await fetch(`${proxy.url}/categories`, { headers: TARGET_AUTH })).text();
    await (
      await fetch(`${proxy.url}/categories`, {
        method: 'POST',
        headers: json,
        body: '{"name":"Ferret"}',
      })
    ).text();
    // A request the description forbids (no name), which a correct server refuses.
    await (
      await fetch(`${proxy.url}/categories`, { method: 'POST', headers: json, body: '{}' })
    ).text();
  } finally {
    target.state.fault = 'none';
    await proxy.close();
  }
  return har;
}

describe('petstore-kit proxy --har', () => {
  it('writes every exchange as HAR 1.2, its credentials redacted', async () => {
    const file = await recorded('correct', 'none');
    const har = JSON.parse(await readFile(file, 'utf8')) as Har;
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((entry) => [entry.request.method, entry.response.status])).toEqual([
      ['GET', 200],
      ['POST', 201],
      ['POST', 400],
    ]);
    const [, create] = har.log.entries;
    expect(create?.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer ***' });
    expect(create?.request.postData?.text).toBe('{"name":"Ferret"}');
    expect(JSON.parse(create?.response.content.text ?? '')).toMatchObject({ name: 'Ferret' });
    expect(await readFile(file, 'utf8')).not.toContain('staging-token');
  });

  it('leaves a file readable to its last entry when the proxy never closed it', () => {
    const cut =
      '{"log":{"version":"1.2","creator":{"name":"x","version":"1"},"entries":[\n' +
      '{"startedDateTime":"2026-12-06T00:00:00Z","time":1,"request":{"method":"GET","url":"http://a.test/v1/categories","httpVersion":"HTTP/1.1","headers":[],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},"response":{"status":200,"statusText":"","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":2,"mimeType":"application/json","text":"[]"},"redirectURL":"","headersSize":-1,"bodySize":2},"cache":{},"timings":{"send":0,"wait":1,"receive":0}}';
    expect(readHar(cut)).toHaveLength(1);
  });
});

describe('petstore-kit traffic', () => {
  it('passes a correct server, and lists the forbidden request it refused as the client’s', async () => {
    const har = await recorded('passes', 'none');
    const run = await runCli('traffic', har);
    expect(run.code).toBe(0);
    expect(run.out).toContain('refused (the client; not failed)');
    expect(run.out).toMatch(
      /#2 POST .*→ 400 \(createCategory\)\n\s+body: \/body must have required property 'name'/,
    );
    expect(run.out).toContain('traffic: conforms (3 exchanges judged');
  });

  it.each([
    [
      'missing-field',
      /#0 GET .*→ 200 \(listCategories\)\n\s+body: .*must have required property 'name'/,
    ],
    ['wrong-status', /#0 GET .*→ 202 \(listCategories\)\n\s+body: \/response must be an object/],
    ['duplicate-ids', /duplicate-ids: /],
  ] as const)('fails a server whose answer breaks the description (%s)', async (fault, line) => {
    const run = await runCli('traffic', await recorded(fault, fault));
    expect(run.code).toBe(1);
    expect(run.out).toContain('answers that break the description (the server):');
    expect(run.out).toMatch(line);
  });

  it('fails a server that accepted a request the description forbids', async () => {
    const har = join(folder, 'accepted.har');
    const entry = (status: number, auth: boolean) => ({
      startedDateTime: '2026-12-06T00:00:00Z',
      time: 1,
      request: {
        method: 'GET',
        url: 'https://staging.example.com/v1/categories',
        httpVersion: 'HTTP/1.1',
        headers: auth ? [{ name: 'Authorization', value: 'Bearer ***' }] : [],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        cookies: [],
        content: { size: 2, mimeType: 'application/json', text: '[]' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 2,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    });
    // The same call with a redacted credential (judged as sent) and without one, both answered 200.
    await writeFile(
      har,
      JSON.stringify({
        log: {
          version: '1.2',
          creator: { name: 't', version: '1' },
          entries: [entry(200, true), entry(200, false)],
        },
      }),
    );
    const run = await runCli('traffic', har, '--base-url', 'https://staging.example.com/v1');
    expect(run.code).toBe(1);
    expect(run.out).toMatch(
      /accepted with a 2xx \(the server\):\n\s+#1 GET .*→ 200 \(listCategories\)\n\s+credentials: /,
    );
    expect(run.out).not.toMatch(/#0 GET/);
  });

  it('fails a recording that exercised less than --min-coverage', async () => {
    const run = await runCli('traffic', await recorded('coverage', 'none'), '--min-coverage', '90');
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/does NOT conform: .*below --min-coverage 90%/);
  });

  it('answers 2 with one line why when it cannot judge', async () => {
    const notHar = join(folder, 'not.har');
    await writeFile(notHar, '{"hello": 1}');
    const run = await runCli('traffic', notHar);
    expect(run.code).toBe(2);
    expect(run.err).toBe(
      `petstore-kit traffic: cannot judge: ${notHar} has no log.entries: it is not a HAR 1.2 file\n`,
    );
    const elsewhere = await runCli(
      'traffic',
      await recorded('elsewhere', 'none'),
      '--base-url',
      'https://other.example.com/v1',
    );
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.err).toMatch(
      /no exchange of .* went to the API at https:\/\/other.example.com\/v1 .*give --base-url/,
    );
  });

  it('gives the report as JSON', async () => {
    const run = await runCli('traffic', await recorded('json', 'none'), '--format', 'json');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out) as { judged: number; findings: { side: string }[] };
    expect(report.judged).toBe(3);
    expect(report.findings.map((finding) => finding.side)).toEqual(['client']);
  });
});
