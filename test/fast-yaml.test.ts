// A large YAML description is read by js-yaml (ten times faster than `yaml` on OpenAI's 3 MB:
// most of a cold start), and must be read exactly as `yaml` reads it: YAML 1.2, where `yes` and
// dates are strings, anchors and merge keys as `yaml` has them, and the same errors.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fastYaml } from '../src/openapi/fast-yaml.js';
import { loadSpec } from '../src/openapi/load.js';
import { tempFolder } from './temp-folders.js';

/** A document whose example holds `body` (indented under it), as a description carries values. */
function documentWith(body: string): string {
  const indented = body
    .split('\n')
    .map((line) => `                ${line}`)
    .join('\n');
  return `openapi: 3.1.0
info: { title: Values, version: '1' }
paths:
  /values:
    get:
      responses:
        '200':
          description: the values
          content:
            application/json:
              example:
${indented}
`;
}

async function loaded(text: string) {
  const folder = await tempFolder('fast-yaml');
  const path = join(folder, 'openapi.yaml');
  await writeFile(path, text);
  return loadSpec(path, { checkCache: false });
}

function exampleOf(document: unknown): unknown {
  return (document as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths[
    '/values'
  ]!.get!.responses as unknown;
}

/** What `yaml` (YAML 1.2, the reader the mock always had) makes of the text. */
const bySlowReader = (text: string): unknown => parse(text) as unknown;

const SCALARS: Record<string, string> = {
  'booleans of YAML 1.1, strings in 1.2': 'a: yes\nb: no\nc: on\nd: off\ne: y\nf: True\ng: FALSE',
  'dates and times, strings': 'day: 2024-10-01\nstamp: 2001-12-14t21:59:43.10-05:00',
  'quoted and tagged': `a: "yes"\nb: '2024-01-01'\nc: !!str 12\nd: "\\u00e9\\x41"`,
  'integers of the core schema': 'a: 017\nb: 0o17\nc: 0x1F\nd: +12\ne: -0\nf: 12345678901234567890',
  'what the core schema keeps as strings': 'a: 0b11\nb: -0x1F\nc: 1_000\nd: 0O17\ne: 1:20\nf: 0x',
  floats: 'a: .inf\nb: -.Inf\nc: .nan\nd: 1e3\ne: 1.5E-2\nf: .5\ng: 1.\nh: -.5\ni: +1.5e3',
  nulls: 'a: ~\nb: null\nc: Null\nd: NULL\ne:',
  'keys that are not strings': "200: { x: 1 }\n2XX: 2\n1.5: a\ntrue: b\n'null': c",
  'a null key': '~: c\nd: 1',
  'an empty key': ': c\nd: 1',
  'an explicit key': '? [a, b]\n: c',
  'block scalars': 'a: |\n  line\n  two\nb: >-\n  folded\n  text\nc: |+\n  kept\n\n',
  'anchors and aliases': 'base: &base { a: 1 }\ncopy: *base\nlist: [*base, *base]',
  'merge keys': 'base: &base { a: 1 }\nmerged: { <<: *base, b: 2 }\ninline: { <<: { c: 3 } }',
  'a __proto__ key': '__proto__: { polluted: true }\nb: 2',
  'line ends of Windows': 'a: 1\r\nb:\r\n  - x\r\n  - "y"\r\n',
};

describe('a YAML description read fast', () => {
  it.each(Object.entries(SCALARS))('reads %s as the yaml package does', async (_name, body) => {
    const text = documentWith(body);
    const spec = await loaded(text);
    expect(exampleOf(spec.document)).toEqual(exampleOf(bySlowReader(text)));
    expect(Object.getPrototypeOf({})).not.toHaveProperty('polluted');
  });

  it('gives way to the yaml package where the two differ, and reads the rest itself', () => {
    // Where js-yaml reads something else (a Date, an alias shared, "null" for a null key).
    for (const name of ['anchors and aliases', 'merge keys', 'a null key', 'an empty key'])
      expect(fastYaml(documentWith(SCALARS[name]!)), name).toBeUndefined();
    expect(fastYaml(documentWith(SCALARS['dates and times, strings']!))).toEqual(
      bySlowReader(documentWith(SCALARS['dates and times, strings']!)),
    );
  });

  it('reads any plain scalar as the yaml package does', () => {
    const token = fc.oneof(
      fc.stringMatching(/^[-+]?(0[box]?)?[0-9a-fA-F_.]{0,6}([eE][-+]?[0-9]{1,3})?$/),
      fc.constantFrom('~', 'null', 'NULL', 'Null', 'true', 'True', 'TRUE', 'tRUE', 'yes', 'no'),
      fc.constantFrom('.inf', '-.inf', '+.INF', '.NaN', '.nan', '-.nan', '2024-01-01', '1:20'),
    );
    fc.assert(
      fc.property(token, (value) => {
        const text = `openapi: 3.1.0\nvalue: ${value}\n${value}: key\n`;
        const fast = fastYaml(text);
        if (fast === undefined) return; // Not YAML as written (`0x_`), or given way: yaml reads it.
        expect(fast).toEqual(bySlowReader(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves duplicate keys and broken YAML to the yaml package, with its warning and its place', async () => {
    const duplicate = await loaded(documentWith('a: 1\na: 2'));
    expect(duplicate.warnings).toContainEqual(
      expect.stringMatching(/^a duplicate key, the last value is used: .*line 13, column 17/),
    );
    expect(exampleOf(duplicate.document)).toEqual(exampleOf(bySlowReader(documentWith('a: 2'))));
    await expect(loaded(documentWith('a: [1, 2'))).rejects.toThrow(
      /is not valid YAML or JSON: .*at line 13/,
    );
  });
});
