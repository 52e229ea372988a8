import type { OpenAPIV3_1 } from 'openapi-types';
import type { OpenApiDocument } from '../openapi/load.js';
import { listOperations, type Operation } from '../openapi/operations.js';
import { basePathOf } from '../openapi/servers.js';
import { inside, report, type Change, type DiffRun, type Where } from './change.js';
import { diffOperation, type OperationSide, type Parts } from './operation-diff.js';
import { defaultLevels, LEVELS, type Level } from './rules.js';
import { diffSecurity } from './security-diff.js';

type PathItem = OpenAPIV3_1.PathItemObject;
type ParameterObject = OpenAPIV3_1.ParameterObject;

const OPERATION_PARTS: Parts = { request: 'request', response: 'response' };
const CALLBACK_PARTS: Parts = { request: 'callback-request', response: 'callback-response' };
const WEBHOOK_PARTS: Parts = { request: 'webhook-request', response: 'webhook-response' };

/**
 * Every change from `old` to `now`, two resolved documents (`LoadedSpec.resolved`) of the same
 * API, in the order found, breaking ones first. `levels` replaces the default level of rules.
 * @example diffDocuments(oldSpec.resolved, newSpec.resolved).filter((c) => c.level === 'breaking')
 */
export function diffDocuments(
  old: OpenApiDocument,
  now: OpenApiDocument,
  levels: ReadonlyMap<string, Level> = new Map(),
): Change[] {
  const run: DiffRun = {
    changes: [],
    levels: new Map([...defaultLevels(), ...levels]),
    alike: { api: new Map(), client: new Map() },
  };
  diffBasePath(run, old, now);
  diffPaths(run, old, now);
  diffWebhooks(run, old, now);
  const rank = (change: Change) => LEVELS.indexOf(change.level);
  return run.changes
    .map((change, index) => ({ change, index }))
    .sort((a, b) => rank(a.change) - rank(b.change) || a.index - b.index)
    .map(({ change }) => change);
}

/** The path the API is served under; servers that do not parse count as the root. */
function basePath(document: OpenApiDocument): string {
  try {
    return basePathOf(document, () => undefined) || '/';
  } catch {
    return '/';
  }
}

function diffBasePath(run: DiffRun, old: OpenApiDocument, now: OpenApiDocument): void {
  const before = basePath(old);
  const after = basePath(now);
  if (before !== after)
    report(
      run,
      'base-path-changed',
      { operation: undefined, path: ['servers'] },
      `every operation moved from under ${before} to under ${after}`,
    );
}

/** A path template with its parameters' names left out: `/pets/{}` for `/pets/{petId}`. */
function templateOf(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}

/** The operations of one path item, with the security the document gives them. */
function operationsOf(
  document: OpenApiDocument,
  key: string,
  item: PathItem,
  security: OpenApiDocument['security'],
): Map<string, Operation> {
  // Resolved already: the components are not needed, and schemes the mock could not enforce
  // are no reason to refuse a diff.
  const single = {
    openapi: document.openapi,
    info: document.info,
    security,
    paths: { [key]: item },
  };
  return new Map(
    listOperations(single as OpenApiDocument).map((operation) => [operation.method, operation]),
  );
}

/**
 * Each old path and its new counterpart: the same path, else the one new path of the same
 * template that the old document does not have (a path parameter renamed).
 */
function matchPaths(old: OpenApiDocument, now: OpenApiDocument): Map<string, string> {
  const oldKeys = Object.keys(old.paths ?? {});
  const newKeys = Object.keys(now.paths ?? {});
  const unmatched = newKeys.filter((key) => !oldKeys.includes(key));
  const matches = new Map<string, string>();
  for (const key of oldKeys) {
    if (newKeys.includes(key)) {
      matches.set(key, key);
      continue;
    }
    const renamed = unmatched.filter((candidate) => templateOf(candidate) === templateOf(key));
    const [only] = renamed;
    if (only !== undefined && renamed.length === 1) {
      matches.set(key, only);
      unmatched.splice(unmatched.indexOf(only), 1);
    }
  }
  return matches;
}

function diffPaths(run: DiffRun, old: OpenApiDocument, now: OpenApiDocument): void {
  const matches = matchPaths(old, now);
  for (const [key, item] of Object.entries(old.paths ?? {})) {
    const newKey = matches.get(key);
    if (newKey === undefined) {
      report(run, 'path-removed', { operation: key, path: ['paths', key] }, `path ${key} removed`);
      continue;
    }
    diffPathItem(
      run,
      OPERATION_PARTS,
      ['paths', newKey],
      (method) => `${method.toUpperCase()} ${newKey}`,
      {
        old: { document: old, key, item: item ?? {}, security: old.security },
        now: {
          document: now,
          key: newKey,
          item: now.paths?.[newKey] ?? {},
          security: now.security,
        },
      },
    );
  }
  const matched = new Set(matches.values());
  for (const key of Object.keys(now.paths ?? {}))
    if (!matched.has(key))
      report(run, 'path-added', { operation: key, path: ['paths', key] }, `path ${key} added`);
}

