import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { expect, vi } from 'vitest';
import { parse, stringify } from 'yaml';
import { createLogger, type Logger, type LoggerOptions } from '../src/http/logger.js';
import { EAGER_CHECK_BYTES } from '../src/core/document-size.js';
import { loadSpec, type LoadedSpec, type OpenApiDocument } from '../src/openapi/load.js';
import { startMock, type RunningMock } from '../src/wiring/start-mock.js';
import type { MockOptions } from '../src/wiring/options.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import type { Collection, CollectionDescriptor, Store, StoredRecord } from '../src/store/store.js';
import { tempFolder } from './temp-folders.js';

export const KEY = 'test-key';

/**
 * A document a test writes out, as `openapi.json` in a temporary folder of its own (removed when
 * the test, or outside a test the file, ends): its path, for what reads a spec from a file
 * (startMock, loadSpec, the CLI).
 * @example startMock({ spec: await specFileOf({ openapi: '3.1.0', ... }) })
 */
export async function specFileOf(spec: object): Promise<string> {
  const file = join(await tempFolder('spec'), 'openapi.json');
  await writeFile(file, JSON.stringify(spec));
  return file;
}
export const AUTH = { authorization: `Bearer ${KEY}` };

/**
 * For a mock whose test leaves nothing in flight when it closes it: the idle keep-alive
 * connection of the test's own fetch is closed at once, not after shutdown's grace (200 ms of
 * idleness, for a client whose next request may be on its way).
 * @example await startMock({ ...QUICK_SHUTDOWN, apiKeys: [KEY] })
 */
export const QUICK_SHUTDOWN = { shutdownTimeoutSeconds: 0.05 } as const;

/** An answer as supertest and test/in-process-request.ts give one. */
export interface TestAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  text?: string | undefined;
}

/** Asserts an answer is the spec's Error body with this status and code, as JSON. */
export function expectError(res: TestAnswer, status: number, code?: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({
    code: code ?? expect.any(String),
    message: expect.any(String),
    status,
  });
  expect(res.text).not.toMatch(/\bat .*\.(js|ts):\d+|node_modules|<html/i);
}

/** The bundled spec, changed by `edit`, written to a temporary file and loaded from there. */
export async function editedSpec(edit: (document: OpenApiDocument) => void): Promise<LoadedSpec> {
  const { document } = await loadSpec();
  const copy = structuredClone(document);
  edit(copy);
  const path = join(await tempFolder('spec'), 'openapi.yaml');
  await writeFile(path, stringify(copy));
  return loadSpec(path);
}

/** How the engine names the categories collection of the bundled spec. */
export const CATEGORIES: CollectionDescriptor = {
  name: 'categories',
  idProperty: 'id',
  idKind: 'integer',
};

/** A memory store holding these categories (ids included), its start-up state. */
export function categoryStore(initial: readonly object[] = []): Store {
  return createMemoryStore({
    initial: { categories: initial as readonly Record<string, unknown>[] },
  });
}

/** The categories a store holds, oldest first. */
export async function storedCategories(store: Store): Promise<readonly StoredRecord[]> {
  return store.collection(CATEGORIES).list();
}

/** A store whose collections behave as `overrides` say, the rest as a memory store. */
export function storeWith(overrides: Partial<Collection>, initial: readonly object[] = []): Store {
  const store = categoryStore(initial);
  return {
    ...store,
    count: () => store.count(),
    markInitial: () => store.markInitial(),
    reset: () => store.reset(),
    close: () => store.close(),
    collection(descriptor) {
      const inner = store.collection(descriptor);
      return {
        descriptor,
        list: () => inner.list(),
        get: (id) => inner.get(id),
        create: (fields) => inner.create(fields),
        update: (id, change) => inner.update(id, change),
        remove: (id) => inner.remove(id),
        ...overrides,
      };
    },
  };
}

/**
 * A logger whose every line is collected as text, read by `text()`.
 * @example const { logger, text } = capturedLogger({ pretty: true }); logger.info('hi'); text() // '... hi\n'
 */
export function capturedLogger(options: LoggerOptions = {}): {
  logger: Logger;
  text: () => string;
} {
  let text = '';
  const logger = createLogger(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    }),
    options,
  );
  return { logger, text: () => text };
}

/** What a `petstore-kit` command run in process printed, and its exit code. */
export interface CliRun {
  out: string;
  err: string;
  code: number;
}

/** A stream that hands each chunk written to it, as text, to `write`. */
function textSink(write: (text: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      write(chunk.toString());
      done();
    },
  });
}

/**
 * Runs `petstore-kit ...args` in process, as bin.ts runs it (src/cli/run.ts), collecting
 * stdout and stderr: no child process to spawn. The CLI is imported on first use, so files that
 * never call this do not load it.
 * @example const { out, err, code } = await runCli('types', '--spec', 'spec/openapi.yaml');
 */
