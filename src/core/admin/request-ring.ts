import type { CheckedJson, CheckedList, FaultKind } from '../../vocabulary/answer.js';
import type { MockRequest } from '../../vocabulary/request.js';
import type { AnsweredRequest, LoggedAnswer, OutgoingNote } from './request-log.js';
import type { CredentialPlaces } from './redact.js';

/**
 * The requests of a log, kept field by field in arrays made once, one slot per request: adding
 * one allocates nothing, and keeps only what the request brought (its headers, its body, its
 * answer's headers and body). An object per entry, its times boxed as numbers and the answer
 * object around its headers and body, would be most of what the collector copies on every create:
 * a log of a thousand requests outlives several young-generation collections.
 * @example const ring = new RequestRing(1000); ring.put(0, 1, request); ring.get(0)?.path // '/v1/pets'
 */
export class RequestRing {
  /** The number of the request in each slot; 0 for an empty slot. */
  readonly #ids: Float64Array;
  readonly #ats: Float64Array;
  readonly #durations: Float64Array;
  /** The status answered; 0 for none (a fault that sends no answer). */
  readonly #statuses: Uint16Array;
  readonly #methods: string[];
  readonly #paths: string[];
  readonly #headers: (MockRequest['headers'] | undefined)[];
  readonly #credentials: (CredentialPlaces | undefined)[];
  readonly #bodies: unknown[];
  readonly #bodyNotes: (string | undefined)[];
  readonly #faults: (FaultKind | undefined)[];
  readonly #sessions: (string | undefined)[];
  readonly #outgoing: (OutgoingNote | undefined)[];
  /** The headers of the answer kept; none for a fault, which answers nothing. */
  readonly #answerHeaders: (Readonly<Record<string, string>> | undefined)[];
  readonly #answerBodies: (CheckedJson | CheckedList | undefined)[];
  readonly #answerStarts: (Buffer | undefined)[];
  /** The size of an answer body only the start of which is kept; -1 for none. */
  readonly #answerBytes: Float64Array;

  constructor(readonly capacity: number) {
    const slots = <T>() => new Array<T | undefined>(capacity).fill(undefined);
    this.#ids = new Float64Array(capacity);
    this.#ats = new Float64Array(capacity);
    this.#durations = new Float64Array(capacity);
    this.#statuses = new Uint16Array(capacity);
    this.#methods = new Array<string>(capacity).fill('');
    this.#paths = new Array<string>(capacity).fill('');
    this.#headers = slots();
    this.#credentials = slots();
    this.#bodies = slots();
    this.#bodyNotes = slots();
    this.#faults = slots();
    this.#sessions = slots();
    this.#outgoing = slots();
    this.#answerHeaders = slots();
    this.#answerBodies = slots();
    this.#answerStarts = slots();
    this.#answerBytes = new Float64Array(capacity).fill(-1);
  }

  /** Keeps request number `id` in a slot, in place of what the slot held. */
  put(slot: number, id: number, request: AnsweredRequest): void {
    this.#ids[slot] = id;
    this.#ats[slot] = request.at;
    this.#durations[slot] = request.durationMs;
    this.#statuses[slot] = request.status ?? 0;
    this.#methods[slot] = request.method;
    this.#paths[slot] = request.path;
    this.#headers[slot] = request.headers;
    this.#credentials[slot] = request.credentials;
    this.#bodies[slot] = request.body;
    this.#bodyNotes[slot] = request.bodyNote;
    this.#faults[slot] = request.fault;
    this.#sessions[slot] = request.session;
    this.#outgoing[slot] = request.outgoing;
    const { response } = request;
    this.#answerHeaders[slot] = response?.headers;
    this.#answerBodies[slot] = response?.body;
    this.#answerStarts[slot] = response?.start;
    this.#answerBytes[slot] = response?.bytes ?? -1;
  }

  /** The number of the request a slot holds; 0 for an empty slot. */
  idAt(slot: number): number {
    return this.#ids[slot] ?? 0;
  }

  /** The request a slot holds, as it was added (fields it lacked left out); undefined for an empty slot. */
  get(slot: number): AnsweredRequest | undefined {
    if (!this.#ids[slot]) return undefined;
    const request: AnsweredRequest = {
      method: this.#methods[slot] ?? '',
      path: this.#paths[slot] ?? '',
      durationMs: this.#durations[slot] ?? 0,
      at: this.#ats[slot] ?? 0,
    };
    const status = this.#statuses[slot];
    if (status) request.status = status;
    const headers = this.#headers[slot];
    if (headers) request.headers = headers;
    const credentials = this.#credentials[slot];
    if (credentials) request.credentials = credentials;
    const body = this.#bodies[slot];
    if (body !== undefined) request.body = body;
    const bodyNote = this.#bodyNotes[slot];
    if (bodyNote !== undefined) request.bodyNote = bodyNote;
    const fault = this.#faults[slot];
    if (fault) request.fault = fault;
    const session = this.#sessions[slot];
    if (session !== undefined) request.session = session;
    const outgoing = this.#outgoing[slot];
    if (outgoing) request.outgoing = outgoing;
    const answerHeaders = this.#answerHeaders[slot];
    if (answerHeaders) request.response = this.#answerAt(slot, answerHeaders);
    return request;
  }

  #answerAt(slot: number, headers: Readonly<Record<string, string>>): LoggedAnswer {
    const response: LoggedAnswer = { headers };
    const body = this.#answerBodies[slot];
    if (body) response.body = body;
    const start = this.#answerStarts[slot];
    if (start) response.start = start;
    const bytes = this.#answerBytes[slot] ?? -1;
    if (bytes >= 0) response.bytes = bytes;
    return response;
  }

  /** The columns whose empty slot is `undefined`: what a slot lets go of when emptied. */
  #optionalSlots(): unknown[][] {
    return [
      this.#headers,
      this.#credentials,
      this.#bodies,
      this.#bodyNotes,
      this.#faults,
      this.#sessions,
      this.#outgoing,
      this.#answerHeaders,
      this.#answerBodies,
      this.#answerStarts,
    ];
  }

  /** Empties one slot, letting go of what it held. */
  empty(slot: number): void {
    this.#ids[slot] = 0;
    for (const slots of this.#optionalSlots()) slots[slot] = undefined;
    this.#methods[slot] = '';
    this.#paths[slot] = '';
  }

  /** Empties every slot, letting go of what they held. */
  clear(): void {
    this.#ids.fill(0);
    for (const slots of this.#optionalSlots()) slots.fill(undefined);
    this.#methods.fill('');
    this.#paths.fill('');
  }
}
