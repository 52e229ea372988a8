import { InvalidArgumentError } from 'commander';

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

/** A repeatable option whose values may also come comma-separated (from the environment). */
export function collectList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  ];
}
