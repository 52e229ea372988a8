import type { Schema } from './plan.js';
import { keyword } from './schema-parts.js';

/** A kind of text a real client sends, and samples of it built around a label. */
export interface RealisticText {
  /** As a rule name reads it, after the field: "with surrounding whitespace". */
  what: string;
  /** Samples around the label; with a schema, the label is shortened to fit its maxLength. */
  samples(label: string, schema?: Schema): string[];
}

/** A kind of text, its label shortened where a sample would pass the schema's maxLength. */
function kind(what: string, make: (label: string) => string[]): RealisticText {
  return {
    what,
    samples(label, schema = {}) {
      const max = keyword(schema, 'maxLength') ?? Infinity;
      return make(label).map((sample, i) => {
        let text = sample;
        let cut = label;
        while ([...text].length > max && cut.length > 0) {
          cut = cut.slice(0, Math.max(0, cut.length - ([...text].length - max)));
          text = make(cut)[i]!;
        }
        return text;
      });
    },
  };
}

/**
 * Text a real client sends that short, lower-case ASCII names never try. The interface sets
 * no limits, so a deployment may refuse any of them with 400, but must not alter them.
 * None holds `<`, `>` or `&`: generated bodies cover markup.
 */
export const REALISTIC_TEXTS: RealisticText[] = [
  kind('with surrounding whitespace', (label) => [`  ${label}\t`, `\n\u00a0${label}\u3000 `]),
  kind('in several scripts, with accents', (label) => [
    `${label} Čeština Ελληνικά Русский 日本語 العربية हिन्दी ไทย Café Ñandú`,
    // The same accents as combining marks: they may not be normalised away either.
    `${label} Cafe\u0301 N\u0303andu\u0301 Noe\u0308l`,
  ]),
  kind('with characters outside the Basic Multilingual Plane', (label) => [
    `${label} 🐕 🐈‍⬛ 𝒞𝒶𝓉 𠜎`,
  ]),
  kind('of hundreds to thousands of characters', (label) => [long(label, 300), long(label, 4000)]),
  kind('that is empty', () => ['']),
];

/**
 * Unknown fields a client may send along (a newer client, a typo): the interface does not
 * forbid them, and they must not break a create.
 */
export const UNKNOWN_FIELDS: Record<string, unknown> = {
  colour: 'brown',
  tags: ['small', 'furry'],
  owner: { id: 7, name: 'Ada' },
  legacy: null,
};

/** `length` characters, all in the BMP so that no cut splits a surrogate pair. */
function long(label: string, length: number): string {
  const filler = ' Long text with ü, ñ and ß, as a description pasted from a document.';
  return `${label}${filler.repeat(Math.ceil(length / filler.length))}`.slice(0, length);
}
