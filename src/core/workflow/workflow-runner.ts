import { Ajv2020 } from 'ajv/dist/2020.js';
import { essenceOf, isJsonMediaType } from '../../openapi/media-types.js';
import { type Operation } from '../../openapi/operations.js';
import type { SecurityScheme } from '../../openapi/security-schemes.js';
import { judgeExchange, type JudgeReading } from '../proxy/judge.js';
import {
  isReusable,
  type ActionObject,
  type ArazzoDocument,
  type OutputValue,
  type ParameterObject,
  type ReusableObject,
  type Step,
  type Workflow,
} from './arazzo-types.js';
import { judgeCriterion, type CriterionResult } from './criteria.js';
import { valueAt } from '../../openapi/json-pointer.js';
import { isJsonObject } from '../../vocabulary/record.js';
import { findOperation, type SourceApi } from './operation-lookup.js';
import type { ExpressionScope, MessageValues } from './runtime-expression.js';
import { buildStepRequest, valueOfParameter, type Credentials } from './step-request.js';

/** A source description as the runner calls it. */
export interface RunnerSource extends SourceApi {
  /** Where its requests go: the server URL, base path included (`https://staging.example.com/v1`). */
  baseUrl: string;
  /** The base path the judge's reading serves under (`/v1`), which the judged target starts with. */
  basePath: string;
  /** The reading of its description that judges every exchange (a mock's: `createApp(...).mock`). */
  reading: JudgeReading;
  schemes: ReadonlyMap<string, SecurityScheme>;
  /** Sends a request: `fetch` for a deployment, the mock's `fetch` for `--mock`. */
  send: (request: Request) => Promise<Response>;
}

export interface RunOptions {
  document: ArazzoDocument;
  sources: readonly RunnerSource[];
  /** The inputs given, by name; each workflow takes those its `inputs` schema names. */
  inputs?: Readonly<Record<string, unknown>>;
  credentials?: Credentials;
  /** The workflows to run (default: every one). */
  workflowIds?: readonly string[];
  /** How long a step's request may take, when the step sets no `timeout`. */
  timeoutMs?: number;
  /** Waits before a retry (tests pass one that does not wait). */
  sleep?: (ms: number) => Promise<void>;
}

/** What one run of a step did. */
export interface StepReport {
  stepId: string;
  /** 1 for the first run of the step, 2 for its first retry... */
  attempt: number;
  kind: 'operation' | 'workflow' | 'skipped';
  /** `createPet (POST /pets)`, or the workflow it calls. */
  target: string;
  request?: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string | undefined;
  };
  response?: { status: number; headers: Record<string, string>; body: unknown };
  criteria: CriterionResult[];
  /** What the request and the answer break of the description (the contract suite's judge). */
  breaches: { request: string[]; answer: string[] };
  outputs: Record<string, unknown>;
  passed: boolean;
  /** Why it failed beyond its criteria, or why it was skipped. */
  note?: string | undefined;
  /** The action taken after it: `next`, `end`, `goto step x`, `retry in 1 s`... */
  action: string;
  /** The run of the workflow a workflow step calls. */
  called?: WorkflowReport | undefined;
  durationMs: number;
}

export interface WorkflowReport {
  workflowId: string;
  /** passed; failed (a step failed, or an answer broke the description); error (could not run). */
  outcome: 'passed' | 'failed' | 'error';
  steps: StepReport[];
  outputs: Record<string, unknown>;
  /** Why it failed or could not run, in one line. */
  reason?: string | undefined;
  durationMs: number;
}

/** Steps a workflow may run (gotos and retries included) before it is taken for a loop. */
const MAX_STEP_RUNS = 1000;
/** How deep workflows may call workflows. */
const MAX_DEPTH = 32;

/**
 * Runs the workflows of an Arazzo document against its sources: each step's request built from
 * its parameters and body, sent, its answer judged by its success criteria and against the
 * source's OpenAPI description, its outputs carried on, its actions followed.
 * @example const reports = await runWorkflows({ document, sources });
 */
