import type { Schema } from './plan.js';
import { allowedTypes, keyword, textKeyword } from './schema-parts.js';

/**
 * Values ordered as their names say: of two sibling fields named as a pair (`startsAt` and
 * `endsAt`, `min_price` and `max_price`, `validFrom` and `validUntil`), the first comes
 * before the second, as every client writes them. A service refuses a window that ends where
 * it starts (Alertmanager's silences, with the 400 it documents), and a window of dates is
 * placed ahead of now: a service may refuse one that is already over.
 */

/** The first word of a pair, and the words that close it. */
const PAIRS: [string, string[]][] = [
  ['start', ['end', 'stop', 'finish']],
  ['starts', ['ends', 'stops']],
  ['started', ['ended', 'stopped', 'finished']],
  ['begin', ['end']],
  ['begins', ['ends']],
  ['from', ['to', 'until', 'till', 'through']],
  ['since', ['until', 'till']],
  ['after', ['before']],
  ['min', ['max']],
  ['minimum', ['maximum']],
  ['lower', ['upper']],
  ['low', ['high']],
  ['earliest', ['latest']],
  ['first', ['last']],
  ['open', ['close']],
  ['opens', ['closes']],
];

/** An hour ahead: a window that starts then has not begun when the request arrives. */
const AHEAD_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The pairs of an object's fields whose names say that one comes first: `[first, second]`.
 * @example pairsByName(['startsAt', 'endsAt', 'comment']) // [['startsAt', 'endsAt']]
 * @internal for its tests: no part of the package's surface
 */
export function pairsByName(names: readonly string[]): [string, string][] {
  const present = new Set(names);
  const pairs: [string, string][] = [];
  for (const name of names) {
    const partner = wordsOf(name)
      .flatMap((word) =>
        (PAIRS.find(([opening]) => opening === word.text.toLowerCase())?.[1] ?? []).map(
          (other) =>
            name.slice(0, word.at) +
            sameCase(other, word.text) +
            name.slice(word.at + word.text.length),
        ),
      )
      .find((other) => other !== name && present.has(other));
    if (partner !== undefined && !pairs.some(([, second]) => second === partner))
      pairs.push([name, partner]);
  }
  return pairs;
}

/**
 * The object with each named pair put in order: dates and date-times an hour and a day
 * ahead of `now` (the second a day after the first), numbers the second above the first
 * within its bounds. Fields whose schemas are neither are left as they are.
 */
export function orderByNames(
  object: Record<string, unknown>,
  properties: Record<string, Schema>,
  variant = 0,
  now = Date.now(),
): Record<string, unknown> {
  for (const [first, second] of pairsByName(Object.keys(object))) {
    const a = properties[first] ?? {};
    const b = properties[second] ?? {};
    const format = textKeyword<string>(a, 'format');
    if (
      typeof object[first] === 'string' &&
      typeof object[second] === 'string' &&
      format === textKeyword<string>(b, 'format') &&
      (format === 'date-time' || format === 'date')
    ) {
      const start = Math.floor((now + AHEAD_MS) / 1000) * 1000 + variant * DAY_MS;
      const end = start + DAY_MS;
      object[first] = written(start, format);
      object[second] = written(end, format);
    } else if (typeof object[first] === 'number' && typeof object[second] === 'number') {
      const low = object[first];
      const high = object[second];
      if (low < high) continue;
      const step = allowedTypes(b).includes('integer') ? 1 : 0.5;
      const ceiling = keyword(b, 'maximum') ?? Infinity;
      if (low + step <= ceiling) object[second] = low + step;
      else object[first] = high - step;
    }
  }
  return object;
}

/** A time as its format writes it, without fractions of a second (the samples' own form). */
function written(ms: number, format: string): string {
  const iso = new Date(ms).toISOString();
  return format === 'date' ? iso.slice(0, 10) : `${iso.slice(0, 19)}Z`;
}

/** The words of a name (camelCase, snake_case, kebab-case) and where each starts. */
function wordsOf(name: string): { text: string; at: number }[] {
  return [...name.matchAll(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g)].map((match) => ({
    text: match[0],
    at: match.index,
  }));
}

/** `word` written in the case of `like`: `End` for `Start`, `END` for `START`. */
function sameCase(word: string, like: string): string {
  if (like === like.toUpperCase() && like.length > 1) return word.toUpperCase();
  if (like[0] === like[0]?.toUpperCase()) return word[0]!.toUpperCase() + word.slice(1);
  return word;
}
