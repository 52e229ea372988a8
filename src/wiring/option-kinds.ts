// The kinds of values the mock's options take. Each reads a value as a library caller gives
// it or as a flag or a variable writes it (text), so that the CLI and a library call go
// through the one check and are refused with the same words.
import { MAX_DELAY_MS } from '../core/scenarios/prefer.js';

/** What is wrong with a value, in words that follow "option port (--port, PORT): ". */
export class OptionProblem extends Error {
  override name = 'OptionProblem';
}

/**
 * One kind of option value.
 * @example seconds.read('0.5') // 0.5
 */
export interface OptionKind<V> {
  /** What it takes, for the docs: `whole number`, `seconds`, `size in bytes`... */
  readonly type: string;
  /**
   * The value, from itself or from its text.
   * @throws {OptionProblem} saying what is wrong with it.
   */
  read(value: unknown): V;
}

/**
 * A value as a message quotes it (never a secret's: see listOf): a number's text as the number,
 * so that `--port 70000` and `port: 70000` are refused in the same words.
 */
function shown(value: unknown): string {
  if (typeof value === 'string')
    return Number.isNaN(numberOf(value)) ? JSON.stringify(value) : String(numberOf(value));
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

function refuse(problem: string, value: unknown): never {
  throw new OptionProblem(`${problem}, not ${shown(value)}`);
}

/** A number from itself or from its text (`'30'`, `' 0.5 '`); NaN for anything else. */
function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return Number.NaN;
}

/**
 * A whole number from `min` up to `max`.
 * @example wholeNumber(0, 65535).read('4010') // 4010
 */
export function wholeNumber(min: number, max?: number): OptionKind<number> {
  const range =
    max === undefined ? (min === 0 ? '0 or more' : `${min} or more`) : `from ${min} to ${max}`;
  return {
    type: `whole number, ${range}`,
    read(value) {
      const number = numberOf(value);
      if (!Number.isInteger(number)) refuse(`it must be a whole number, ${range}`, value);
      if (number < min || (max !== undefined && number > max)) refuse(`it must be ${range}`, value);
      return number;
    },
  };
}

/** Any whole number (a seed). */
export const integer: OptionKind<number> = {
  type: 'whole number',
  read(value) {
    const number = numberOf(value);
    if (!Number.isInteger(number)) refuse('it must be a whole number', value);
    return number;
  },
};

/** A duration in seconds, above 0, possibly fractional. */
export const seconds: OptionKind<number> = {
  type: 'seconds',
  read(value) {
    const number = numberOf(value);
    // Below a millisecond, Node's timers would take it as none.
    if (!(number >= 0.001))
      refuse('it must be a number of seconds, at least 0.001, such as 30 or 0.5', value);
    return number;
  },
};

/** A share from 0 to 1. */
export const rate: OptionKind<number> = {
  type: 'number from 0 to 1',
  read(value) {
    const number = numberOf(value);
    if (!(number >= 0 && number <= 1))
      refuse('it must be a number from 0 to 1, such as 0.05', value);
    return number;
  },
};

const SIZE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
};

/** A size in bytes: a number, or text such as `1048576`, `512kb`, `1mb` or `2gb`. */
export const size: OptionKind<number> = {
  type: 'bytes (or 512kb, 1mb, 2gb)',
  read(value) {
    const problem = 'it must be a size of 1 byte or more, such as 1048576, 512kb or 1mb';
    if (typeof value === 'number') {
      if (!(Number.isInteger(value) && value >= 1)) refuse(problem, value);
      return value;
    }
    const match =
      typeof value === 'string'
        ? /^(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?$/i.exec(value.trim())
        : null;
    if (!match) refuse(problem, value);
    const unit = (match[2] ?? 'b').toLowerCase().replace('i', '');
    const bytes = Math.floor(Number(match[1]) * (SIZE_UNITS[unit] ?? 1));
    if (bytes < 1) refuse(problem, value);
    return bytes;
  },
};

/** A delay in milliseconds: `200`, or a range `{ min: 100, max: 400 }` (text: `100-400`). */
export const delayRange: OptionKind<number | { min: number; max: number }> = {
  type: 'milliseconds, or a range min-max',
  read(value) {
    const problem = `it must be milliseconds, such as 200, or a range such as 100-400 (at most ${MAX_DELAY_MS})`;
    let min: number;
    let max: number;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const range = value as { min?: unknown; max?: unknown };
      min = numberOf(range.min);
      max = numberOf(range.max);
    } else {
      const match = typeof value === 'string' ? /^\s*(\d+)(?:-(\d+))?\s*$/.exec(value) : null;
      min = match ? Number(match[1]) : numberOf(value);
      max = match ? Number(match[2] ?? match[1]) : min;
    }
    if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max > MAX_DELAY_MS)
      refuse(problem, value);
    if (min > max)
      throw new OptionProblem(
        `its minimum (${min}) exceeds its maximum (${max}): write the range low-high, such as ${max}-${min}`,
      );
    return min === max && typeof value !== 'object' ? min : { min, max };
  },
};

