import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { stringify } from 'yaml';
import { createLogger, type Logger, type LoggerOptions } from '../src/http/logger.js';
import { EAGER_CHECK_BYTES } from '../src/core/create-mock.js';
import { loadSpec, type LoadedSpec, type OpenApiDocument } from '../src/openapi/load.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import type { Collection, CollectionDescriptor, Store, StoredRecord } from '../src/store/store.js';

export const KEY = 'test-key';

/**
 * A document a test writes out, as `openapi.json` in a temporary folder of its own: its path,
 * for what reads a spec from a file (startMock, loadSpec, the CLI).
 * @example startMock({ spec: await specFileOf({ openapi: '3.1.0', ... }) })
 */
export async function specFileOf(spec: object): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'petstore-kit-spec-')), 'openapi.json');
  await writeFile(file, JSON.stringify(spec));
  return file;
}
export const AUTH = { authorization: `Bearer ${KEY}` };

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
  const dir = await mkdtemp(join(tmpdir(), 'petstore-kit-spec-'));
  const path = join(dir, 'openapi.yaml');
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

/** What a `petstore-kit` command run in process printed, and the exit code it gave, if any. */
export interface CliRun {
  out: string;
  err: string;
  code: number | undefined;
}

/**
 * Runs `petstore-kit ...args` in process, as bin.ts runs it, collecting stdout and stderr: no
 * child process to spawn. The CLI is imported on first use, so files that never call this do
 * not load it.
 * @example const { out, err, code } = await runCli('types', '--spec', 'spec/openapi.yaml');
 */
export async function runCli(...args: string[]): Promise<CliRun> {
  const { createCli } = await import('../src/cli/cli.js');
  const collected = { out: '', err: '' };
  const sink = (into: 'out' | 'err') =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        collected[into] += chunk.toString();
        done();
      },
    });
  let code: number | undefined;
  await createCli({
    stdout: sink('out'),
    stderr: sink('err'),
    onExitCode: (exit) => (code = exit),
  }).parseAsync(['node', 'petstore-kit', ...args]);
  return { ...collected, code };
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
  for (let i = 0; JSON.stringify(paths).length < EAGER_CHECK_BYTES * 1.2; i++)
    paths[`/pad/${i}`] = {
      get: {
        operationId: `pad${i}`,
        description: 'Padding, to make the document large. '.repeat(10),
        responses: { '204': { description: 'Nothing.' } },
      },
    };
  const path = join(await mkdtemp(join(tmpdir(), 'petstore-kit-ahead-')), 'openapi.json');
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
