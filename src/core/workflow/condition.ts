import { isJsonObject } from '../../vocabulary/record.js';
import {
  ExpressionError,
  evaluate,
  parseExpression,
  type ExpressionScope,
} from './runtime-expression.js';

/**
 * A simple condition of a criterion (Arazzo 1.0 §4.6.20: literals, `<` `<=` `>` `>=` `==` `!=`
 * `!` `&&` `||`, `()`, `[]` and `.` on runtime expressions), parsed into a tree.
 */
export type Condition =
  | { kind: 'literal'; value: unknown }
  | { kind: 'expression'; text: string }
  | { kind: 'not'; operand: Condition }
  | { kind: 'binary'; operator: string; left: Condition; right: Condition }
  | { kind: 'member'; object: Condition; key: Condition };

type Token =
  | { kind: 'expression'; text: string }
  | { kind: 'literal'; value: unknown }
  | { kind: 'name'; text: string }
  | { kind: 'operator'; text: string };

const OPERATORS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '!', '(', ')', '[', ']', '.'];

/**
 * Parses a simple condition.
 * @throws {ExpressionError} saying what does not parse.
 * @example parseCondition("$statusCode == 200 && $response.body#/name == 'Rex'")
 */
export function parseCondition(text: string): Condition {
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at];
  const take = (operator: string): boolean => {
    const token = tokens[at];
    if (token?.kind === 'operator' && token.text === operator) {
      at++;
      return true;
    }
    return false;
  };
  const binary = (operators: string[], next: () => Condition) => (): Condition => {
    let left = next();
    for (;;) {
      const token = peek();
      if (token?.kind !== 'operator' || !operators.includes(token.text)) return left;
      at++;
      left = { kind: 'binary', operator: token.text, left, right: next() };
    }
  };
  const primary = (): Condition => {
    const token = tokens[at++];
    if (!token) throw new ExpressionError(`the condition "${text}" ends too soon`);
    if (token.kind === 'expression') {
      const parsed = parseExpression(token.text);
      if (typeof parsed === 'string') throw new ExpressionError(parsed);
      return { kind: 'expression', text: token.text };
    }
    if (token.kind === 'literal') return { kind: 'literal', value: token.value };
    if (token.kind === 'operator' && token.text === '(') {
      const inner = or();
      if (!take(')')) throw new ExpressionError(`the condition "${text}" misses a )`);
      return inner;
    }
    throw new ExpressionError(
      `the condition "${text}" has ${token.kind === 'name' ? `"${token.text}"` : `"${token.text}"`} where a value belongs (strings are quoted with ')`,
    );
  };
  const postfix = (): Condition => {
    let value = primary();
    for (;;) {
      if (take('[')) {
        const key = or();
        if (!take(']')) throw new ExpressionError(`the condition "${text}" misses a ]`);
        value = { kind: 'member', object: value, key };
      } else if (take('.')) {
        const name = tokens[at++];
        if (name?.kind !== 'name')
          throw new ExpressionError(`the condition "${text}" has a . not followed by a name`);
        value = { kind: 'member', object: value, key: { kind: 'literal', value: name.text } };
      } else return value;
    }
  };
  const unary = (): Condition => (take('!') ? { kind: 'not', operand: unary() } : postfix());
  const comparison = binary(['==', '!=', '<', '<=', '>', '>='], unary);
  const and = binary(['&&'], comparison);
  const or: () => Condition = binary(['||'], and);
  const tree = or();
  if (at < tokens.length)
    throw new ExpressionError(`the condition "${text}" has more after a whole condition`);
  return tree;
}

/** Whether a parsed condition holds in a scope. */
export function holds(condition: Condition, scope: ExpressionScope): boolean {
  return truthy(valueOfCondition(condition, scope));
}

