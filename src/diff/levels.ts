import { defaultLevels, LEVELS, type Level } from './rules.js';

/** A configuration read, or why it cannot be used (one line). */
export type LevelsReading =
  | { readonly ok: true; readonly levels: ReadonlyMap<string, Level> }
  | { readonly ok: false; readonly problem: string };

/**
 * The rule levels a configuration sets: `{ "rules": { "<rule id>": "breaking" | "warning" |
 * "info" } }`, parsed from JSON or YAML by the caller. An unknown rule or level is refused,
 * naming what is known, so that a typo does not silently keep a default.
 * @example levelsFrom({ rules: { 'response-enum-value-added': 'warning' } })
 */
export function levelsFrom(config: unknown): LevelsReading {
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    return { ok: false, problem: 'it must be an object with a "rules" object' };
  const { rules, ...others } = config as Record<string, unknown>;
  const [unknownKey] = Object.keys(others);
  if (unknownKey !== undefined)
    return { ok: false, problem: `unknown key "${unknownKey}" (it has only "rules")` };
  if (rules === undefined) return { ok: true, levels: new Map() };
  if (typeof rules !== 'object' || rules === null || Array.isArray(rules))
    return { ok: false, problem: '"rules" must map rule ids to levels' };
  const known = defaultLevels();
  const levels = new Map<string, Level>();
  for (const [id, level] of Object.entries(rules)) {
    if (!known.has(id))
      return { ok: false, problem: `no rule is named "${id}" (docs/diff.md lists them)` };
    if (!LEVELS.includes(level as Level))
      return {
        ok: false,
        problem: `rule "${id}": level ${JSON.stringify(level)} is not one of ${LEVELS.join(', ')}`,
      };
    levels.set(id, level as Level);
  }
  return { ok: true, levels };
}

/** Whether a change at `level` fails a run that fails on `failOn` and above. */
export function fails(level: Level, failOn: Level): boolean {
  return LEVELS.indexOf(level) <= LEVELS.indexOf(failOn);
}
