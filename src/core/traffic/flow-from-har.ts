// A recording becomes an Arazzo workflow: its calls in order, each value one answer gave to a
// later request written as the runtime expression that carries it (not the recorded value), and
// each step's success the status it got. A flow clicked through in a browser then runs as a test
// on the mock and on staging.
import type { Operation } from '../../openapi/operations.js';
import type { JudgeReading } from '../proxy/judge.js';
import { apiTargetOf, exchangeOf, isPreflight, type HarEntry, type HarExchange } from './har.js';

/** The Arazzo 1.0 document of a recorded flow, ready to be written as YAML or JSON. */
export interface RecordedFlow {
  arazzo: '1.0.1';
  info: { title: string; version: string; description: string };
  sourceDescriptions: { name: string; url: string; type: 'openapi' }[];
  workflows: {
    workflowId: string;
    description: string;
    steps: FlowStep[];
  }[];
}

interface FlowStep {
  stepId: string;
  description: string;
  operationId?: string;
  operationPath?: string;
  parameters?: { name: string; in: 'path' | 'query' | 'header'; value: unknown }[];
  requestBody?: {
    contentType: string;
    payload: unknown;
    replacements?: { target: string; value: string }[];
  };
  successCriteria: { condition: string }[];
  outputs?: Record<string, string>;
}

/** Where an earlier answer held a value: its step and the runtime expression that reads it. */
interface Source {
  step: FlowStep;
  expression: string;
  /** The output's name: the property (or header) it came from. */
  name: string;
}

export interface FlowOptions {
  /** The name of the only source description, as steps refer to it. */
  sourceName: string;
  /** Its URL as the Arazzo document names it (relative to where the flow is written). */
  sourceUrl: string;
  workflowId: string;
  /** The API's URL as recorded, base path included; default: under the description's base path. */
  baseUrl?: URL;
  basePath: string;
}

/**
 * The recorded calls to the described API as one workflow.
 * @example flowFromHar(reading, readHar(text), { sourceName: 'api', sourceUrl: 'api.yaml', workflowId: 'recorded', basePath: '/v1' })
 */
export function flowFromHar(
  reading: Pick<JudgeReading, 'route'>,
  entries: readonly HarEntry[],
  options: FlowOptions,
): RecordedFlow {
  const steps: FlowStep[] = [];
  /** Values earlier answers gave, newest last, by their JSON text. */
  const given = new Map<string, Source[]>();
  const names = new Map<string, number>();

  for (const [index, entry] of entries.entries()) {
    const exchange = exchangeOf(entry, index);
    const target = apiTargetOf(exchange.url, options.basePath, options.baseUrl);
    if (target === undefined || exchange.answer.status === 0) continue;
    if (isPreflight(exchange)) continue;
    const route = reading.route(exchange.request.method, target);
    if (route.kind !== 'operation') continue;
    const { operation, params } = route;
    const stepId = unique(names, operation.operationId);
    const step: FlowStep = {
      stepId,
      description: `${operation.method.toUpperCase()} ${options.basePath}${operation.path} → ${exchange.answer.status} (recorded)`,
      ...operationRef(operation, options),
      successCriteria: [{ condition: `$statusCode == ${exchange.answer.status}` }],
    };
    const parameters = parametersOf(operation, params, target, exchange, given);
    if (parameters.length > 0) step.parameters = parameters;
    const body = bodyOf(exchange, given);
    if (body) step.requestBody = body;
    steps.push(step);
    remember(step, exchange, given);
  }
  // Only the outputs a later step reads are kept.
  const read = new Set<string>();
  const collect = (value: unknown) => {
    const text = JSON.stringify(value) ?? '';
    for (const [, id, name] of text.matchAll(/\$steps\.([\w.-]+)\.outputs\.([\w.-]+)/g))
      read.add(`${id}\n${name}`);
  };
  for (const step of steps) {
    collect(step.parameters);
    collect(step.requestBody);
  }
  for (const step of steps) {
    if (!step.outputs) continue;
    const kept = Object.entries(step.outputs).filter(([name]) =>
      read.has(`${step.stepId}\n${name}`),
    );
    if (kept.length > 0) step.outputs = Object.fromEntries(kept);
    else delete step.outputs;
  }
  return {
    arazzo: '1.0.1',
    info: {
      title: `A recorded flow (${options.workflowId})`,
      version: '1.0.0',
      description: 'Written by petstore-kit workflow from-har from a recording of real traffic.',
    },
    sourceDescriptions: [{ name: options.sourceName, url: options.sourceUrl, type: 'openapi' }],
    workflows: [
      {
        workflowId: options.workflowId,
        description: `The ${steps.length} calls of the recording, in order, carrying the values each answer gave.`,
        steps,
      },
    ],
  };
}

/** `operationId` where the description gives one; else the path to the operation. */
function operationRef(
  operation: Operation,
  options: FlowOptions,
): Pick<FlowStep, 'operationId' | 'operationPath'> {
  if (operation.definition.operationId) return { operationId: operation.operationId };
  const pointer = `/paths/${operation.path.replaceAll('~', '~0').replaceAll('/', '~1')}/${operation.method}`;
  return { operationPath: `{$sourceDescriptions.${options.sourceName}.url}#${pointer}` };
}

