import { InvalidArgumentError } from 'commander';
import { FAULT_KINDS, type FaultKind } from '../vocabulary/answer.js';

/** Argument parsers for commander: each refuses a bad value with a line that says why. */

export function parseInteger(value: string): number {
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

export function parsePort(value: string): number {
  const port = parseInteger(value);
  if (port < 0 || port > 65535) throw new InvalidArgumentError('it must be from 0 to 65535.');
  return port;
}

/** Seconds, possibly fractional, as milliseconds. */
export function parseSeconds(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value.trim()))
    throw new InvalidArgumentError('it must be a number of seconds, e.g. 30 or 0.5.');
  const ms = Math.round(Number(value) * 1000);
  if (ms < 1) throw new InvalidArgumentError('it must be more than 0.');
  return ms;
}

/** A size such as `1048576`, `512kb`, `1mb` or `2gb`, in bytes. */
export function parseSize(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?$/i.exec(value.trim());
  if (!match) throw new InvalidArgumentError('it must be a size, e.g. 1048576, 512kb or 1mb.');
  const unit = (match[2] ?? 'b').toLowerCase().replace('i', '');
  const factor = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[unit] ?? 1;
  const bytes = Math.floor(Number(match[1]) * factor);
  if (bytes < 1) throw new InvalidArgumentError('it must be more than 0 bytes.');
  return bytes;
}

/** Milliseconds (`200`) or a range of them (`100-400`), at most two minutes. */
export function parseDelay(value: string): { min: number; max: number } {
  const match = /^(\d+)(?:-(\d+))?$/.exec(value.trim());
  const min = Number(match?.[1]);
  const max = Number(match?.[2] ?? match?.[1]);
  if (!match || max > 120_000)
    throw new InvalidArgumentError(
      'it must be milliseconds, such as 200, or a range such as 100-400 (at most 120000).',
    );
  if (min > max)
    throw new InvalidArgumentError(
      `its minimum (${min}) exceeds its maximum (${max}): write the range low-high, such as ${max}-${min}.`,
    );
  return { min, max };
}

/** An address to listen on: a name or an IP address, never empty (Node would take every address). */
export function parseHost(value: string): string {
  const host = value.trim();
  if (host === '' || /\s/.test(host))
    throw new InvalidArgumentError('it must be an address, such as 127.0.0.1, 0.0.0.0 or ::1.');
  return host;
}

/** A share from 0 to 1. */
export function parseRate(value: string): number {
  const rate = Number(value);
  if (value.trim() === '' || !(rate >= 0 && rate <= 1))
    throw new InvalidArgumentError('it must be a number from 0 to 1, such as 0.05.');
  return rate;
}

/** A percentage, from 0 to 100, such as 80 or 62.5. */
export function parsePercent(value: string): number {
  const percent = Number(value.trim().replace(/%$/, ''));
  if (value.trim() === '' || !(percent >= 0 && percent <= 100))
    throw new InvalidArgumentError('it must be a percentage from 0 to 100, such as 80.');
  return percent;
}

/** Fault kinds, comma-separated. */
export function parseFaultKinds(value: string): FaultKind[] {
  const kinds = value
    .split(',')
    .map((kind) => kind.trim())
    .filter(Boolean);
  const unknown = kinds.filter((kind) => !(FAULT_KINDS as readonly string[]).includes(kind));
  if (kinds.length === 0 || unknown.length > 0)
    throw new InvalidArgumentError(`it takes some of ${FAULT_KINDS.join(', ')}, comma-separated.`);
  return [...new Set(kinds)] as FaultKind[];
}

/**
 * A repeatable option whose values may also come comma-separated (from the environment). An
 * empty value is refused: left to mean "none given", it would silently open the default (the
 * public key, any origin) that the user meant to narrow.
 */
export function collectList(value: string, previous: string[] = []): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new InvalidArgumentError(EMPTY);
  return [...previous, ...items];
}

/** A value that must not be empty (`REDIS_URL=` would otherwise mean this process's memory). */
export function parseGiven(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError(EMPTY);
  return value.trim();
}

const EMPTY =
  'it is empty, which would leave the default in force: give a value, or leave the option (and its variable) unset.';

/** `user:password` (or `scheme=user:password`), repeatable, comma-separated from the environment. */
export function collectBasic(value: string, previous: string[] = []): string[] {
  const pairs = collectList(value);
  if (pairs.some((pair) => !pair.includes(':')))
    throw new InvalidArgumentError('it must be user:password, or scheme=user:password.');
  return [...previous, ...pairs];
}
