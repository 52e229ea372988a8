/** One credential close to the valid one, which must still be refused. */
interface NearMissProbe {
  /** The credential sent in place of the valid one. */
  value: string;
  /** How it differs from the valid key, for the failure message (the key itself stays masked). */
  shape: string;
}

/** A kind of near-miss, and its probes derived from one key. */
export interface NearMiss {
  /** As a rule name reads it: "the key with characters added after". */
  what: string;
  probes: NearMissProbe[];
}

/**
 * Credentials close to `key` that a careless check accepts: an empty one, the key inside a
 * longer one, a proper part of it, the key in other letter case, whitespace inside it.
 * Kinds that do not apply to this key (no letters, one character) are left out. `noun` and
 * `subject` name what the key is: a bearer token and "the key", a password and "the password".
 * @example nearMisses('ab').map((m) => m.what) // ['an empty bearer token', 'the key with characters added before', ...]
 */
export function nearMisses(
  key: string,
  { noun, subject }: { noun: string; subject: string } = {
    noun: 'bearer token',
    subject: 'the key',
  },
): NearMiss[] {
  const probe = (value: string, shape: string): NearMissProbe => ({ value, shape });
  const middle = Math.floor(key.length / 2);
  const kinds: NearMiss[] = [
    { what: `an empty ${noun}`, probes: [probe('', `an empty ${noun}`)] },
    {
      what: `${subject} with characters added before`,
      probes: [probe(`0${key}`, '"0" + key')],
    },
    {
      what: `${subject} with characters added after`,
      probes: [probe(`${key}0`, 'key + "0"')],
    },
    {
      // Of a one-character key, the only proper part is the empty token, tried above.
      what: `a proper part of ${subject}`,
      probes:
        key.length < 2
          ? []
          : [
              probe(key.slice(0, -1), 'the key without its last character'),
              probe(key.slice(1), 'the key without its first character'),
            ],
    },
    {
      what: `${subject} in other letter case`,
      probes: [
        probe(key.toUpperCase(), 'the key upper-cased'),
        probe(key.toLowerCase(), 'the key lower-cased'),
        probe(swapCase(key), 'the key with each letter in the other case'),
      ],
    },
    {
      // Whitespace around the token is the plain form (HTTP strips it); inside, it is another token.
      what: `${subject} with whitespace inside it`,
      probes:
        key.length < 2
          ? []
          : [
              probe(
                `${key.slice(0, middle)} ${key.slice(middle)}`,
                `a space after character ${middle}`,
              ),
              probe(
                `${key.slice(0, middle)}\t${key.slice(middle)}`,
                `a tab after character ${middle}`,
              ),
              // HTTP strips spaces and tabs around a value, not a no-break space: a server's
              // trim() that does is accepting another token.
              probe(`${key}\u00a0`, 'a no-break space after the key'),
            ],
    },
  ];
  // A variant equal to the key (upper-casing a key without letters) is no near-miss.
  return kinds
    .map(({ what, probes }) => ({
      what,
      probes: unique(probes).filter((probe) => probe.value !== key),
    }))
    .filter(({ probes }) => probes.length > 0);
}

function swapCase(text: string): string {
  return [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

function unique(probes: NearMissProbe[]): NearMissProbe[] {
  const seen = new Set<string>();
  return probes.filter((probe) => !seen.has(probe.value) && seen.add(probe.value));
}