/** `true` or `false` (a flag given without a value is `true`). */
export const flag: OptionKind<boolean> = {
  type: 'true or false',
  read(value) {
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    return refuse('it must be true or false', value);
  },
};

/**
 * Text that is not empty, and holds no whitespace when `word`.
 * @example text({ example: '127.0.0.1', word: true }).read(' ') // throws
 */
export function text(options: { example: string; word?: boolean }): OptionKind<string> {
  return {
    type: 'text',
    read(value) {
      const given = typeof value === 'string' ? value.trim() : undefined;
      if (given === undefined) return refuse(`it must be text, such as ${options.example}`, value);
      if (given === '')
        throw new OptionProblem(
          `it is empty, which would leave the default in force: give a value such as ${options.example}, or leave the option (and its variable) unset`,
        );
      if (options.word && /\s/.test(given))
        refuse(`it must hold no whitespace, such as ${options.example}`, value);
      return given;
    },
  };
}

/**
 * One of a few words.
 * @example oneOf(['experimental', 'beta', 'stable']).read('beta') // 'beta'
 */
export function oneOf<W extends string>(words: readonly W[]): OptionKind<W> {
  return {
    type: words.join(' | '),
    read(value) {
      if (typeof value === 'string' && (words as readonly string[]).includes(value.trim()))
        return value.trim() as W;
      return refuse(`it takes one of ${words.join(', ')}`, value);
    },
  };
}

/**
 * A list of items, each read by `item`: a list, or text with the items comma-separated (as
 * a variable gives them). An empty item is refused: left to mean "none given", it would
 * silently open the default (the public key, any origin) that the user meant to narrow.
 * @param secret items never quoted back (keys, passwords).
 * @example listOf(text({ example: 'a' })).read('a, b') // ['a', 'b']
 */
export function listOf<T>(
  item: OptionKind<T>,
  options: { secret?: boolean; unique?: boolean } = {},
): OptionKind<readonly T[]> {
  return {
    type: `list of ${item.type}`,
    read(value) {
      const items: unknown[] | undefined = Array.isArray(value)
        ? value
        : typeof value === 'string'
          ? splitList(value)
          : undefined;
      if (items === undefined) return refuse(`it must be a list of ${item.type}`, value);
      if (items.some((one) => typeof one === 'string' && one.trim() === ''))
        throw new OptionProblem(
          'it holds an empty value, which would leave the default in force: give a value, or leave the option (and its variable) unset',
        );
      const read = items.map((one) => {
        try {
          return item.read(one);
        } catch (err) {
          if (err instanceof OptionProblem && options.secret)
            throw new OptionProblem(err.message.replace(/, not .*$/, ''));
          throw err;
        }
      });
      return options.unique ? [...new Set(read)] : read;
    },
  };
}

/**
 * A value checked by a test of its own: objects a library caller gives (a store, a logger).
 * @example shaped<Logger>('a logger', (v) => typeof v === 'object')
 */
export function shaped<V>(type: string, fits: (value: unknown) => boolean): OptionKind<V> {
  return {
    type,
    read(value) {
      if (!fits(value)) refuse(`it must be ${type}`, value);
      return value as V;
    },
  };
}

/**
 * The items of a comma-separated list, trimmed; a comma inside brackets is the item's own
 * (`token[read,write]`: a key and the scopes it holds).
 * @example splitList('a, t[read,write]') // ['a', 't[read,write]']
 */
export function splitList(value: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const char = value[i];
    if (char === '[') depth++;
    else if (char === ']') depth = Math.max(0, depth - 1);
    else if (char === ',' && depth === 0) {
      items.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  items.push(value.slice(start).trim());
  return items;
}
