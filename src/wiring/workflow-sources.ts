import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Mock } from '../core/create-mock.js';
import type { ReadArazzo } from '../core/workflow/arazzo-read.js';
import type { RunnerSource } from '../core/workflow/workflow-runner.js';
import { loadSpec, type LoadedSpec } from '../openapi/load.js';
import { listOperations } from '../openapi/operations.js';
import { securitySchemesOf } from '../openapi/security-schemes.js';
import { resolveServerUrl } from '../openapi/servers.js';
import { StartupError } from '../vocabulary/errors.js';
import { createApp } from './create-app.js';

/** Where a workflow run sends each source's requests. */
export interface SourceTargets {
  /** Base URLs by source name (`--server <sourceName>=<url>`). */
  servers?: Readonly<Record<string, string>>;
  /** The base URL of the one source (`--base-url`). */
  baseUrl?: string | undefined;
  /**
   * Run against a fresh mock of each source, in the process (`--mock`): no socket, the mock's
   * `fetch`. A function is given each source's mock (to run against a mock that already exists).
   */
  mock?: boolean | ((name: string, spec: LoadedSpec) => Mock | undefined);
  /** The keys the judge and the mock accept: the user's credentials, as the mock's `apiKeys` reads them. */
  apiKeys?: readonly string[];
}

/** A source description that cannot be used; its message is one line. */
class WorkflowSourceError extends StartupError {
  override name = 'WorkflowSourceError';
}

/**
 * Reads the OpenAPI source descriptions of an Arazzo document (paths from the document's
 * folder, or URLs) and makes each a source the runner calls: its operations, the reading that
 * judges its exchanges, its base URL and how its requests are sent.
 * @throws {WorkflowSourceError} when a source cannot be read or has no base URL.
 */
export async function workflowSources(
  read: ReadArazzo,
  targets: SourceTargets,
): Promise<{ sources: RunnerSource[]; mocks: Map<string, Mock> }> {
  const openapi = read.document.sourceDescriptions.filter(
    (source) => source.type === undefined || source.type === 'openapi',
  );
  if (targets.baseUrl !== undefined && openapi.length !== 1)
    throw new WorkflowSourceError(
      `--base-url is for a document with one source description; this one has ${openapi.length}: give --server <sourceName>=<url> for each`,
    );
  for (const name of Object.keys(targets.servers ?? {}))
    if (!openapi.some((source) => source.name === name))
      throw new WorkflowSourceError(
        `--server ${name}=... names no OpenAPI source description (the document's: ${openapi.map((source) => source.name).join(', ')})`,
      );
  const sources: RunnerSource[] = [];
  const mocks = new Map<string, Mock>();
  for (const description of openapi) {
    const local = await localPathOf(description.url, read.file);
    const spec = await loadSpec(local.path)
      .catch((err: unknown) => {
        throw new WorkflowSourceError(
          `source description ${description.name} (${description.url}): ${err instanceof Error ? err.message : String(err)}`,
        );
      })
      .finally(local.done);
    const given =
      typeof targets.mock === 'function' ? targets.mock(description.name, spec) : undefined;
    // Only a mock that serves is seeded: the one that judges a deployment's answers holds no records.
    const mock =
      given ??
      createApp({
        spec,
        ...(targets.mock ? {} : { seedCount: 0 }),
        ...(targets.apiKeys?.length ? { apiKeys: [...targets.apiKeys] } : {}),
      }).mock;
    const inProcess = given !== undefined || targets.mock === true;
    if (inProcess) mocks.set(description.name, mock);
    const baseUrl = inProcess
      ? `http://${description.name}.mock${mock.basePath}`
      : (targets.servers?.[description.name] ??
        targets.baseUrl ??
        serverOf(spec, description.name));
    sources.push({
      name: description.name,
      url: description.url,
      operations: listOperations(spec.resolved),
      schemes: securitySchemesOf(spec.resolved),
      baseUrl,
      basePath: mock.basePath,
      reading: mock,
      send: inProcess
        ? (request) => mock.fetch(request)
        : (request) => fetch(request, { redirect: 'manual' } as RequestInit),
    });
  }
  return { sources, mocks };
}

/** The first server of a description, its variables at their defaults. */
function serverOf(spec: LoadedSpec, name: string): string {
  const server = spec.resolved.servers?.[0];
  const url = server ? resolveServerUrl(server) : undefined;
  if (!url || !/^https?:\/\//.test(url))
    throw new WorkflowSourceError(
      `source description ${name} names no absolute server URL: give --server ${name}=<url>${spec.resolved.servers ? '' : ' (or --base-url)'}`,
    );
  return url;
}

/**
 * A source's URL as a file to read: relative to the Arazzo document, or downloaded into a
 * temporary folder that `done` removes once it is read.
 */
async function localPathOf(
  url: string,
  arazzoFile: string,
): Promise<{ path: string; done: () => Promise<void> }> {
  const kept = async () => undefined;
  if (/^https?:\/\//.test(url)) {
    const response = await fetch(url, { signal: AbortSignal.timeout(30_000) }).catch(
      (err: unknown) => {
        throw new WorkflowSourceError(`cannot download ${url}: ${(err as Error).message}`);
      },
    );
    if (!response.ok) throw new WorkflowSourceError(`cannot download ${url}: ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    const folder = await mkdtemp(join(tmpdir(), 'petstore-kit-source-'));
    const file = join(folder, /\.json(\?|$)/.test(url) ? 'source.json' : 'source.yaml');
    const done = () => rm(folder, { recursive: true, force: true });
    await writeFile(file, body).catch(async (err: unknown) => {
      await done();
      throw err;
    });
    return { path: file, done };
  }
  if (url.startsWith('file:')) return { path: fileURLToPath(url), done: kept };
  return { path: isAbsolute(url) ? url : resolve(dirname(arazzoFile), url), done: kept };
}
