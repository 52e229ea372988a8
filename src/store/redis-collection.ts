// A collection of the Redis store: every read and write one script (redis-scripts.ts).
import { randomUUID } from 'node:crypto';
import { deepFreeze, jsonOf, keyOf, withId } from './records.js';
import { CREATE, GET, LIST, REMOVE, UPDATE } from './redis-scripts.js';
import { RETRY_AFTER_SECONDS, type StateAccess } from './redis-shared.js';
import {
  MAX_INTEGER_ID,
  StoreFullError,
  StoreIdsExhaustedError,
  StoreKeyTakenError,
  StoreUnavailableError,
  type Collection,
  type CollectionDescriptor,
  type RecordId,
  type StoredRecord,
} from './store.js';

/** How often an update whose record another replica keeps changing is tried before it gives up. */
const UPDATE_ATTEMPTS = 100;

/** A collection of a state: its records in a hash, their order in a sorted set. */
export class RedisCollection implements Collection {
  readonly #name: string;
  /**
   * The records of the last list, by their JSON as Redis holds it: a record read again
   * unchanged is the object read before, so the caches the answers keep by record (its checked
   * JSON) hold across requests, as they do with the memory store. A changed record has new
   * JSON, and so is read anew; what the last list no longer held is let go.
   */
  #decoded = new Map<string, StoredRecord>();

  constructor(
    readonly descriptor: CollectionDescriptor,
    private readonly state: StateAccess,
  ) {
    this.#name = encodeURIComponent(descriptor.name);
  }

  async list(): Promise<readonly StoredRecord[]> {
    const jsons = (await this.state.run(LIST, [this.#name], 'read')) as (string | null)[];
    const decoded = new Map<string, StoredRecord>();
    const records: StoredRecord[] = [];
    for (const json of jsons) {
      if (typeof json !== 'string') continue;
      const record = this.#decoded.get(json) ?? parse(json);
      decoded.set(json, record);
      records.push(record);
    }
    this.#decoded = decoded;
    return records;
  }

  /** The records as Redis holds them, their JSON: a whole list is sent from them, none parsed. */
  async texts(): Promise<readonly string[]> {
    const jsons = (await this.state.run(LIST, [this.#name], 'read')) as (string | null)[];
    return jsons.filter((json): json is string => typeof json === 'string');
  }

  async get(id: RecordId): Promise<StoredRecord | undefined> {
    const json = await this.state.run(GET, [this.#name, this.#field(id)], 'read');
    return typeof json === 'string' ? (this.#decoded.get(json) ?? parse(json)) : undefined;
  }

  async create(
    fields: Readonly<Record<string, unknown>>,
    chosen?: RecordId,
  ): Promise<StoredRecord> {
    const descriptor = this.descriptor;
    if (chosen === undefined && descriptor.idKind === 'integer') {
      // Redis picks the id: the record's JSON goes as the parts around it, split where a
      // placeholder no field can hold stands (the id may be nested, after other fields).
      const placeholder = JSON.stringify(randomUUID());
      const json = jsonOf(withId(descriptor, JSON.parse(placeholder) as string, fields));
      const at = json.indexOf(placeholder);
      const parts = [json.slice(0, at), json.slice(at + placeholder.length)];
      const reply = await this.#create(['auto', '', ...parts, String(MAX_INTEGER_ID)]);
      if (reply[0] === 'exhausted') throw new StoreIdsExhaustedError(descriptor.name);
      return withId(descriptor, Number(reply[1]), fields);
    }
    for (let attempt = 0; ; attempt++) {
      const id = chosen === undefined ? randomUUID() : keyOf(descriptor, chosen);
      if (typeof id === 'number' && !Number.isSafeInteger(id))
        throw new TypeError(`${descriptor.name}: ${String(chosen)} is not an integer id`);
      const record = withId(descriptor, id, fields);
      const mode = typeof id === 'number' ? 'int' : 'str';
      const reply = await this.#create([
        mode,
        String(id),
        JSON.stringify(record),
        '',
        String(MAX_INTEGER_ID),
      ]);
      if (reply[0] === 'ok') return record;
      if (reply[0] === 'exhausted') throw new StoreIdsExhaustedError(descriptor.name);
      if (chosen !== undefined)
        throw new StoreKeyTakenError(descriptor.name, descriptor.idProperty, id);
      // A UUID taken already: as likely as winning a lottery twice, but then another one.
      if (attempt > 3) throw new Error(`${descriptor.name}: no free UUID after ${attempt} tries`);
    }
  }

  /**
   * `change` runs here, on a record read from Redis; the write is a compare-and-set, so a
   * write from another replica in between makes it run again on the newer record (it must
   * depend on nothing but the record it is given). This process's own updates of one record
   * queue instead, so they never race each other.
   */
  async update(
    id: RecordId,
    change: (current: StoredRecord) => Readonly<Record<string, unknown>>,
  ): Promise<StoredRecord | undefined> {
    const key = keyOf(this.descriptor, id);
    const field = String(key);
    return this.#queued(field, async () => {
      let current = await this.state.run(GET, [this.#name, field], 'read');
      for (let attempt = 1; typeof current === 'string'; attempt++) {
        const record = withId(this.descriptor, key, change(parse(current)));
        const reply = (await this.state.run(
          UPDATE,
          [this.#name, field, current, JSON.stringify(record), ...this.#limitArgs()],
          'write',
        )) as [string, string?];
        if (reply[0] === 'ok') return record;
        if (reply[0] === 'full') throw this.#full(reply[1]);
        if (reply[0] === 'gone') return undefined;
        if (attempt >= UPDATE_ATTEMPTS)
          throw new StoreUnavailableError(
            `${this.descriptor.name} ${field} was changed by other writers ${attempt} times while this update was being made`,
            RETRY_AFTER_SECONDS,
          );
        current = reply[1];
      }
      return undefined;
    });
  }

  async remove(id: RecordId): Promise<boolean> {
    return Number(await this.state.run(REMOVE, [this.#name, this.#field(id)], 'write')) === 1;
  }

  async #create(parts: string[]): Promise<[string, string?]> {
    const reply = (await this.state.run(
      CREATE,
      [this.#name, ...parts, ...this.#limitArgs()],
      'write',
    )) as [string, string?];
    if (reply[0] === 'full') throw this.#full(reply[1]);
    return reply;
  }

  #field(id: RecordId): string {
    return String(keyOf(this.descriptor, id));
  }

  /** The limits as the scripts take them: -1 for none. */
  #limitArgs(): [number, number] {
    const { maxRecords, maxBytes } = this.state.settings.limits;
    return [
      Number.isFinite(maxRecords) ? maxRecords : -1,
      Number.isFinite(maxBytes) ? maxBytes : -1,
    ];
  }

  #full(limit: string | undefined): StoreFullError {
    const which = limit === 'maxBytes' ? 'maxBytes' : 'maxRecords';
    return new StoreFullError(which, this.state.settings.limits[which]);
  }

  async #queued<T>(field: string, task: () => Promise<T>): Promise<T> {
    const updating = this.state.settings.updating;
    const key = `${this.state.keys.state}\n${this.#name}\n${field}`;
    const before = updating.get(key);
    const run = before ? before.then(task, task) : task();
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    updating.set(key, settled);
    void settled.then(() => {
      if (updating.get(key) === settled) updating.delete(key);
    });
    return run;
  }
}

function parse(json: string): StoredRecord {
  return deepFreeze(JSON.parse(json) as StoredRecord);
}
