import { hostname } from 'node:os';
import { shortly } from '../core/workflow/criteria.js';
import {
  failureOf,
  type StepReport,
  type WorkflowReport,
} from '../core/workflow/workflow-runner.js';

/** The report formats of `petstore-kit workflow`. */
export const WORKFLOW_FORMATS = ['text', 'json', 'junit'] as const;
export type WorkflowFormat = (typeof WORKFLOW_FORMATS)[number];

/**
 * The report of a run: per workflow, per step, the request, the answer's status, the criteria,
 * what the description's judge found, the values carried on and the action taken.
 * @example workflowReport(reports, 'text', 'flows.arazzo.yaml')
 */
export function workflowReport(
  reports: readonly WorkflowReport[],
  format: WorkflowFormat,
  file: string,
): string {
  if (format === 'json')
    return `${JSON.stringify({ document: file, workflows: reports }, null, 2)}\n`;
  if (format === 'junit') return junit(reports, file);
  return text(reports);
}

/** The one-line summary: how many workflows passed, failed, could not run. */
export function workflowSummary(reports: readonly WorkflowReport[]): string {
  const count = (outcome: WorkflowReport['outcome']) =>
    reports.filter((report) => report.outcome === outcome).length;
  const parts = [`${count('passed')} passed`, `${count('failed')} failed`];
  if (count('error') > 0) parts.push(`${count('error')} could not run`);
  return `${reports.length} workflow${reports.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

function text(reports: readonly WorkflowReport[]): string {
  const lines: string[] = [];
  for (const report of reports) lines.push(...workflowLines(report, ''), '');
  lines.push(workflowSummary(reports));
  return `${lines.join('\n')}\n`;
}

function workflowLines(report: WorkflowReport, indent: string): string[] {
  const mark =
    report.outcome === 'passed' ? 'PASS' : report.outcome === 'failed' ? 'FAIL' : 'ERROR';
  const lines = [
    `${indent}${mark} ${report.workflowId} (${report.steps.length} step runs, ${report.durationMs} ms)`,
  ];
  if (report.reason)
    lines.push(
      `${indent}  ${report.outcome === 'error' ? 'could not run' : 'why'}: ${report.reason}`,
    );
  for (const step of report.steps) lines.push(...stepLines(step, `${indent}  `));
  const outputs = Object.entries(report.outputs);
  if (outputs.length > 0)
    lines.push(
      `${indent}  outputs: ${outputs.map(([name, value]) => `${name} = ${shortly(value)}`).join(', ')}`,
    );
  return lines;
}

function stepLines(step: StepReport, indent: string): string[] {
  const mark = step.kind === 'skipped' ? 'skip' : step.passed ? 'ok' : 'failed';
  const retry = step.attempt > 1 ? ` (attempt ${step.attempt})` : '';
  const lines = [`${indent}${mark}  ${step.stepId}${retry}: ${step.target}`];
  const inner = `${indent}      `;
  if (step.request)
    lines.push(
      `${inner}${step.request.method} ${step.request.url}${step.request.body === undefined ? '' : ` ${shorten(step.request.body)}`}`,
    );
  if (step.response)
    lines.push(
      `${inner}-> ${step.response.status}${step.response.body === undefined ? '' : ` ${shortly(step.response.body)}`}`,
    );
  for (const criterion of step.criteria)
    lines.push(
      `${inner}${criterion.passed ? '[x]' : '[ ]'} ${criterion.text}${criterion.note ? `: ${criterion.note}` : ''}`,
    );
  for (const breach of step.breaches.answer)
    lines.push(`${inner}the answer breaks the description: ${breach}`);
  for (const breach of step.breaches.request)
    lines.push(`${inner}(the request breaks the description: ${breach})`);
  if (step.note)
    lines.push(`${inner}${step.kind === 'skipped' ? 'skipped' : 'note'}: ${step.note}`);
  const outputs = Object.entries(step.outputs);
  if (outputs.length > 0)
    lines.push(
      `${inner}carries: ${outputs.map(([name, value]) => `${name} = ${shortly(value)}`).join(', ')}`,
    );
  if (step.called) lines.push(...workflowLines(step.called, inner));
  if (step.action && step.action !== 'next') lines.push(`${inner}then: ${step.action}`);
  return lines;
}

function shorten(body: string): string {
  return body.length > 120 ? `${body.slice(0, 117)}...` : body;
}

/** JUnit XML: a suite per workflow, a case per step run (a workflow that could not run: one failed case). */
function junit(reports: readonly WorkflowReport[], file: string): string {
  const suites = reports.map((report) => {
    const cases = report.steps.map((step) => {
      const name = `${step.stepId}${step.attempt > 1 ? ` (attempt ${step.attempt})` : ''}`;
      const failed = step.kind !== 'skipped' && (!step.passed || step.breaches.answer.length > 0);
      const message = [failureOf(step), ...step.breaches.answer]
        .filter((line) => line !== 'it failed' || !step.breaches.answer.length)
        .join('; ');
      const body =
        step.kind === 'skipped'
          ? `<skipped message="${xml(step.note ?? 'skipped')}"/>`
          : failed
            ? `<failure message="${xml(message)}" type="StepFailed">${xml(stepLines(step, '').join('\n'))}</failure>`
            : '';
      return `    <testcase classname="${xml(report.workflowId)}" name="${xml(name)}" time="${seconds(step.durationMs)}">${body}</testcase>`;
    });
    if (
      report.outcome !== 'passed' &&
      !report.steps.some((step) => !step.passed || step.breaches.answer.length > 0)
    )
      cases.push(
        `    <testcase classname="${xml(report.workflowId)}" name="${xml(report.workflowId)}" time="0"><failure message="${xml(report.reason ?? report.outcome)}" type="${report.outcome === 'error' ? 'CannotRun' : 'WorkflowFailed'}"/></testcase>`,
      );
    const failures = cases.filter((line) => line.includes('<failure')).length;
    const skipped = cases.filter((line) => line.includes('<skipped')).length;
    return [
      `  <testsuite name="${xml(report.workflowId)}" timestamp="${new Date().toISOString()}" hostname="${xml(hostname())}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(report.durationMs)}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  const tests = reports.reduce((sum, report) => sum + Math.max(report.steps.length, 1), 0);
  const failures = reports.filter((report) => report.outcome !== 'passed').length;
  return `<?xml version="1.0" encoding="UTF-8" ?>\n<testsuites name="petstore-kit workflow ${xml(file)}" tests="${tests}" failures="${failures}">\n${suites.join('\n')}\n</testsuites>\n`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function xml(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex -- XML 1.0 allows no control character but tab and new lines.
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/"/g, '&quot;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
  );
}
