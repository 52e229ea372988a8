import { InvalidArgumentError } from 'commander';

/**
 * Argument parsers for commander, for the flags of commands other than the mock's (whose
 * options are checked by validateOptions): each refuses a bad value with a line that says why.
 */

function parseInteger(value: string): number {
  if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('it must be a whole number.');
  return Number(value);
}

export function parseCount(value: string): number {
  const count = parseInteger(value);
  if (count < 0) throw new InvalidArgumentError('it must be 0 or more.');
  return count;
}

export function parsePositive(value: string): number {
  const count = parseInteger(value);
  if (count < 1) throw new InvalidArgumentError('it must be 1 or more.');
  return count;
}

/** A percentage, from 0 to 100, such as 80 or 62.5. */
export function parsePercent(value: string): number {
  const percent = Number(value.trim().replace(/%$/, ''));
  if (value.trim() === '' || !(percent >= 0 && percent <= 100))
    throw new InvalidArgumentError('it must be a percentage from 0 to 100, such as 80.');
  return percent;
}