export async function runWorkflows(options: RunOptions): Promise<WorkflowReport[]> {
  const runner = new Runner(options);
  const ids =
    options.workflowIds ?? options.document.workflows.map((workflow) => workflow.workflowId);
  const reports: WorkflowReport[] = [];
  for (const id of ids) reports.push(await runner.workflowOnce(id));
  return reports;
}

class Runner {
  /** Workflows already run, by id, for `dependsOn` and `$workflows.<id>`. */
  private readonly done = new Map<string, WorkflowReport & { inputs: Record<string, unknown> }>();
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: RunOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Workflows run with the given inputs (at the top level, or as a dependency): each runs once. */
  private readonly reportsWithInputs = new Map<string, WorkflowReport>();

  /** A workflow run at the top level: once, its dependencies first. */
  async workflowOnce(id: string): Promise<WorkflowReport> {
    const known = this.reportsWithInputs.get(id);
    if (known) return known;
    const report = await this.runWorkflow(id, this.options.inputs ?? {}, 0);
    this.reportsWithInputs.set(id, report);
    return report;
  }

  private workflowOf(id: string): Workflow | undefined {
    return this.options.document.workflows.find((workflow) => workflow.workflowId === id);
  }

  private async runWorkflow(
    id: string,
    given: Readonly<Record<string, unknown>>,
    depth: number,
  ): Promise<WorkflowReport> {
    const started = Date.now();
    const steps: StepReport[] = [];
    const end = (
      outcome: WorkflowReport['outcome'],
      reason?: string,
      outputs: Record<string, unknown> = {},
    ) => {
      const report: WorkflowReport = {
        workflowId: id,
        outcome,
        steps,
        outputs,
        reason,
        durationMs: Date.now() - started,
      };
      this.done.set(id, { ...report, inputs });
      return report;
    };
    let inputs: Record<string, unknown> = {};
    const workflow = this.workflowOf(id);
    if (!workflow) return end('error', `the document has no workflow "${id}"`);
    if (depth > MAX_DEPTH)
      return end('error', `workflows call each other deeper than ${MAX_DEPTH}`);
    for (const dependency of workflow.dependsOn ?? []) {
      let report = this.reportsWithInputs.get(dependency);
      if (!report) {
        report = await this.runWorkflow(dependency, this.options.inputs ?? {}, depth + 1);
        this.reportsWithInputs.set(dependency, report);
      }
      if (report.outcome !== 'passed')
        return end(
          report.outcome === 'error' ? 'error' : 'failed',
          `it depends on ${dependency}, which ${report.outcome}`,
        );
    }
    const read = this.inputsOf(workflow, given);
    if (typeof read === 'string') return end('error', read);
    inputs = read;

    const stepOutputs: Record<string, { outputs: Record<string, unknown> }> = {};
    const scopeBase = (): ExpressionScope => ({
      inputs,
      outputs: {},
      steps: stepOutputs,
      workflows: Object.fromEntries(
        [...this.done].map(([key, value]) => [
          key,
          { inputs: value.inputs, outputs: value.outputs },
        ]),
      ),
      sourceDescriptions: Object.fromEntries(
        this.options.document.sourceDescriptions.map((source) => [source.name, source]),
      ),
      components: (this.options.document.components ?? {}) as Record<string, unknown>,
    });

    let index = 0;
    let runs = 0;
    const attempts = new Map<string, number>();
    let breached = false;
    while (index < workflow.steps.length) {
      if (++runs > MAX_STEP_RUNS)
        return end('failed', `stopped after ${MAX_STEP_RUNS} steps: its gotos or retries loop`);
      const step = workflow.steps[index];
      if (!step) break;
      const attempt = (attempts.get(step.stepId) ?? 0) + 1;
      attempts.set(step.stepId, attempt);
      const { report, scope } = await this.runStep(workflow, step, attempt, scopeBase(), depth);
      steps.push(report);
      if (report.kind === 'skipped') {
        report.action = 'next';
        index++;
        continue;
      }
      if (report.breaches.answer.length > 0) breached = true;
      stepOutputs[step.stepId] = { outputs: report.outputs };
      const kind = report.passed ? 'successActions' : 'failureActions';
      const action = this.chooseAction(workflow, step, kind, scope);
      if (typeof action === 'string') {
        report.action = 'end';
        return end('error', action);
      }
      if (!action) {
        if (!report.passed) {
          report.action = 'end';
          return end('failed', `step ${step.stepId} failed: ${failureOf(report)}`);
        }
        report.action = 'next';
        index++;
        continue;
      }
      if (action.type === 'end') {
        report.action = `end (${action.name})`;
        if (!report.passed)
          return end('failed', `step ${step.stepId} failed: ${failureOf(report)}`);
        break;
      }
      if (action.type === 'retry') {
        const limit = action.retryLimit ?? 1;
        if (attempt > limit) {
          report.action = `end: ${limit} retries spent (${action.name})`;
          return end(
            'failed',
            `step ${step.stepId} failed after ${limit} retries: ${failureOf(report)}`,
          );
        }
        const seconds = action.retryAfter ?? 0;
        report.action = `retry in ${seconds} s (${action.name})`;
        if (seconds > 0) await this.sleep(seconds * 1000);
        // 1.0 has a retry name the step (or workflow) to run before the step is tried again.
        if (action.workflowId !== undefined) {
          const before = await this.runWorkflow(
            action.workflowId,
            this.parameterInputs(action.parameters, scope),
            depth + 1,
          );
          if (before.outcome !== 'passed')
            return end(
              before.outcome,
              `${action.workflowId}, run before retrying ${step.stepId}, ${before.outcome}: ${before.reason ?? ''}`,
            );
        } else if (action.stepId !== undefined && action.stepId !== step.stepId) {
          const target = workflow.steps.findIndex(
            (candidate) => candidate.stepId === action.stepId,
          );
          if (target === -1) return end('error', `step ${action.stepId} is not a step of ${id}`);
          index = target;
        }
        continue;
      }
      // goto
      if (action.stepId !== undefined) {
        const target = workflow.steps.findIndex((candidate) => candidate.stepId === action.stepId);
        report.action = `goto step ${action.stepId} (${action.name})`;
        if (target === -1) return end('error', `step ${action.stepId} is not a step of ${id}`);
        index = target;
        continue;
      }
      const targetId = action.workflowId ?? '';
      report.action = `goto workflow ${targetId} (${action.name})`;
      const called = await this.runWorkflow(
        targetId,
        this.parameterInputs(action.parameters, scope),
        depth + 1,
      );
      if (called.outcome !== 'passed')
        return end(
          called.outcome,
          `${targetId}, which step ${step.stepId} went to, ${called.outcome}: ${called.reason ?? ''}`,
        );
      break;
    }
    if (breached) {
      const names = steps
        .filter((step) => step.breaches.answer.length > 0)
        .map((step) => step.stepId);
      return end(
        'failed',
        `the answers of ${[...new Set(names)].join(', ')} break the description`,
      );
    }
    const outputs = this.outputsOf(workflow.outputs, { ...scopeBase() });
    if (typeof outputs === 'string') return end('failed', outputs);
    return end('passed', undefined, outputs);
  }

