/**
 * The catalogue of diff rules: every change `petstore-kit diff` reports has one of these ids,
 * and its default level depends on who reads the message that changed.
 *
 * An operation's request is read by the API, its answers by the client; in a callback or a
 * webhook the API sends the request and reads the client's answer, so there the directions
 * swap. A change that makes a message's reader see something it was never promised is
 * breaking: the API reading less than before, or the client reading more.
 */

/** How much a change matters: `breaking` fails a CI run by default. */
export type Level = 'breaking' | 'warning' | 'info';

export const LEVELS: readonly Level[] = ['breaking', 'warning', 'info'];

/** Who reads a message: the API (requests, callback answers) or the client. */
export type Reader = 'api' | 'client';

/** The part of the API a message belongs to, and so the first word of its rule ids. */
export type Part =
  | 'request'
  | 'response'
  | 'callback-request'
  | 'callback-response'
  | 'webhook-request'
  | 'webhook-response';

/** @internal for its tests: no part of the package's surface */
export const PARTS: readonly Part[] = [
  'request',
  'response',
  'callback-request',
  'callback-response',
  'webhook-request',
  'webhook-response',
];

/** Requests of operations, and answers to callbacks and webhooks, are read by the API. */
export function readerOf(part: Part): Reader {
  return part === 'request' || part === 'callback-response' || part === 'webhook-response'
    ? 'api'
    : 'client';
}

/**
 * What changed in a message, with its level when the API reads it and when the client does.
 * The rule id is the part and the kind: `request-enum-value-removed`.
 * @internal for its tests: no part of the package's surface
 */
export const MESSAGE_KINDS = {
  // Parameters.
  'required-parameter-added': { api: 'breaking', client: 'info' },
  'optional-parameter-added': { api: 'info', client: 'info' },
  'parameter-removed': { api: 'warning', client: 'breaking' },
  'parameter-became-required': { api: 'breaking', client: 'info' },
  'parameter-became-optional': { api: 'info', client: 'breaking' },
  'parameter-style-changed': { api: 'breaking', client: 'breaking' },
  // Bodies and their media types.
  'required-body-added': { api: 'breaking', client: 'info' },
  'optional-body-added': { api: 'info', client: 'info' },
  'body-removed': { api: 'warning', client: 'breaking' },
  'body-became-required': { api: 'breaking', client: 'info' },
  'body-became-optional': { api: 'info', client: 'breaking' },
  'media-type-removed': { api: 'breaking', client: 'breaking' },
  'media-type-added': { api: 'info', client: 'info' },
  // Statuses and headers of answers.
  'success-status-removed': { api: 'warning', client: 'breaking' },
  'success-status-added': { api: 'info', client: 'warning' },
  'status-removed': { api: 'info', client: 'info' },
  'status-added': { api: 'info', client: 'info' },
  'header-removed': { api: 'info', client: 'warning' },
  // A reader that relied on a header promised as required fails without it.
  'required-header-removed': { api: 'info', client: 'breaking' },
  'required-header-added': { api: 'breaking', client: 'info' },
  'header-became-required': { api: 'breaking', client: 'info' },
  'header-became-optional': { api: 'info', client: 'breaking' },
  // Schemas.
  'required-property-added': { api: 'breaking', client: 'info' },
  'property-became-optional': { api: 'info', client: 'breaking' },
  'required-property-removed': { api: 'info', client: 'breaking' },
  'optional-property-removed': { api: 'warning', client: 'warning' },
  'property-added': { api: 'info', client: 'info' },
  'type-narrowed': { api: 'breaking', client: 'info' },
  'type-widened': { api: 'info', client: 'breaking' },
  'type-changed': { api: 'breaking', client: 'breaking' },
  'nullable-added': { api: 'info', client: 'breaking' },
  'nullable-removed': { api: 'breaking', client: 'info' },
  'enum-value-removed': { api: 'breaking', client: 'info' },
  // A client generated with closed enums fails on a value it does not know: docs/diff.md.
  'enum-value-added': { api: 'info', client: 'breaking' },
  'enum-added': { api: 'breaking', client: 'info' },
  'enum-removed': { api: 'info', client: 'breaking' },
  'bound-tightened': { api: 'breaking', client: 'info' },
  // Clients seldom check the bounds of what they read: reported, not failed.
  'bound-loosened': { api: 'info', client: 'warning' },
  'pattern-added': { api: 'breaking', client: 'info' },
  'pattern-changed': { api: 'breaking', client: 'warning' },
  'pattern-removed': { api: 'info', client: 'warning' },
  'format-changed': { api: 'warning', client: 'warning' },
  'additional-properties-closed': { api: 'breaking', client: 'info' },
  'additional-properties-opened': { api: 'info', client: 'warning' },
  'variant-removed': { api: 'breaking', client: 'info' },
  'variant-added': { api: 'info', client: 'breaking' },
} as const satisfies Record<string, Record<Reader, Level>>;

export type MessageKind = keyof typeof MESSAGE_KINDS;

/**
 * Rules about the API as a whole and its operations, whatever the direction.
 * @internal for its tests: no part of the package's surface
 */
export const API_RULES = {
  'path-removed': 'breaking',
  'path-added': 'info',
  'operation-removed': 'breaking',
  'operation-added': 'info',
  'operation-deprecated': 'warning',
  'operation-id-changed': 'warning',
  'base-path-changed': 'breaking',
  'security-requirement-added': 'breaking',
  'security-scheme-changed': 'breaking',
  'security-scope-added': 'breaking',
  'security-requirement-removed': 'info',
  // The client receives a request it was never written to handle.
  'callback-added': 'warning',
  // A client written to receive it never does: what it waits for (a payment settled) never comes.
  'callback-removed': 'breaking',
  'webhook-added': 'warning',
  // Subscribed receivers lose it (oasdiff counts it as breaking too).
  'webhook-removed': 'breaking',
} as const satisfies Record<string, Level>;

/** Every rule id, with its default level. */
export function defaultLevels(): Map<string, Level> {
  const levels = new Map<string, Level>(Object.entries(API_RULES));
  for (const part of PARTS)
    for (const [kind, byReader] of Object.entries(MESSAGE_KINDS))
      levels.set(`${part}-${kind}`, byReader[readerOf(part)]);
  return levels;
}

/** The id of a change of kind `kind` in a message of `part`. */
export function messageRuleId(part: Part, kind: MessageKind): string {
  return `${part}-${kind}`;
}