function unique(names: Map<string, number>, base: string): string {
  const id = base.replace(/[^\w.-]/g, '_');
  const n = (names.get(id) ?? 0) + 1;
  names.set(id, n);
  return n === 1 ? id : `${id}-${n}`;
}

/** The step's path, query and header parameters the operation declares, a carried value as its expression. */
function parametersOf(
  operation: Operation,
  params: Readonly<Record<string, string>>,
  target: string,
  exchange: HarExchange,
  given: Map<string, Source[]>,
): NonNullable<FlowStep['parameters']> {
  const query = new URLSearchParams(
    target.includes('?') ? target.slice(target.indexOf('?') + 1) : '',
  );
  const out: NonNullable<FlowStep['parameters']> = [];
  const declared = new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  for (const parameter of operation.parameters) {
    if (parameter.in === 'cookie' || parameter.in === 'querystring') continue;
    let value: string | undefined;
    if (parameter.in === 'path') value = params[parameter.name];
    else if (parameter.in === 'query') value = query.get(parameter.name) ?? undefined;
    else {
      const header = exchange.request.headers[parameter.name.toLowerCase()];
      value = typeof header === 'string' ? header : undefined;
    }
    if (value === undefined) continue;
    const carried =
      parameter.in === 'path' || idLike(parameter.name) ? carriedBy(value, given) : undefined;
    out.push({ name: parameter.name, in: parameter.in, value: carried ?? value });
  }
  // Query parameters the operation does not declare were sent too: kept as recorded, credentials aside.
  for (const [name, value] of query)
    if (!declared.has(name) && !operation.credentialsInQuery.includes(name))
      out.push({ name, in: 'query', value });
  return out;
}

/** A JSON body with every id-like value an earlier answer gave replaced by its expression. */
function bodyOf(exchange: HarExchange, given: Map<string, Source[]>): FlowStep['requestBody'] {
  const { body } = exchange.request;
  if (!body || body.length === 0) return undefined;
  const contentType =
    headerText(exchange.request.headers['content-type']) ?? 'application/octet-stream';
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    return { contentType, payload: body.toString('utf8') };
  }
  const replacements: { target: string; value: string }[] = [];
  walk(payload, '', (pointer, key, value) => {
    if (!idLike(key) && !idLike(pointer)) return;
    const carried = carriedBy(value, given);
    if (carried) replacements.push({ target: pointer, value: carried });
  });
  return { contentType, payload, ...(replacements.length > 0 ? { replacements } : {}) };
}

/**
 * Notes the id-like values of an answer's JSON body for later steps. (An id only a Location
 * header gives is left as recorded: a runtime expression reads a header whole, not a segment.)
 */
function remember(step: FlowStep, exchange: HarExchange, given: Map<string, Source[]>): void {
  // Only what a success gave is carried: an error's `code` names no record.
  if (exchange.answer.status < 200 || exchange.answer.status >= 300) return;
  const add = (value: unknown, name: string, expression: string) => {
    if (typeof value !== 'string' && typeof value !== 'number') return;
    if (typeof value === 'string' && value.length === 0) return;
    const key = JSON.stringify(String(value));
    const output = name.replace(/[^\w.-]/g, '_') || 'value';
    (step.outputs ??= {})[output] = expression;
    const sources = given.get(key) ?? [];
    sources.push({ step, expression, name: output });
    given.set(key, sources);
  };
  const { body } = exchange.answer;
  if (!body || body.length === 0) return;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return;
  }
  // An output per place, named by its pointer (`id`, `0_id`, `data_2_id`): a list gives many.
  walk(value, '', (pointer, key) => {
    if (idLike(key))
      add(
        valueAt(value, pointer),
        pointer.slice(1).replaceAll('/', '_'),
        `$response.body#${pointer}`,
      );
  });
}

/** The expression of the first step whose answer gave this value, if one did. */
function carriedBy(value: unknown, given: Map<string, Source[]>): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const sources = given.get(JSON.stringify(String(value)));
  // The first answer that gave it is where it came from; later ones echo it.
  const source = sources?.[0];
  if (!source) return undefined;
  return `$steps.${source.step.stepId}.outputs.${source.name}`;
}

/** A name that says it holds an identifier: `id`, `petId`, `order_id`, `uuid`, `slug`, `key`, `code` (not `name`: two records may share one). */
function idLike(name: string): boolean {
  const last = name.split('/').pop() ?? name;
  return (
    /^(id|uuid|guid|slug|key|code)$/i.test(last) ||
    /(Id|_id|-id|ID|Uuid|_uuid|Key|_key|Code)$/.test(last)
  );
}

function walk(
  value: unknown,
  pointer: string,
  visit: (pointer: string, key: string, value: unknown) => void,
): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, `${pointer}/${i}`, visit));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value)) {
    const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (item !== null && typeof item === 'object') walk(item, at, visit);
    else visit(at, key, item);
  }
}

function valueAt(value: unknown, pointer: string): unknown {
  let at = value;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    at = (at as Record<string, unknown> | null)?.[key];
  }
  return at;
}

function headerText(value: string | readonly string[] | undefined): string | undefined {
  return value === undefined || typeof value === 'string' ? value : value.join(', ');
}