export async function runCli(...args: string[]): Promise<CliRun> {
  return runCliWith(args);
}

/**
 * `runCli` with these variables as the run's whole environment (nothing of the test's own: no
 * stray BASE_URL or API_KEY).
 * @example await runCliWith(['contract', '--base-url', url], { API_KEY: 'k' })
 */
export async function runCliWith(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  const { run } = await import('../src/cli/run.js');
  const collected = { out: '', err: '' };
  const code = await run(args, {
    stdout: textSink((text) => (collected.out += text)),
    stderr: textSink((text) => (collected.err += text)),
    env,
  });
  return { ...collected, code };
}

/** A command that serves (a mock, a proxy) run in process: what it printed, and its stop. */
export interface ServingCli {
  /** The URL its first "listening on" line gave. */
  url: string;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** Stops it as a signal stops bin.ts; resolves with the run's exit code. */
  stop: () => Promise<number>;
}

/**
 * Runs a command that serves (`mock`, `proxy`) in process, as `runCliWith` does, and resolves
 * once it says where it listens; rejects with what it printed if it ends before.
 * @example const { url, stop } = await serveCli(['mock', '--port', '0']); ...; await stop();
 */
export async function serveCli(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<ServingCli> {
  const { run } = await import('../src/cli/run.js');
  const stopping = new AbortController();
  let text = '';
  let url: string | undefined;
  let listening: (url: string) => void = () => {};
  const announced = new Promise<string>((resolve) => (listening = resolve));
  const sink = textSink((chunk) => {
    text += chunk;
    url ??= /listening on (https?:\/\/\S+?)["\s),]/.exec(text)?.[1];
    if (url) listening(url);
  });
  const ended = run(args, { stdout: sink, stderr: sink, env, signal: stopping.signal });
  await Promise.race([
    announced,
    ended.then((code) => {
      if (url === undefined) throw new Error(`exited with ${code}: ${text}`);
    }),
  ]);
  return {
    url: url!,
    output: () => text,
    stop: () => {
      stopping.abort();
      return ended;
    },
  };
}

/**
 * A document past EAGER_CHECK_BYTES, written to a temporary file: a collection (`/items`), an
 * operation whose example breaks its schema (`getBroken`), and padding.
 */
export async function largeDocument(): Promise<string> {
  const item = { $ref: '#/components/schemas/Item' };
  const paths: Record<string, unknown> = {
    '/items': {
      get: {
        operationId: 'listItems',
        responses: {
          '200': {
            description: 'Every item.',
            content: { 'application/json': { schema: { type: 'array', items: item } } },
          },
        },
      },
    },
    '/broken': {
      get: {
        operationId: 'getBroken',
        responses: {
          '200': {
            description: 'An answer whose example breaks its schema.',
            content: { 'application/json': { schema: item, example: { id: 'one', name: 2 } } },
          },
        },
      },
    },
  };
  // Counted as it grows: stringifying the whole object at each step took most of a second.
  let size = JSON.stringify(paths).length;
  for (let i = 0; size < EAGER_CHECK_BYTES * 1.2; i++) {
    const pad = {
      get: {
        operationId: `pad${i}`,
        description: 'Padding, to make the document large. '.repeat(10),
        responses: { '204': { description: 'Nothing.' } },
      },
    };
    paths[`/pad/${i}`] = pad;
    size += JSON.stringify(`/pad/${i}`).length + JSON.stringify(pad).length + 2;
  }
  const path = join(await tempFolder('large'), 'openapi.json');
  await writeFile(
    path,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Large', version: '1' },
      paths,
      components: {
        schemas: {
          Item: {
            type: 'object',
            required: ['id', 'name'],
            properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
          },
        },
      },
    }),
  );
  return path;
}

/**
 * startMock, its precompiling begun at once: the second it waits after start-up (for listening
 * to come first) is passed on a fake clock, not waited out; its turns after run on real timers.
 * @example const large = await startMockPrecompiling({ spec: await largeDocument() });
 */
export async function startMockPrecompiling(options: MockOptions): Promise<RunningMock> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const running = await startMock(options);
    vi.runOnlyPendingTimers();
    return running;
  } finally {
    vi.useRealTimers();
  }
}

/** A path the bundled spec lacks, added to the spec file: what a reload is seen by. */
export async function addHealth(file: string): Promise<void> {
  const document = parse(await readFile(file, 'utf8')) as OpenApiDocument;
  document.paths!['/health'] = {
    get: {
      operationId: 'health',
      security: [],
      responses: {
        '200': { description: 'Up.', content: { 'application/json': { example: { up: true } } } },
      },
    },
  };
  await writeFile(file, stringify(document));
}
