import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import * as library from '../src/index.js';
import { startMock, type RunningMock } from '../src/index.js';
import { QUICK_SHUTDOWN } from './helpers.js';

const started: RunningMock[] = [];

async function start(options?: Parameters<typeof startMock>[0]): Promise<RunningMock> {
  const mock = await startMock({ ...QUICK_SHUTDOWN, ...options });
  started.push(mock);
  return mock;
}

function call(mock: RunningMock, init: RequestInit = {}, key = library.DEFAULT_API_KEY) {
  return fetch(`${mock.url}/categories`, {
    ...init,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
  });
}

async function names(mock: RunningMock): Promise<{ id: number; name: string }[]> {
  return (await (await call(mock)).json()) as { id: number; name: string }[];
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
});

describe('the library entry', () => {
  it('exports startMock, createApp and loadSpec, their defaults and every error class they throw', () => {
    expect(Object.keys(library).sort()).toEqual([
      'ADMIN_SPEC_PATH',
      'ApiError',
      'DEFAULTS',
      'DEFAULT_API_KEY',
      'DEFAULT_BASIC_CREDENTIAL',
      'DEFAULT_SERVER_LIMITS',
      'DEFAULT_STORE_LIMITS',
      'DataFileError',
      'REDIS_STORE_DEFAULTS',
      'RedisError',
      'SpecError',
      'StartupError',
      'StoreDiskFullError',
      'StoreFullError',
      'StoreNoScopesError',
      'StoreUnavailableError',
      'createApp',
      'createMemoryStore',
      'createMockServer',
      'descriptorOf',
      'loadSpec',
      'openFileStore',
      'openRedisStore',
      'startMock',
      'startProxy',
      'startupErrors',
      'validateOptions',
      'withLocalSideData',
    ]);
  });

  it('documents its start-up errors as classes a caller can tell apart', async () => {
    await expect(library.startMock({ spec: '/no/such/spec.yaml' })).rejects.toBeInstanceOf(
      library.SpecError,
    );
    await expect(library.startMock({ data: '/no/such/folder/data.jsonl' })).rejects.toBeInstanceOf(
      library.DataFileError,
    );
    await expect(library.startMock({ spec: '/no/such/spec.yaml' })).rejects.toBeInstanceOf(
      library.StartupError,
    );
  });
});

describe('startMock', () => {
  it('listens on a free port of 127.0.0.1, seeded as the CLI seeds, with the default key', async () => {
    const mock = await start();
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const list = await names(mock);
    expect(list).toHaveLength(10);
    expect(list.map((category) => category.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('two mocks run side by side, each with its own data', async () => {
    const [one, two] = await Promise.all([start({ seedCount: 0 }), start({ seedCount: 0 })]);
    expect(one!.url).not.toBe(two!.url);
    await call(one!, { method: 'POST', body: JSON.stringify({ name: 'Ferret' }) });
    expect(await names(one!)).toHaveLength(1);
    expect(await names(two!)).toHaveLength(0);
  });

  it('reset() restores the start-up data, ids counting from where they started', async () => {
    const mock = await start({ seedCount: 2, seed: 7 });
    const before = await names(mock);
    const created = await call(mock, { method: 'POST', body: JSON.stringify({ name: 'Ferret' }) });
    expect(((await created.json()) as { id: number }).id).toBe(3);
    expect(await names(mock)).toHaveLength(3);

    await mock.mock.reset();
    expect(await names(mock)).toEqual(before);
    const again = await call(mock, { method: 'POST', body: JSON.stringify({ name: 'Stoat' }) });
    expect(((await again.json()) as { id: number }).id).toBe(3);
  });

  it('takes keys and CORS options as the CLI does', async () => {
    const mock = await start({ apiKeys: ['mine'], cors: { origins: ['http://localhost:5173'] } });
    expect((await call(mock)).status).toBe(401);
    const res = await fetch(`${mock.url}/categories`, {
      headers: { Authorization: 'Bearer mine', Origin: 'http://localhost:5173' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('close() stops it listening', async () => {
    const mock = await startMock({ ...QUICK_SHUTDOWN, seedCount: 0 });
    await call(mock);
    await mock.close();
    await expect(call(mock)).rejects.toThrow(/fetch failed/);
  });

  it('refuses, as the CLI does, an empty host and a key no request could send', async () => {
    await expect(startMock({ host: '' })).rejects.toMatchObject({
      name: 'StartupError',
      code: 'invalid_option',
      message: expect.stringMatching(/^option host \(--host, HOST\): it is empty/),
    });
    await expect(startMock({ apiKeys: ['one two'] })).rejects.toThrow(
      /^an API key cannot hold whitespace/,
    );
  });

  it('fails with the address when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      await expect(startMock({ port })).rejects.toThrow(
        `cannot listen on 127.0.0.1:${port}: the port is already in use`,
      );
    } finally {
      blocker.close();
    }
  });
});