function valueOfCondition(condition: Condition, scope: ExpressionScope): unknown {
  switch (condition.kind) {
    case 'literal':
      return condition.value;
    case 'expression':
      return evaluate(condition.text, scope);
    case 'not':
      return !truthy(valueOfCondition(condition.operand, scope));
    case 'member': {
      const object = valueOfCondition(condition.object, scope);
      const key = valueOfCondition(condition.key, scope);
      if (Array.isArray(object)) return key === 'length' ? object.length : object[Number(key)];
      if (typeof object === 'string' && key === 'length') return object.length;
      return isJsonObject(object) ? object[String(key)] : undefined;
    }
    case 'binary': {
      const left = valueOfCondition(condition.left, scope);
      if (condition.operator === '&&')
        return truthy(left) && truthy(valueOfCondition(condition.right, scope));
      if (condition.operator === '||')
        return truthy(left) || truthy(valueOfCondition(condition.right, scope));
      return compare(condition.operator, left, valueOfCondition(condition.right, scope));
    }
  }
}

/**
 * A comparison as Arazzo asks: strings case-insensitively, a number and a numeric string (a
 * header) as numbers, structures by their JSON.
 */
function compare(operator: string, left: unknown, right: unknown): boolean {
  let a = left;
  let b = right;
  if (typeof a === 'number' && typeof b === 'string' && b.trim() !== '' && !Number.isNaN(Number(b)))
    b = Number(b);
  if (typeof b === 'number' && typeof a === 'string' && a.trim() !== '' && !Number.isNaN(Number(a)))
    a = Number(a);
  if (typeof a === 'string' && typeof b === 'string') {
    a = a.toLowerCase();
    b = b.toLowerCase();
  }
  if (operator === '==' || operator === '!=') {
    const equal =
      (a ?? null) === (b ?? null) ||
      (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));
    return operator === '==' ? equal : !equal;
  }
  if (!(
    (typeof a === 'number' && typeof b === 'number') ||
    (typeof a === 'string' && typeof b === 'string')
  ))
    return false;
  if (operator === '<') return a < b;
  if (operator === '<=') return a <= b;
  if (operator === '>') return a > b;
  return a >= b;
}

function truthy(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false && value !== 0 && value !== '';
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at);
    const space = /^\s+/.exec(rest);
    if (space) {
      at += space[0].length;
      continue;
    }
    if (rest.startsWith('$')) {
      // A runtime expression runs to a space or an operator; its JSON pointer may hold dots.
      const expression = /^\$[^\s=!<>&|()[\]]*/.exec(rest)?.[0] ?? '$';
      tokens.push({ kind: 'expression', text: expression });
      at += expression.length;
      continue;
    }
    if (rest.startsWith("'") || rest.startsWith('"')) {
      const quote = rest.charAt(0);
      let end = 1;
      let value = '';
      while (end < rest.length && rest[end] !== quote) {
        // A quote inside is written twice, or escaped.
        if (rest[end] === '\\' && end + 1 < rest.length) end++;
        value += rest[end];
        end++;
      }
      if (end >= rest.length)
        throw new ExpressionError(`the condition "${text}" has a string that never ends`);
      tokens.push({ kind: 'literal', value });
      at += end + 1;
      continue;
    }
    const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(rest);
    const previous = tokens.at(-1);
    if (number && !(previous?.kind === 'operator' && previous.text === '.')) {
      tokens.push({ kind: 'literal', value: Number(number[0]) });
      at += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_][\w-]*/.exec(rest);
    if (word) {
      const literal = { true: true, false: false, null: null } as Record<string, unknown>;
      tokens.push(
        Object.hasOwn(literal, word[0])
          ? { kind: 'literal', value: literal[word[0]] }
          : { kind: 'name', text: word[0] },
      );
      at += word[0].length;
      continue;
    }
    const operator = OPERATORS.find((candidate) => rest.startsWith(candidate));
    if (!operator)
      throw new ExpressionError(
        `the condition "${text}" has "${rest[0]}", which is no operator of Arazzo`,
      );
    tokens.push({ kind: 'operator', text: operator });
    at += operator.length;
  }
  return tokens;
}
