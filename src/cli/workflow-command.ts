import type { FlagsOf } from './command-options.js';
import type { WORKFLOW_OPTIONS } from './command-tables.js';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkReferences } from '../core/workflow/arazzo-check.js';
import { ArazzoError, readArazzo } from '../core/workflow/arazzo-read.js';
import { runWorkflows, type WorkflowReport } from '../core/workflow/workflow-runner.js';
import { StartupError } from '../vocabulary/errors.js';
import { workflowSources } from '../wiring/workflow-sources.js';
import type { CliIo } from './cli.js';
import { CredentialFlagError, parseCredentialFlag } from './credential-flag.js';
import { workflowReport, workflowSummary } from './workflow-report.js';

/** The options of `petstore-kit workflow`, as its flags give them (WORKFLOW_OPTIONS). */
export type WorkflowCommandOptions = FlagsOf<typeof WORKFLOW_OPTIONS>;

/** Exit codes: 0 every workflow passed, 1 a step failed, 2 it could not run. */
const WorkflowExit = { passed: 0, failed: 1, unusable: 2 } as const;

/**
 * Runs the workflows of an Arazzo document and writes the report; returns the exit code. A
 * document, source or flag that cannot be used ends with its line(s) on stderr and 2.
 */
export async function runWorkflowCommand(
  file: string,
  options: WorkflowCommandOptions,
  io: Pick<CliIo, 'stdout' | 'stderr'>,
): Promise<number> {
  const unusable = (why: string) => {
    io.stderr.write(`petstore-kit workflow: cannot run: ${why}\n`);
    return WorkflowExit.unusable;
  };
  try {
    const servers = pairs(options.server ?? [], '--server', '<sourceName>=<url>');
    const given = await inputsOf(options);
    const credentials = (options.credential ?? []).map(parseCredentialFlag);
    const read = await readArazzo(file);
    const known = read.document.workflows.map((workflow) => workflow.workflowId);
    for (const id of options.workflow ?? [])
      if (!known.includes(id))
        return unusable(`the document has no workflow "${id}" (it has: ${known.join(', ')})`);
    const apiKeys = [
      ...(options.apiKey === undefined ? [] : [options.apiKey]),
      ...credentials.map((credential) => `${credential.scheme}=${credential.value}`),
    ];
    // The mock needs a key its user holds: one made up for the run when none is given.
    const token =
      options.apiKey ?? (options.mock && apiKeys.length === 0 ? 'workflow-run-key' : undefined);
    const { sources } = await workflowSources(read, {
      servers,
      baseUrl: options.baseUrl,
      mock: options.mock === true,
      apiKeys: token === undefined ? apiKeys : [token, ...apiKeys.filter((key) => key !== token)],
    });
    const problems = checkReferences(read, sources);
    if (problems.length > 0) throw new ArazzoError(file, problems);
    const reports = await runWorkflows({
      document: read.document,
      sources,
      inputs: given,
      credentials: {
        token,
        byScheme: new Map(credentials.map((credential) => [credential.scheme, credential.value])),
      },
      ...(options.workflow ? { workflowIds: options.workflow } : {}),
    });
    const report = workflowReport(reports, options.format, file);
    if (options.output !== undefined) {
      await mkdir(dirname(options.output), { recursive: true });
      await writeFile(options.output, report);
      io.stdout.write(`${workflowSummary(reports)}\n`);
    } else {
      io.stdout.write(report);
      if (options.format !== 'text') io.stderr.write(`${workflowSummary(reports)}\n`);
    }
    if (options.mock) {
      const lacking = mockLacks(reports);
      if (lacking.length > 0)
        io.stderr.write(
          `what the mock lacks for these workflows:\n${lacking.map((line) => `  ${line}`).join('\n')}\n`,
        );
    }
    return exitOf(reports);
  } catch (err) {
    if (err instanceof ArazzoError) return unusable(err.message);
    if (
      err instanceof StartupError ||
      err instanceof CredentialFlagError ||
      err instanceof FlagError
    )
      return unusable(err.message);
    throw err;
  }
}

/** The exit code of a run: 2 when a workflow could not run, 1 when one failed, else 0. */
function exitOf(reports: readonly WorkflowReport[]): number {
  if (reports.some((report) => report.outcome === 'error')) return WorkflowExit.unusable;
  if (reports.some((report) => report.outcome === 'failed')) return WorkflowExit.failed;
  return WorkflowExit.passed;
}

/**
 * What a workflow written for the real API found missing on the mock: an operation answered
 * 501 or 404 for a route (no behaviour, no route), a criterion no stateful answer satisfies.
 */
function mockLacks(reports: readonly WorkflowReport[]): string[] {
  const lines: string[] = [];
  const visit = (report: WorkflowReport) => {
    for (const step of report.steps) {
      if (step.called) visit(step.called);
      if (step.passed || step.kind !== 'operation') continue;
      const status = step.response?.status;
      const failed = step.criteria
        .filter((criterion) => !criterion.passed)
        .map((criterion) => criterion.text);
      if (step.breaches.request.length > 0)
        lines.push(
          `${report.workflowId}/${step.stepId}: the workflow's request breaks the description (${step.breaches.request[0] ?? ''}), and the mock refuses it as the description asks: give the inputs it reads`,
        );
      else if (status === 501)
        lines.push(
          `${report.workflowId}/${step.stepId}: ${step.target} has no behaviour on the mock (501): give it an example or a handler`,
        );
      else if (failed.length > 0)
        lines.push(
          `${report.workflowId}/${step.stepId}: the mock answered ${status ?? 'nothing'} to ${step.target}, where the workflow asks ${failed.join(' and ')}: a behaviour the description does not tell the mock (a scenario, a handler or seeded data gives it)`,
        );
      else if (step.note) lines.push(`${report.workflowId}/${step.stepId}: ${step.note}`);
    }
  };
  reports.forEach(visit);
  return lines;
}

class FlagError extends Error {}

/** `name=value` flags as an object. */
function pairs(list: readonly string[], flag: string, form: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const item of list) {
    const at = item.indexOf('=');
    if (at < 1) throw new FlagError(`${flag} "${item}" must be written ${form}`);
    result[item.slice(0, at)] = item.slice(at + 1);
  }
  return result;
}

/** `--inputs file.json`, then each `--input name=value` over it (a value that reads as JSON is that value). */
async function inputsOf(options: WorkflowCommandOptions): Promise<Record<string, unknown>> {
  let inputs: Record<string, unknown> = {};
  if (options.inputs !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(options.inputs, 'utf8'));
    } catch (err) {
      throw new FlagError(
        `--inputs ${options.inputs}: ${(err as { code?: string }).code ?? (err as Error).message}`,
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new FlagError(`--inputs ${options.inputs} must hold a JSON object of inputs by name`);
    inputs = parsed as Record<string, unknown>;
  }
  for (const [name, text] of Object.entries(
    pairs(options.input ?? [], '--input', '<name>=<value>'),
  )) {
    inputs[name] = text;
  }
  return inputs;
}
