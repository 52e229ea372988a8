// The admin API as the page calls it: same origin, relative URLs (the page is served at the
// admin API's base path, `/__mock/`, wherever the mock is mounted), the key as a bearer token,
// and the session picked, if any, in `Mock-Session`.
import type { components } from '../generated/admin.js';

type Schemas = components['schemas'];
export type RecordedRequest = Schemas['RecordedRequest'];
export type RequestList = Schemas['RequestList'];
export type CollectionList = Schemas['CollectionList'];
export type CollectionRecords = Schemas['CollectionRecords'];
export type Settings = Schemas['Settings'];
export type ErrorBody = Schemas['Error'];
export type ViolationList = Schemas['ViolationList'];
export type FaultKind = NonNullable<Settings['faultKinds']>[number];

/**
 * What `GET /__mock/sessions` lists, as far as the page reads it: the ids. (The endpoint comes
 * with sessions, issue 17; until the admin spec has it, the page shows no picker.)
 */
export interface SessionList {
  sessions: { id: string }[];
}

/** An answer of the admin API other than a success: its status and Error body. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
  ) {
    super(body?.message ?? `The admin API answered ${status}`);
  }
}

/** The mock did not answer at all (stopped, or the network is down). */
export class Unreachable extends Error {}

/** Calls the admin API with one key, for the default state or one session. */
export class AdminClient {
  /** The session whose state the page shows; undefined: the default state. */
  session: string | undefined;

  constructor(readonly key: string) {}

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>('PATCH', path, body);
  }

  async post(path: string): Promise<void> {
    await this.call<unknown>('POST', path);
  }

  async delete(path: string): Promise<void> {
    await this.call<unknown>('DELETE', path);
  }

  /** The answer's status only, for an endpoint that may not exist yet. */
  async status(path: string): Promise<{ status: number; body: unknown }> {
    const res = await this.send('GET', path);
    return { status: res.status, body: res.ok ? await res.json() : undefined };
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.send(method, path, body);
    const text = await res.text();
    if (!res.ok) throw new AdminError(res.status, text ? parsed<ErrorBody>(text) : undefined);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private async send(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.key}` };
    if (this.session !== undefined) headers['Mock-Session'] = this.session;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      return await fetch(path, {
        method,
        headers,
        cache: 'no-store',
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new Unreachable('The mock does not answer: is it still running?');
    }
  }
}

function parsed<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
