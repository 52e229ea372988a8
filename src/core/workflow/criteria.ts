import type { Criterion } from './arazzo-types.js';
import { holds, parseCondition } from './condition.js';
import { asText, evaluate, type ExpressionScope } from './runtime-expression.js';
import { jsonPathNodes, kindOf, xpathResult } from './selectors.js';

/** How one criterion of a step came out. */
export interface CriterionResult {
  /** The criterion as the document writes it: `$statusCode == 201`, `regex ^ok$ on $response.body`. */
  text: string;
  passed: boolean;
  /** Why it did not hold, or why it could not be judged. */
  note?: string | undefined;
}

/**
 * Judges one criterion (Arazzo §4.6.20): a simple condition, or a regular expression (ECMA-262),
 * a JSONPath (RFC 9535: it holds when it selects a node) or an XPath (holds when it selects a
 * node, or is true) applied to the value of its context.
 */
export function judgeCriterion(criterion: Criterion, scope: ExpressionScope): CriterionResult {
  const kind = kindOf(criterion.type);
  const text =
    kind === 'simple'
      ? criterion.condition
      : `${kind} ${criterion.condition} on ${criterion.context ?? '(no context)'}`;
  try {
    if (kind === 'simple') {
      const passed = holds(parseCondition(criterion.condition), scope);
      return {
        text,
        passed,
        ...(passed ? {} : { note: `it is false: ${valuesIn(criterion.condition, scope)}` }),
      };
    }
    if (criterion.context === undefined)
      return { text, passed: false, note: `a ${kind} criterion needs a context` };
    const value = evaluate(criterion.context, scope);
    if (kind === 'regex') {
      const passed = new RegExp(criterion.condition).test(asText(value));
      return {
        text,
        passed,
        ...(passed ? {} : { note: `${criterion.context} is ${shortly(value)}` }),
      };
    }
    if (kind === 'jsonpath') {
      const passed = jsonPathNodes(value, criterion.condition).length > 0;
      return {
        text,
        passed,
        ...(passed ? {} : { note: `it selects nothing in ${shortly(value)}` }),
      };
    }
    if (kind === 'xpath') {
      const result = xpathResult(asText(value), criterion.condition);
      const passed = Array.isArray(result) ? result.length > 0 : Boolean(result);
      return {
        text,
        passed,
        ...(passed ? {} : { note: `it is ${shortly(result)} in ${shortly(value)}` }),
      };
    }
    return {
      text,
      passed: false,
      note: `"${kind}" is no criterion type (simple, regex, jsonpath, xpath)`,
    };
  } catch (err) {
    return { text, passed: false, note: err instanceof Error ? err.message : String(err) };
  }
}

/** The values of the runtime expressions of a condition, for telling why it is false. */
function valuesIn(condition: string, scope: ExpressionScope): string {
  const expressions = condition.match(/\$[^\s=!<>&|()[\]]+/g) ?? [];
  return [...new Set(expressions)]
    .map((expression) => {
      try {
        return `${expression} is ${shortly(evaluate(expression, scope))}`;
      } catch {
        return `${expression} cannot be read`;
      }
    })
    .join(', ');
}

/** A value in a message: its JSON, cut short. */
export function shortly(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
