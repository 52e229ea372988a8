import type { ReadArazzo, Problem } from './arazzo-read.js';
import {
  isReusable,
  type ActionObject,
  type Criterion,
  type ReusableObject,
  type Workflow,
} from './arazzo-types.js';
import { parseCondition } from './condition.js';
import { findOperation, nearest, type SourceApi } from './operation-lookup.js';
import { embeddedExpressions, isExpression, parseExpression } from './runtime-expression.js';
import { kindOf } from './selectors.js';

type Path = (string | number)[];

/**
 * What the schema cannot check: every operation a step names exists in its source, every
 * step, workflow and component a document refers to exists, and every runtime expression and
 * condition parses. Each problem has its line and a hint.
 * @example checkReferences(read, sources) // [{ line: 14, message: 'operationId "getPet" is not...', hint: 'did you mean "getPetById"?' }]
 */
export function checkReferences(read: ReadArazzo, sources: readonly SourceApi[]): Problem[] {
  const { document, lineOf } = read;
  const problems: Problem[] = [];
  const report = (path: Path, message: string, hint?: string) =>
    problems.push({ line: lineOf(path), message, hint });
  const workflowIds = document.workflows.map((workflow) => workflow.workflowId);
  const components = document.components ?? {};
  const asyncSources = new Set(
    document.sourceDescriptions
      .filter((source) => source.type === 'asyncapi')
      .map((source) => source.name),
  );

  const checkWorkflowId = (path: Path, id: string) => {
    if (id.startsWith('$sourceDescriptions.')) return;
    if (!workflowIds.includes(id))
      report(
        path,
        `workflowId "${id}" is not a workflow of this document`,
        nearest(id, workflowIds),
      );
  };
  const checkReference = (path: Path, reusable: ReusableObject, kind: string) => {
    const prefix = `$components.${kind}.`;
    const name = reusable.reference.startsWith(prefix)
      ? reusable.reference.slice(prefix.length)
      : undefined;
    const held = Object.keys((components as Record<string, object | undefined>)[kind] ?? {});
    if (name === undefined)
      report(
        [...path, 'reference'],
        `the reference "${reusable.reference}" must be ${prefix}<name> here`,
      );
    else if (!held.includes(name))
      report(
        [...path, 'reference'],
        `the reference "${reusable.reference}" names no component`,
        nearest(name, held),
      );
  };

  const checkValue = (path: Path, value: unknown, stepIds: readonly string[]) => {
    if (typeof value === 'string') {
      const expressions = isExpression(value)
        ? [value]
        : embeddedExpressions(value).map((found) => found.expression);
      for (const expression of expressions) checkExpression(path, expression, stepIds);
    } else if (Array.isArray(value))
      value.forEach((item, index) => checkValue([...path, index], item, stepIds));
    else if (typeof value === 'object' && value !== null)
      for (const [key, item] of Object.entries(value)) checkValue([...path, key], item, stepIds);
  };
  const checkExpression = (path: Path, expression: string, stepIds: readonly string[]) => {
    const parsed = parseExpression(expression);
    if (typeof parsed === 'string') return report(path, parsed);
    const [name] = parsed.names;
    if (parsed.root === 'steps' && name !== undefined && !stepIds.includes(name))
      report(path, `${expression} names no step of this workflow`, nearest(name, stepIds));
    if (parsed.root === 'workflows' && name !== undefined && !workflowIds.includes(name))
      report(path, `${expression} names no workflow of this document`, nearest(name, workflowIds));
  };
  const checkCriteria = (
    path: Path,
    criteria: readonly Criterion[] | undefined,
    stepIds: readonly string[],
  ) =>
    criteria?.forEach((criterion, index) => {
      const at = [...path, index];
      if (criterion.context !== undefined)
        checkExpression([...at, 'context'], criterion.context, stepIds);
      if (kindOf(criterion.type) === 'simple') {
        try {
          parseCondition(criterion.condition);
        } catch (err) {
          report([...at, 'condition'], (err as Error).message);
        }
      } else if (criterion.context === undefined)
        report(
          at,
          `a ${kindOf(criterion.type)} criterion needs a context`,
          'context: $response.body',
        );
    });
  const checkActions = (
    path: Path,
    actions: readonly (ActionObject | ReusableObject)[] | undefined,
    kind: 'successActions' | 'failureActions',
    stepIds: readonly string[],
  ) =>
    actions?.forEach((action, index) => {
      const at = [...path, index];
      if (isReusable(action)) return checkReference(at, action, kind);
      if (action.stepId !== undefined && !stepIds.includes(action.stepId))
        report(
          [...at, 'stepId'],
          `stepId "${action.stepId}" is not a step of this workflow`,
          nearest(action.stepId, stepIds),
        );
      if (action.workflowId !== undefined)
        checkWorkflowId([...at, 'workflowId'], action.workflowId);
      checkCriteria([...at, 'criteria'], action.criteria, stepIds);
    });

  const seen = new Set<string>();
  document.workflows.forEach((workflow: Workflow, w) => {
    const at: Path = ['workflows', w];
    if (seen.has(workflow.workflowId))
      report([...at, 'workflowId'], `workflowId "${workflow.workflowId}" is used twice`);
    seen.add(workflow.workflowId);
    const stepIds = workflow.steps.map((step) => step.stepId);
    workflow.dependsOn?.forEach((id, index) => checkWorkflowId([...at, 'dependsOn', index], id));
    workflow.parameters?.forEach((parameter, index) => {
      if (isReusable(parameter))
        checkReference([...at, 'parameters', index], parameter, 'parameters');
      else checkValue([...at, 'parameters', index, 'value'], parameter.value, stepIds);
    });
    checkActions([...at, 'successActions'], workflow.successActions, 'successActions', stepIds);
    checkActions([...at, 'failureActions'], workflow.failureActions, 'failureActions', stepIds);
    checkValue([...at, 'outputs'], workflow.outputs, stepIds);
    const stepSeen = new Set<string>();
    workflow.steps.forEach((step, s) => {
      const path: Path = [...at, 'steps', s];
      if (stepSeen.has(step.stepId))
        report(
          [...path, 'stepId'],
          `stepId "${step.stepId}" is used twice in ${workflow.workflowId}`,
        );
      stepSeen.add(step.stepId);
      const asyncStep =
        step.channelPath !== undefined ||
        step.action !== undefined ||
        (asyncSources.size > 0 &&
          [...asyncSources].some((name) =>
            step.operationId?.startsWith(`$sourceDescriptions.${name}.`),
          ));
      if (step.workflowId !== undefined) checkWorkflowId([...path, 'workflowId'], step.workflowId);
      else if (!asyncStep) {
        const lookup = findOperation(step, sources);
        if (lookup.found) {
          // A path parameter the operation does not have cannot be sent: its template stays unfilled.
          const names = lookup.operation.parameters
            .filter((parameter) => parameter.in === 'path')
            .map((parameter) => parameter.name);
          step.parameters?.forEach((parameter, index) => {
            if (
              !isReusable(parameter) &&
              parameter.in === 'path' &&
              !names.includes(parameter.name)
            )
              report(
                [...path, 'parameters', index, 'name'],
                `${lookup.operation.operationId} has no path parameter "${parameter.name}"`,
                nearest(parameter.name, names),
              );
          });
        }
        if (!lookup.found)
          report(
            [...path, step.operationPath === undefined ? 'operationId' : 'operationPath'],
            lookup.message,
            lookup.hint,
          );
      }
      step.parameters?.forEach((parameter, index) => {
        if (isReusable(parameter))
          checkReference([...path, 'parameters', index], parameter, 'parameters');
        else checkValue([...path, 'parameters', index, 'value'], parameter.value, stepIds);
      });
      if (step.requestBody) {
        checkValue([...path, 'requestBody', 'payload'], step.requestBody.payload, stepIds);
        step.requestBody.replacements?.forEach((replacement, index) =>
          checkValue(
            [...path, 'requestBody', 'replacements', index, 'value'],
            replacement.value,
            stepIds,
          ),
        );
      }
      checkCriteria([...path, 'successCriteria'], step.successCriteria, stepIds);
      checkActions([...path, 'onSuccess'], step.onSuccess, 'successActions', stepIds);
      checkActions([...path, 'onFailure'], step.onFailure, 'failureActions', stepIds);
      checkValue([...path, 'outputs'], step.outputs, stepIds);
    });
  });
  return problems;
}
