/** A type's text with how tightly it binds, to know when it needs parentheses. */
export interface TypeText {
  readonly text: string;
  /** 0: a union; 1: an intersection or `readonly T[]`; 2: anything that needs no parentheses. */
  readonly binds: 0 | 1 | 2;
}

export const atom = (text: string): TypeText => ({ text, binds: 2 });
export const UNKNOWN = atom('unknown');
export const NEVER = atom('never');

/** `A | B`, without repeats; `never` for none. */
export function union(parts: readonly TypeText[]): TypeText {
  const unique = distinct(parts.filter((part) => part.text !== 'never'));
  const [first] = unique;
  if (first === undefined) return NEVER;
  if (unique.length === 1) return first;
  // `unknown` absorbs every other arm.
  if (unique.some((part) => part.text === 'unknown')) return UNKNOWN;
  return { text: unique.map((part) => part.text).join(' | '), binds: 0 };
}

/** `A & B`, without repeats; `unknown` for none. */
export function intersection(parts: readonly TypeText[]): TypeText {
  const unique = distinct(parts.filter((part) => part.text !== 'unknown'));
  const [first] = unique;
  if (first === undefined) return UNKNOWN;
  if (unique.length === 1) return first;
  return { text: unique.map((part) => wrapped(part, 1)).join(' & '), binds: 1 };
}

/** `T[]`, or `readonly T[]`. */
export function arrayOf(item: TypeText, readonly: boolean): TypeText {
  const text = `${wrapped(item, 2)}[]`;
  return readonly ? { text: `readonly ${text}`, binds: 1 } : atom(text);
}

/** `[A, B]`, or `readonly [A, B]`. */
export function tupleOf(
  items: readonly TypeText[],
  rest: TypeText | undefined,
  readonly: boolean,
): TypeText {
  const elements = items.map((item) => item.text);
  if (rest) elements.push(`...${wrapped(rest, 2)}[]`);
  const text = `[${elements.join(', ')}]`;
  return readonly ? { text: `readonly ${text}`, binds: 1 } : atom(text);
}

function wrapped(part: TypeText, least: 1 | 2): string {
  return part.binds < least ? `(${part.text})` : part.text;
}

function distinct(parts: readonly TypeText[]): TypeText[] {
  const seen = new Set<string>();
  return parts.filter((part) => !seen.has(part.text) && seen.add(part.text));
}

/** A JSON value as a literal type; objects and arrays as `unknown` (TypeScript has no such literal). */
export function literal(value: unknown): TypeText {
  if (value === null) return atom('null');
  if (typeof value === 'string') return atom(JSON.stringify(value));
  if (typeof value === 'number')
    return Number.isFinite(value) ? atom(String(value)) : atom('number');
  if (typeof value === 'boolean') return atom(String(value));
  return UNKNOWN;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const INDEX = /^(0|[1-9][0-9]{0,14})$/;

/** A property name as TypeScript needs it written: bare when it can be, quoted otherwise. */
function key(name: string): string {
  return IDENTIFIER.test(name) || INDEX.test(name) ? name : JSON.stringify(name);
}

/** `T["a"]["b"]`. */
export function indexed(root: string, ...names: readonly string[]): TypeText {
  return atom(root + names.map((name) => `[${JSON.stringify(name)}]`).join(''));
}

/** One member of an object type. */
export interface Member {
  readonly name: string;
  readonly type: TypeText;
  readonly optional?: boolean;
  readonly readonly?: boolean;
  /** The object its doc comment is read from. */
  readonly doc?: unknown;
}

/** `{ a: A; b?: B; }` over several lines; `extra` lines (index signatures) come last. */
export function objectType(members: readonly Member[], extra: readonly string[] = []): TypeText {
  const lines = members.map(memberText);
  lines.push(...extra);
  if (lines.length === 0) return atom('Record<string, never>');
  return atom(`{\n${lines.map(indent).join('\n')}\n}`);
}

function memberText(member: Member): string {
  const comment = docComment(member.doc);
  const modifier = member.readonly ? 'readonly ' : '';
  const mark = member.optional ? '?' : '';
  return `${comment}${modifier}${key(member.name)}${mark}: ${member.type.text};`;
}

/** Every line of a block moved in by four spaces (blank lines left blank). */
function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '    ');
}

/**
 * The doc comment openapi-typescript writes for an object: its title, summary, format,
 * deprecation, description, default and examples; '' for none.
 */
function docComment(source: unknown): string {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return '';
  const object = source as Record<string, unknown>;
  const lines: string[] = [];
  const text = (value: unknown) => String(value).trim().replace(/\r?\n/g, '\n *     ');
  const shown = (value: unknown) =>
    text(typeof value === 'object' ? JSON.stringify(value, null, 2) : value);
  if (typeof object.title === 'string' && object.title) lines.push(text(object.title));
  if (typeof object.summary === 'string' && object.summary) lines.push(text(object.summary));
  if (typeof object.format === 'string' && object.format) lines.push(`Format: ${object.format}`);
  if (object.deprecated === true) lines.push('@deprecated');
  if (typeof object.description === 'string' && object.description)
    lines.push(`@description ${text(object.description)}`);
  if (object.default !== undefined) lines.push(`@default ${shown(object.default)}`);
  if (object.example !== undefined) lines.push(`@example ${shown(object.example)}`);
  if (Array.isArray(object.examples))
    for (const example of object.examples) lines.push(`@example ${shown(example)}`);
  if ('const' in object) lines.push('@constant');
  if (Array.isArray(object.enum)) {
    const type = Array.isArray(object.type)
      ? object.type.join('|')
      : typeof object.type === 'string'
        ? object.type
        : 'unknown';
    lines.push(`@enum {${type}}`);
  }
  if (lines.length === 0) return '';
  // A `*/` in the text would end the comment early.
  const body = lines.map((line) => line.replace(/\*\//g, '*\\/'));
  const [only] = body;
  if (body.length === 1 && only !== undefined && !only.includes('\n')) return `/** ${only} */\n`;
  return `/**\n * ${body.join('\n * ')}\n */\n`;
}