  /** The inputs a workflow takes, checked against its schema, its defaults filled. */
  private inputsOf(
    workflow: Workflow,
    given: Readonly<Record<string, unknown>>,
  ): Record<string, unknown> | string {
    if (!workflow.inputs) return { ...given };
    let schema: unknown;
    try {
      schema = inlineReferences(workflow.inputs, this.options.document, []);
    } catch (err) {
      return (err as Error).message;
    }
    const properties =
      isJsonObject(schema) && isJsonObject(schema.properties)
        ? Object.keys(schema.properties)
        : undefined;
    const inputs: Record<string, unknown> = properties
      ? Object.fromEntries(Object.entries(given).filter(([key]) => properties.includes(key)))
      : { ...given };
    try {
      const validate = new Ajv2020({
        strict: false,
        useDefaults: true,
        coerceTypes: true,
        allErrors: true,
        validateFormats: false,
        logger: false,
      }).compile(schema as object);
      if (!validate(inputs)) {
        const first = validate.errors?.[0];
        const where = first?.instancePath ? `input ${first.instancePath.slice(1)}` : 'the inputs';
        return `${where} ${first?.message ?? 'do not fit'} (give it with --input name=value or --inputs file.json)`;
      }
    } catch (err) {
      return `its inputs schema cannot be read: ${(err as Error).message}`;
    }
    return inputs;
  }

