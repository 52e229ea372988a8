import { FAULT_KINDS, type FaultKind } from '../../vocabulary/answer.js';
import { errors } from '../../vocabulary/error-catalogue.js';
import type { MockRequest } from '../../vocabulary/request.js';
import type { Operation } from '../../openapi/operations.js';
import { headerValue } from '../headers.js';

export { FAULT_KINDS, type FaultKind };

/** What a request asks of the mock through `Prefer` (Prism's syntax, plus delay, fault and streams). */
export interface Preferences {
  /** Answer this status from the spec. */
  code?: number;
  /** Answer this named example. */
  example?: string;
  /** Generate the body from the schema. */
  dynamic?: boolean;
  /** Wait this many milliseconds before answering. */
  delay?: number;
  /** Play this fault instead of answering. */
  fault?: FaultKind;
  /** A streamed answer sends this many events. */
  events?: number;
  /** A streamed answer waits this many milliseconds between its events. */
  interval?: number;
  /** A streamed answer plays its `fault` after this many events, not before the answer. */
  after?: number;
  /** Send the operation's callbacks this many milliseconds after answering. */
  callbackDelay?: number;
}

/** The most events a streamed answer may be asked for. */
const MAX_EVENTS = 1000;

/** The longest pause between events a streamed answer may be asked for: ten seconds. */
const MAX_INTERVAL_MS = 10_000;

/** The longest delay a request may ask for: two minutes. */
export const MAX_DELAY_MS = 120_000;

const KNOWN = [
  'code',
  'example',
  'dynamic',
  'delay',
  'fault',
  'events',
  'interval',
  'after',
  'callback-delay',
];

/**
 * Reads the preferences of every `Prefer` header of a request (RFC 7240: comma-separated
 * `name=value` pairs, values optionally quoted). Preferences the mock does not know are
 * ignored, as the RFC asks; a known one with a bad value is a 400 that says what is valid.
 * @example readPreferences(request) // for `Prefer: code=404, delay=200` -> { code: 404, delay: 200 }
 */
export function readPreferences(
  request: Pick<MockRequest, 'headers'>,
  /** The operation asked, whose documented statuses the 400 of a bad `code=` lists. */
  operation?: Pick<Operation, 'operationId' | 'responses'>,
): Preferences {
  // Repeated Prefer headers are joined with commas, as RFC 9110 allows for list headers.
  const header = headerValue(request, 'prefer');
  if (header === undefined) return {};
  const preferences: Preferences = {};
  for (const part of header.split(/[,;]/)) {
    const match = /^\s*([\w-]+)\s*(?:=\s*(?:"([^"]*)"|([^\s"]*)))?\s*$/.exec(part);
    if (!match) continue;
    const name = (match[1] ?? '').toLowerCase();
    const value = match[2] ?? match[3] ?? '';
    if (!KNOWN.includes(name)) continue;
    set(preferences, name, value, operation);
  }
  if (preferences.after !== undefined && preferences.fault === undefined)
    refuse('Prefer: after= says when a fault breaks a stream: fault=reset; after=2');
  return preferences;
}

function set(
  preferences: Preferences,
  name: string,
  value: string,
  operation: Pick<Operation, 'operationId' | 'responses'> | undefined,
): void {
  switch (name) {
    case 'code':
      if (!/^[1-5]\d\d$/.test(value))
        refuse(
          `Prefer: code=${value} is not an HTTP status` +
            (operation
              ? `: ${operation.operationId} documents ${Object.keys(operation.responses).join(', ')}`
              : ''),
        );
      preferences.code = Number(value);
      return;
    case 'example':
      if (value === '') refuse('Prefer: example= needs the name of an example');
      preferences.example = value;
      return;
    case 'dynamic':
      if (value !== 'true' && value !== 'false') refuse('Prefer: dynamic takes true or false');
      preferences.dynamic = value === 'true';
      return;
    case 'delay': {
      if (!/^\d+$/.test(value) || Number(value) > MAX_DELAY_MS)
        refuse(`Prefer: delay takes milliseconds from 0 to ${MAX_DELAY_MS}`);
      preferences.delay = Number(value);
      return;
    }
    case 'callback-delay': {
      if (!/^\d+$/.test(value) || Number(value) > MAX_DELAY_MS)
        refuse(`Prefer: callback-delay takes milliseconds from 0 to ${MAX_DELAY_MS}`);
      preferences.callbackDelay = Number(value);
      return;
    }
    case 'fault':
      if (!(FAULT_KINDS as readonly string[]).includes(value))
        refuse(`Prefer: fault takes ${FAULT_KINDS.join(', ')}, not "${value}"`);
      preferences.fault = value as FaultKind;
      return;
    case 'events':
      preferences.events = count(value, MAX_EVENTS, 'Prefer: events takes a count');
      return;
    case 'interval':
      preferences.interval = count(value, MAX_INTERVAL_MS, 'Prefer: interval takes milliseconds');
      return;
    case 'after':
      preferences.after = count(value, MAX_EVENTS, 'Prefer: after takes a count of events');
  }
}

/** A whole number from 0 to `max`, or a 400 that says so. */
function count(value: string, max: number, problem: string): number {
  if (!/^\d+$/.test(value) || Number(value) > max) refuse(`${problem} from 0 to ${max}`);
  return Number(value);
}

function refuse(problem: string): never {
  throw errors.invalidPreference(problem);
}
