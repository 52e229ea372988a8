// Never harm the target: a probe a correct server must refuse carries nothing a lenient server
// would change state with; --read-only sends no unsafe method; what a run created is deleted.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runSuite } from '../contract-tests/suite.js';
import { buildContractPlan } from '../src/cli/contract-plan.js';
import { preflight } from '../src/cli/contract-preflight.js';
import { loadSpec } from '../src/openapi/load.js';
import { serveOnFreePort, type Served } from './contract-helpers.js';

const SPEC = new URL('./fixtures/specs/account.yaml', import.meta.url).pathname;
const TOKEN = 'valid-token';

/** What the lenient server saw: every request, and each change a request without the valid token made. */
interface Seen {
  requests: { method: string; path: string; valid: boolean }[];
  harm: string[];
  account: { email: string; bio: string };
  notes: Map<number, { id: number; text: string }>;
}

/**
 * A deployment that checks no credential at all (the defect the suite must report) but does
 * validate bodies: it applies whatever it takes, so a probe that carried a real change would
 * change its data.
 */
function lenientServer(seen: Seen) {
  let nextId = 1;
  const json = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!.replace(/^\/api/, '');
      const valid = req.headers.authorization === `Bearer ${TOKEN}`;
      seen.requests.push({ method: req.method ?? '', path, valid });
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        return json(res, 400, { message: 'malformed JSON' });
      }
      const before = JSON.stringify([seen.account, [...seen.notes]]);
      const answer = route(req.method ?? '', path, body);
      if (!valid && JSON.stringify([seen.account, [...seen.notes]]) !== before)
        seen.harm.push(`${req.method} ${path} ${text}`);
      json(res, answer.status, answer.body);
    });
  };

  function route(method: string, path: string, body: unknown): { status: number; body?: unknown } {
    const object = typeof body === 'object' && body !== null && !Array.isArray(body);
    const fields = (object ? body : {}) as Record<string, unknown>;
    if (path === '/account' && method === 'GET') return { status: 200, body: seen.account };
    if (path === '/account' && method === 'PUT') {
      if (typeof fields.email !== 'string' || typeof fields.bio !== 'string')
        return { status: 400, body: { message: 'email and bio are strings' } };
      seen.account = { email: fields.email, bio: fields.bio };
      return { status: 200, body: seen.account };
    }
    if (path === '/notes' && method === 'GET')
      return { status: 200, body: [...seen.notes.values()] };
    if (path === '/notes' && method === 'POST') {
      if (typeof fields.text !== 'string' || fields.text === '' || fields.text.length > 100)
        return { status: 400, body: { message: 'text is a string of 1 to 100' } };
      const note = { id: nextId++, text: fields.text };
      seen.notes.set(note.id, note);
      return { status: 201, body: note };
    }
    const item = /^\/notes\/(\d+)$/.exec(path);
    const note = item && seen.notes.get(Number(item[1]));
    if (item && !note) return { status: 404, body: { message: 'no such note' } };
    if (note && method === 'GET') return { status: 200, body: note };
    if (note && method === 'DELETE') {
      seen.notes.delete(note.id);
      return { status: 204 };
    }
    return { status: 404, body: { message: 'no such path' } };
  }
}

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function start(): Promise<{ seen: Seen; baseUrl: string }> {
  const seen: Seen = {
    requests: [],
    harm: [],
    account: { email: 'ada@example.com', bio: 'mathematician' },
    notes: new Map([[1000, { id: 1000, text: 'kept: the deployment’s own' }]]),
  };
  served = await serveOnFreePort(lenientServer(seen), { path: '/api' });
  return { seen, baseUrl: served.url };
}

async function run(baseUrl: string, readOnly = false) {
  const plan = buildContractPlan((await loadSpec(SPEC)).resolved);
  return runSuite({
    plan,
    settings: { baseUrl, token: TOKEN, readOnly, seed: 1, budget: 4, timeoutMs: 5000, replay: '' },
  });
}

describe('the contract suite never harms its target', { timeout: 60_000 }, () => {
  it('reports a deployment that takes wrong credentials, and its probes leave its data as it was', async () => {
    const { seen, baseUrl } = await start();
    const { rules } = await run(baseUrl);
    // The defect is found...
    expect(
      rules.some((rule) => rule.state === 'failed' && /let through/.test(rule.error!.message)),
    ).toBe(true);
    // ...by probes that reached the writes without the valid token, and changed nothing.
    const probes = seen.requests.filter((request) => !request.valid);
    expect(
      probes.filter((r) => r.method === 'PUT' && r.path === '/account').length,
    ).toBeGreaterThan(3);
    expect(probes.filter((r) => r.method === 'POST' && r.path === '/notes').length).toBeGreaterThan(
      3,
    );
    expect(seen.harm).toEqual([]);
    expect(seen.account).toEqual({ email: 'ada@example.com', bio: 'mathematician' });
  });

  it('deletes at its end what it created, lists every write it made, and leaves the deployment’s own records', async () => {
    const { seen, baseUrl } = await start();
    const { writes = [], cleanup } = await run(baseUrl);
    const created = seen.requests.filter(
      (r) => r.valid && r.method === 'POST' && r.path === '/notes',
    );
    expect(created.length).toBeGreaterThan(3);
    expect([...seen.notes.keys()]).toEqual([1000]);
    expect(cleanup?.left).toEqual([]);
    expect(cleanup?.deletes.length).toBeGreaterThan(0);
    expect(
      cleanup?.deletes.every(({ method, status }) => method === 'DELETE' && status === 204),
    ).toBe(true);
    // Every unsafe request the rules sent is listed, with its status.
    const unsafe = seen.requests.filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method));
    expect(writes.length + cleanup!.deletes.length).toBe(unsafe.length);
    expect(writes).toContainEqual({ method: 'POST', path: '/notes', status: 201 });
  });

  it('sends no unsafe method with --read-only, its preflight included, and says why the rules that write are not judged', async () => {
    const { seen, baseUrl } = await start();
    const plan = buildContractPlan((await loadSpec(SPEC)).resolved);
    await preflight(plan, baseUrl, {
      credentials: { token: TOKEN },
      timeoutMs: 5000,
      hint: () => '',
      readOnly: true,
    });
    const { rules, writes } = await run(baseUrl, true);
    expect(seen.requests.length).toBeGreaterThan(10);
    expect(new Set(seen.requests.map((r) => r.method))).toEqual(new Set(['GET']));
    expect(writes).toEqual([]);
    const skipped = rules.filter((rule) => rule.state === 'skipped');
    expect(skipped.some((rule) => /^replaceAccount: /.test(rule.name))).toBe(true);
    expect(skipped.every((rule) => /^not judged: --read-only/.test(rule.note ?? ''))).toBe(true);
  });
});