  private async runStep(
    workflow: Workflow,
    step: Step,
    attempt: number,
    base: ExpressionScope,
    depth: number,
  ): Promise<{ report: StepReport; scope: ExpressionScope }> {
    const started = Date.now();
    const report: StepReport = {
      stepId: step.stepId,
      attempt,
      kind: 'operation',
      target: '',
      criteria: [],
      breaches: { request: [], answer: [] },
      outputs: {},
      passed: false,
      action: '',
      durationMs: 0,
    };
    const finish = (scope: ExpressionScope) => {
      report.durationMs = Date.now() - started;
      return { report, scope };
    };
    if (step.channelPath !== undefined || step.action !== undefined || this.isAsyncStep(step)) {
      report.kind = 'skipped';
      report.target = step.operationId ?? step.channelPath ?? '';
      report.passed = true;
      report.note = 'an AsyncAPI step: this runner calls HTTP operations only';
      return finish(base);
    }
    const parameters = this.parametersOf(workflow, step, base);
    if (typeof parameters === 'string') {
      report.note = parameters;
      return finish(base);
    }

    if (step.workflowId !== undefined) {
      report.kind = 'workflow';
      report.target = step.workflowId;
      const childInputs = Object.fromEntries(
        parameters.map((parameter) => [parameter.name, safeValue(parameter.value, base)]),
      );
      const called = await this.runWorkflow(step.workflowId, childInputs, depth + 1);
      report.called = called;
      // The called workflow's last exchange is what `$statusCode` and `$response` read here.
      const last = [...called.steps].reverse().find((report) => report.response);
      const scope: ExpressionScope = {
        ...base,
        outputs: called.outputs,
        ...(last?.response
          ? {
              statusCode: last.response.status,
              response: { headers: last.response.headers, body: last.response.body },
              url: last.request?.url,
              method: last.request?.method,
            }
          : {}),
      };
      if (called.outcome !== 'passed') {
        report.note = `${step.workflowId} ${called.outcome}: ${called.reason ?? ''}`;
        return finish(scope);
      }
      return finish(this.judgeStep(step, report, scope));
    }

    const lookup = findOperation(step, this.options.sources);
    if (!lookup.found) {
      report.note = `${lookup.message}${lookup.hint ? ` (${lookup.hint})` : ''}`;
      return finish(base);
    }
    const source = lookup.source as RunnerSource;
    const operation: Operation = lookup.operation;
    report.target =
      `${operation.definition.operationId ?? ''} (${operation.method.toUpperCase()} ${operation.path})`.trim();
    let built;
    try {
      built = buildStepRequest(operation, parameters, step.requestBody, base, {
        schemes: source.schemes,
        credentials: this.options.credentials ?? {},
      });
    } catch (err) {
      report.note = `its request cannot be built: ${(err as Error).message}`;
      return finish(base);
    }
    const url = `${source.baseUrl.replace(/\/+$/, '')}${built.pathAndQuery}`;
    report.request = {
      method: built.method,
      url,
      headers: masked(built.headers, built.secrets),
      body: built.body,
    };
    let response: Response;
    let bytes: Buffer;
    const timeoutMs = (step as { timeout?: number }).timeout ?? this.options.timeoutMs ?? 30_000;
    try {
      response = await source.send(
        new Request(url, {
          method: built.method,
          headers: built.headers,
          ...(built.body === undefined ? {} : { body: built.body }),
          signal: AbortSignal.timeout(timeoutMs),
        }),
      );
      bytes = Buffer.from(await response.arrayBuffer());
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      report.note = `no answer from ${url}: ${(err as Error).name === 'TimeoutError' ? `none within ${timeoutMs} ms` : (cause ?? (err as Error).message)}`;
      return finish({ ...base, url, method: built.method, request: built.values });
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const answer: MessageValues = { headers, body: bodyValueOf(bytes, headers['content-type']) };
    report.response = { status: response.status, headers, body: answer.body };
    const judged = await judgeExchange(source.reading, {
      request: {
        method: built.method,
        target: `${source.basePath}${built.pathAndQuery}`,
        headers: built.headers,
        body: built.body === undefined ? undefined : Buffer.from(built.body),
      },
      answer: { method: built.method, status: response.status, headers, body: bytes },
    });
    report.breaches = {
      request: judged.request.map((breach) => `${breach.rule}: ${breach.message}`),
      answer: judged.answer.map((breach) => `${breach.rule}: ${breach.message}`),
    };
    const scope: ExpressionScope = {
      ...base,
      url,
      method: built.method,
      statusCode: response.status,
      request: built.values,
      response: answer,
    };
    return finish(this.judgeStep(step, report, scope));
  }

  /** Judges a step's criteria and reads its outputs. */
  private judgeStep(step: Step, report: StepReport, scope: ExpressionScope): ExpressionScope {
    report.criteria = (step.successCriteria ?? []).map((criterion) =>
      judgeCriterion(criterion, scope),
    );
    report.passed = report.criteria.every((result) => result.passed);
    const outputs = this.outputsOf(step.outputs, scope);
    if (typeof outputs === 'string') {
      report.passed = false;
      report.note = outputs;
    } else report.outputs = outputs;
    return scope;
  }

  private outputsOf(
    outputs: Record<string, OutputValue> | undefined,
    scope: ExpressionScope,
  ): Record<string, unknown> | string {
    const values: Record<string, unknown> = {};
    for (const [name, expression] of Object.entries(outputs ?? {})) {
      try {
        values[name] = valueOfParameter(expression, scope);
      } catch (err) {
        return `output ${name} cannot be read: ${(err as Error).message}`;
      }
    }
    return values;
  }

  private isAsyncStep(step: Step): boolean {
    const asyncNames = this.options.document.sourceDescriptions
      .filter((source) => source.type === 'asyncapi')
      .map((source) => source.name);
    const id = step.operationId;
    if (asyncNames.length === 0 || id === undefined) return false;
    if (asyncNames.some((name) => id.startsWith(`$sourceDescriptions.${name}.`))) return true;
    // A bare operationId that no OpenAPI source has belongs to the AsyncAPI one.
    return !findOperation(step, this.options.sources).found;
  }

  /** The workflow's parameters and the step's (a step's replaces one of the same name and place), reusables resolved. */
  private parametersOf(
    workflow: Workflow,
    step: Step,
    scope: ExpressionScope,
  ): ParameterObject[] | string {
    const merged = new Map<string, ParameterObject>();
    const add = (list: readonly (ParameterObject | ReusableObject)[] | undefined) => {
      for (const item of list ?? []) {
        const parameter = this.resolveParameter(item);
        if (typeof parameter === 'string') return parameter;
        merged.set(`${parameter.in ?? ''}:${parameter.name}`, parameter);
      }
      return undefined;
    };
    // A workflow's parameters apply to its operation steps; a workflow step takes only its own.
    const problem =
      (step.workflowId === undefined ? add(workflow.parameters) : undefined) ??
      add(step.parameters);
    void scope;
    return problem ?? [...merged.values()];
  }

  private resolveParameter(item: ParameterObject | ReusableObject): ParameterObject | string {
    if (!isReusable(item)) return item;
    const name = item.reference.replace(/^\$components\.parameters\./, '');
    const found = this.options.document.components?.parameters?.[name];
    if (!found) return `the reference ${item.reference} names no parameter of the components`;
    return item.value === undefined ? found : { ...found, value: item.value };
  }

  /** The first action of a step (then of its workflow) whose criteria hold, or an error line. */
  private chooseAction(
    workflow: Workflow,
    step: Step,
    kind: 'successActions' | 'failureActions',
    scope: ExpressionScope,
  ): ActionObject | undefined | string {
    const own = (kind === 'successActions' ? step.onSuccess : step.onFailure) ?? [];
    const shared = workflow[kind] ?? [];
    const resolved: ActionObject[] = [];
    for (const item of [...own, ...shared]) {
      if (!isReusable(item)) {
        resolved.push(item);
        continue;
      }
      const name = item.reference.replace(new RegExp(`^\\$components\\.${kind}\\.`), '');
      const found = this.options.document.components?.[kind]?.[name];
      if (!found) return `the reference ${item.reference} names no ${kind} component`;
      resolved.push(found);
    }
    // A step's action replaces its workflow's of the same name.
    const names = new Set<string>();
    for (const action of resolved) {
      if (names.has(action.name)) continue;
      names.add(action.name);
      if ((action.criteria ?? []).every((criterion) => judgeCriterion(criterion, scope).passed))
        return action;
    }
    return undefined;
  }

  private parameterInputs(
    parameters: ActionObject['parameters'],
    scope: ExpressionScope,
  ): Record<string, unknown> {
    const inputs: Record<string, unknown> = {};
    for (const item of parameters ?? []) {
      const parameter = this.resolveParameter(item);
      if (typeof parameter !== 'string') inputs[parameter.name] = safeValue(parameter.value, scope);
    }
    return inputs;
  }
}

/** A value read for a called workflow's inputs; one that cannot be read is left out (its schema says if it was needed). */
function safeValue(value: unknown, scope: ExpressionScope): unknown {
  try {
    return valueOfParameter(value, scope);
  } catch {
    return undefined;
  }
}

/**
 * An inputs schema with its `$ref`s into the document (`#/components/inputs/x`) replaced by
 * their targets, at any depth: they point into the Arazzo document, not into the schema.
 * @throws {Error} when one points at nothing.
 */
function inlineReferences(schema: unknown, document: unknown, seen: readonly string[]): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlineReferences(item, document, seen));
  if (!isJsonObject(schema)) return schema;
  const { $ref: reference, ...rest } = schema;
  if (typeof reference === 'string' && reference.startsWith('#/')) {
    // A schema that refers to itself is read as any value past its first level.
    if (seen.includes(reference)) return {};
    const target = valueAt(document, reference.slice(1));
    if (target === undefined)
      throw new Error(`its inputs refer to ${reference}, which the document does not hold`);
    const inlined = inlineReferences(target, document, [...seen, reference]);
    if (Object.keys(rest).length === 0) return inlined;
    return { allOf: [inlined, inlineReferences(rest, document, seen)] };
  }
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, inlineReferences(value, document, seen)]),
  );
}

/** Why a step failed, in one line. */
export function failureOf(report: StepReport): string {
  if (report.note) return report.note;
  const failed = report.criteria.filter((result) => !result.passed);
  return (
    failed.map((result) => `${result.text}${result.note ? ` (${result.note})` : ''}`).join('; ') ||
    'it failed'
  );
}

/** An answer's body as expressions read it: JSON parsed, the rest as text. */
function bodyValueOf(bytes: Buffer, contentType: string | undefined): unknown {
  if (bytes.length === 0) return undefined;
  const text = bytes.toString('utf8');
  if (contentType && isJsonMediaType(essenceOf(contentType))) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** Headers to show, the credential's value masked. */
function masked(
  headers: Record<string, string>,
  secrets: readonly string[],
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      secrets.includes(name) || (name === 'cookie' && secrets.length > 0) ? '***' : value,
    ]),
  );
}