function diffWebhooks(run: DiffRun, old: OpenApiDocument, now: OpenApiDocument): void {
  const before = (old.webhooks ?? {}) as Record<string, PathItem>;
  const after = (now.webhooks ?? {}) as Record<string, PathItem>;
  for (const [name, item] of Object.entries(before)) {
    if (!after[name]) {
      report(
        run,
        'webhook-removed',
        { operation: `webhook ${name}`, path: ['webhooks', name] },
        `webhook ${name} removed: the API no longer sends it`,
      );
      continue;
    }
    diffPathItem(
      run,
      WEBHOOK_PARTS,
      ['webhooks', name],
      (method) => `webhook ${name} ${method.toUpperCase()}`,
      {
        old: { document: old, key: name, item, security: [] },
        now: { document: now, key: name, item: after[name], security: [] },
      },
    );
  }
  for (const name of Object.keys(after))
    if (!before[name])
      report(
        run,
        'webhook-added',
        { operation: `webhook ${name}`, path: ['webhooks', name] },
        `webhook ${name} added: clients receive a request they were not written for`,
      );
}

interface PathItemSide {
  readonly document: OpenApiDocument;
  readonly key: string;
  readonly item: PathItem;
  readonly security: OpenApiDocument['security'];
}

/** The operations of a path item (a path's, a webhook's or a callback's) on both sides. */
function diffPathItem(
  run: DiffRun,
  parts: Parts,
  path: readonly (string | number)[],
  label: (method: string) => string,
  sides: { old: PathItemSide; now: PathItemSide },
): void {
  const { old, now } = sides;
  const before = operationsOf(old.document, old.key, old.item, old.security);
  const after = operationsOf(now.document, now.key, now.item, now.security);
  const inCallback = parts !== OPERATION_PARTS;
  const removed =
    parts === WEBHOOK_PARTS
      ? 'webhook-removed'
      : inCallback
        ? 'callback-removed'
        : 'operation-removed';
  const added =
    parts === WEBHOOK_PARTS ? 'webhook-added' : inCallback ? 'callback-added' : 'operation-added';
  for (const [method, operation] of before) {
    const where: Where = { operation: label(method), path: [...path, method] };
    const counterpart = after.get(method);
    if (!counterpart) {
      report(run, removed, where, `${label(method)} removed`);
      continue;
    }
    const side = (item: PathItem, operation: Operation): OperationSide => ({
      operation,
      pathParameters: (item.parameters ?? []) as ParameterObject[],
    });
    diffOperation(run, parts, where, side(old.item, operation), side(now.item, counterpart));
    if (!inCallback)
      diffSecurity(
        run,
        inside(where, 'security'),
        {
          requirements: operation.security,
          document: old.document,
        },
        { requirements: counterpart.security, document: now.document },
      );
    diffCallbacks(run, where, old.document, now.document, operation, counterpart);
  }
  for (const method of after.keys())
    if (!before.has(method))
      report(
        run,
        added,
        { operation: label(method), path: [...path, method] },
        `${label(method)} added`,
      );
}

type Callbacks = Record<string, Record<string, PathItem>>;

/** The requests an operation makes the API send: the client reads them, the API its answers. */
function diffCallbacks(
  run: DiffRun,
  where: Where,
  oldDocument: OpenApiDocument,
  newDocument: OpenApiDocument,
  old: Operation,
  now: Operation,
): void {
  const before = (old.definition.callbacks ?? {}) as Callbacks;
  const after = (now.definition.callbacks ?? {}) as Callbacks;
  const label = (name: string, expression: string) => (method: string) =>
    `${where.operation ?? ''} callback ${name}: ${method.toUpperCase()} ${expression}`;
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const oldCallback = before[name] ?? {};
    const newCallback = after[name] ?? {};
    for (const expression of new Set([...Object.keys(oldCallback), ...Object.keys(newCallback)])) {
      const path = [...where.path, 'callbacks', name, expression];
      diffPathItem(run, CALLBACK_PARTS, path, label(name, expression), {
        old: {
          document: oldDocument,
          key: expression,
          item: oldCallback[expression] ?? {},
          security: [],
        },
        now: {
          document: newDocument,
          key: expression,
          item: newCallback[expression] ?? {},
          security: [],
        },
      });
    }
  }
}
