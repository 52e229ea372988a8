// The records of one collection as UTF-8 bytes outside V8's heap, by id, in order: a record
// costs at most about twice its JSON in memory.
import { ChunkTexts } from '../vocabulary/texts.js';
import { writeUtf8 } from '../vocabulary/utf8.js';
import type { RecordId } from './store.js';

/** The first chunk a collection writes to; each next one is twice the last, up to CHUNK_BYTES. */
const FIRST_CHUNK_BYTES = 16 * 1024;
/** The chunks records are appended to, once a collection has grown. */
const CHUNK_BYTES = 1024 * 1024;
/** Bytes of replaced or deleted records below which nothing is compacted. */
const COMPACT_FROM_BYTES = 256 * 1024;
/** Places of deleted records below which none are closed up. */
const COMPACT_FROM_SLOTS = 4096;
/** A slot whose record was deleted: no JSON text is empty. */
const DEAD = 0;
/** Written after each record: records stored one after the other are a list's body as it is. */
const COMMA = 0x2c;

/**
 * The records of one collection, each kept as its JSON's UTF-8 bytes in chunks appended to and
 * never written again where they hold a record, in the order the records were made: each a
 * slot (its chunk, start and length in typed arrays), found by id: a small integer id (the
 * ids a collection hands out in order) in a typed array, any other through a map.
 * A replaced record is appended and takes its slot; a deleted one leaves its slot empty; when
 * the bytes no record holds any more outweigh the records', the live ones are copied to new
 * chunks (`compact`). A copy (a snapshot, a session, a reset mark) shares the chunks and copies
 * the slots; a list (`texts`) shares the slots until the next write. Reads as a `Map` of
 * texts, oldest first.
 * @example
 * const records = new RecordArena();
 * records.set(1, '{"id":1}');
 * records.get(1); // '{"id":1}'
 */
export class RecordArena implements Iterable<[RecordId, string]> {
  #chunks: Buffer[] = [];
  /** The chunk appended to: this arena's own, none shared with a copy. */
  #tail: Buffer | undefined;
  #used = 0;
  #nextChunk = FIRST_CHUNK_BYTES;
  #chunkOf: Uint32Array = new Uint32Array(0);
  #starts: Uint32Array = new Uint32Array(0);
  #lengths: Uint32Array = new Uint32Array(0);
  /** Slots in use, deleted ones included. */
  #slots = 0;
  #deadSlots = 0;
  /** The id of each slot, deleted ones' included. */
  #ids: RecordId[] = [];
  /**
   * The slot + 1 (0: none) of each integer id below its length: a create's look-ups without
   * hashing, where a map of a few hundred thousand ids cost 2 % of its CPU (decision 067).
   */
  #smallIds = new Int32Array(0);
  /** The slot of every other id. */
  readonly #otherIds = new Map<RecordId, number>();
  #liveBytes = 0;
  /** Bytes of the chunks that no record of this arena holds any more. */
  #deadBytes = 0;
  /** The list of the records as they are, shared until the next write. */
  #texts: ChunkTexts | undefined;
  /** Whether the slots are shared with `#texts`: changing one copies them first. */
  #lent = false;

  get size(): number {
    return this.#slots - this.#deadSlots;
  }

  /** The UTF-8 bytes of the records' JSON, all together. */
  get byteLength(): number {
    return this.#liveBytes;
  }

  has(id: RecordId): boolean {
    return this.#slotOf(id) !== undefined;
  }

  get(id: RecordId): string | undefined {
    const slot = this.#slotOf(id);
    return slot === undefined ? undefined : this.#textAt(slot);
  }

  /** The UTF-8 bytes of the record's JSON, or undefined when there is none with this id. */
  byteLengthOf(id: RecordId): number | undefined {
    const slot = this.#slotOf(id);
    return slot === undefined ? undefined : this.#lengths[slot];
  }

  /**
   * Keeps `json` as the record with this id: in the place of the record it replaces, else last.
   * @param bytes the UTF-8 bytes of `json`, when the caller has counted them.
   */
  set(id: RecordId, json: string, bytes = Buffer.byteLength(json)): this {
    this.put(id, json, bytes);
    return this;
  }

  /**
   * `set`, telling what it replaced: the UTF-8 bytes of the record that had this id, or
   * undefined when there was none (one look-up of the id, where `byteLengthOf` and `set` take two).
   */
  put(id: RecordId, json: string, bytes = Buffer.byteLength(json)): number | undefined {
    if (bytes === 0) throw new TypeError('A record is never an empty text');
    const slot = this.#slotOf(id);
    let replaced: number | undefined;
    if (slot === undefined) {
      this.#grow();
      this.#write(this.#slots, json, bytes);
      this.#setSlot(id, this.#slots++);
    } else {
      this.#ownSlots();
      replaced = this.#lengths[slot] as number;
      this.#write(slot, json, bytes);
      this.#deadBytes += replaced;
      this.#liveBytes -= replaced;
    }
    this.#texts = undefined;
    this.#compactIfWasteful();
    return replaced;
  }

  delete(id: RecordId): boolean {
    const slot = this.#slotOf(id);
    if (slot === undefined) return false;
    this.#ownSlots();
    const bytes = this.#lengths[slot] as number;
    this.#liveBytes -= bytes;
    this.#deadBytes += bytes;
    this.#lengths[slot] = DEAD;
    this.#deadSlots++;
    if (this.#isSmall(id)) this.#smallIds[id as number] = 0;
    else this.#otherIds.delete(id);
    this.#texts = undefined;
    this.#compactIfWasteful();
    return true;
  }

  /**
   * Every record's JSON, oldest first, as a list that later writes leave as it is: the same
   * list until the next write, sharing the arena's memory.
   */
  texts(): ChunkTexts {
    if (this.#texts) return this.#texts;
    if (this.#deadSlots === 0) {
      this.#lent = true;
      this.#texts = new ChunkTexts(
        this.#chunks.slice(),
        this.#chunkOf.subarray(0, this.#slots),
        this.#starts.subarray(0, this.#slots),
        this.#lengths.subarray(0, this.#slots),
      );
    } else {
      const count = this.size;
      const chunkOf = new Uint32Array(count);
      const starts = new Uint32Array(count);
      const lengths = new Uint32Array(count);
      // The live slots between two deleted ones, a run at a time: a few copies for a few deletes.
      let at = 0;
      let from = -1;
      for (let slot = 0; slot <= this.#slots; slot++) {
        const live = slot < this.#slots && this.#lengths[slot] !== DEAD;
        if (live && from < 0) from = slot;
        if (live || from < 0) continue;
        chunkOf.set(this.#chunkOf.subarray(from, slot), at);
        starts.set(this.#starts.subarray(from, slot), at);
        lengths.set(this.#lengths.subarray(from, slot), at);
        at += slot - from;
        from = -1;
      }
      this.#texts = new ChunkTexts(this.#chunks.slice(), chunkOf, starts, lengths);
    }
    return this.#texts;
  }

  /** A copy that later writes to either leave alone: the chunks are shared, the slots copied. */
  copy(): RecordArena {
    const copy = new RecordArena();
    copy.#chunks = this.#chunks.slice();
    copy.#chunkOf = this.#chunkOf.slice(0, this.#slots);
    copy.#starts = this.#starts.slice(0, this.#slots);
    copy.#lengths = this.#lengths.slice(0, this.#slots);
    copy.#slots = this.#slots;
    copy.#deadSlots = this.#deadSlots;
    copy.#ids = this.#ids.slice(0, this.#slots);
    copy.#smallIds = this.#smallIds.slice();
    for (const [id, slot] of this.#otherIds) copy.#otherIds.set(id, slot);
    copy.#liveBytes = this.#liveBytes;
    copy.#deadBytes = this.#deadBytes;
    copy.#nextChunk = this.#nextChunk;
    return copy;
  }

  /**
   * Copies the live records to new chunks, in order, and closes up the slots of deleted ones:
   * what this arena no longer holds is left to the collector (or to the copies that hold it).
   */
  compact(): void {
    const chunks = this.#chunks;
    const chunkOf = this.#chunkOf;
    const starts = this.#starts;
    const lengths = this.#lengths;
    const ids = this.#ids;
    const slots = this.#slots;
    const size = this.size;
    this.#chunks = [];
    this.#tail = undefined;
    this.#used = 0;
    // Chunks as large as the records need, up to the usual size.
    this.#nextChunk = Math.min(CHUNK_BYTES, Math.max(FIRST_CHUNK_BYTES, this.#liveBytes + size));
    const capacity = Math.max(16, size);
    this.#chunkOf = new Uint32Array(capacity);
    this.#starts = new Uint32Array(capacity);
    this.#lengths = new Uint32Array(capacity);
    this.#lent = false;
    this.#texts = undefined;
    this.#slots = 0;
    this.#deadSlots = 0;
    this.#ids = [];
    this.#liveBytes = 0;
    this.#deadBytes = 0;
    // Records stored one after the other, and placed one after the other, go in one copy.
    const run = { from: undefined as Buffer | undefined, start: 0, end: 0, to: chunks[0], at: 0 };
    const flush = () => {
      if (run.from) run.from.copy(run.to as Buffer, run.at, run.start, run.end);
    };
    for (let slot = 0; slot < slots; slot++) {
      const bytes = lengths[slot] as number;
      if (bytes === DEAD) continue;
      const id = ids[slot] as RecordId;
      const start = starts[slot] as number;
      const from = chunks[chunkOf[slot] as number] as Buffer;
      // The record and its comma.
      const at = this.#roomFor(bytes + 1);
      const follows =
        run.from === from &&
        run.end === start &&
        run.to === this.#tail &&
        run.at + (run.end - run.start) === at;
      if (follows) run.end = start + bytes + 1;
      else {
        flush();
        Object.assign(run, { from, start, end: start + bytes + 1, to: this.#tail, at });
      }
      this.#place(this.#slots, at, bytes);
      this.#setSlot(id, this.#slots++);
    }
    flush();
  }

  /** The ids, oldest first: the slots' order (a replaced record keeps its slot). */
  *keys(): IterableIterator<RecordId> {
    for (let slot = 0; slot < this.#slots; slot++)
      if (this.#lengths[slot] !== DEAD) yield this.#ids[slot] as RecordId;
  }

  *values(): IterableIterator<string> {
    for (let slot = 0; slot < this.#slots; slot++)
      if (this.#lengths[slot] !== DEAD) yield this.#textAt(slot);
  }

  *entries(): IterableIterator<[RecordId, string]> {
    for (let slot = 0; slot < this.#slots; slot++)
      if (this.#lengths[slot] !== DEAD) yield [this.#ids[slot] as RecordId, this.#textAt(slot)];
  }

  [Symbol.iterator](): IterableIterator<[RecordId, string]> {
    return this.entries();
  }

  /** Whether the id is one the typed array holds: an integer below its length. */
  #isSmall(id: RecordId): boolean {
    return typeof id === 'number' && id >= 0 && id < this.#smallIds.length && Number.isInteger(id);
  }

  #slotOf(id: RecordId): number | undefined {
    if (!this.#isSmall(id)) return this.#otherIds.get(id);
    const slot = this.#smallIds[id as number] as number;
    return slot === 0 ? undefined : slot - 1;
  }

  /** Makes `slot` the id's: found by it, and its id kept for the slot. */
  #setSlot(id: RecordId, slot: number): void {
    this.#ids[slot] = id;
    if (typeof id === 'number' && id >= this.#smallIds.length) this.#growSmallIds(id);
    if (this.#isSmall(id)) this.#smallIds[id as number] = slot + 1;
    else this.#otherIds.set(id, slot);
  }

  /**
   * Makes the typed array reach `id` when the ids are dense enough for it (below twice the
   * slots, and a few thousand), moving there the integer ids the map held below its new length.
   */
  #growSmallIds(id: number): void {
    const most = 2 * (this.#slots + 1024);
    if (!Number.isInteger(id) || id < 0 || id >= most) return;
    let length = Math.max(1024, this.#smallIds.length);
    while (length <= id) length *= 2;
    const bigger = new Int32Array(Math.min(length, most));
    bigger.set(this.#smallIds);
    for (const [other, slot] of this.#otherIds)
      if (
        typeof other === 'number' &&
        other >= 0 &&
        other < bigger.length &&
        Number.isInteger(other)
      ) {
        bigger[other] = slot + 1;
        this.#otherIds.delete(other);
      }
    this.#smallIds = bigger;
  }

  #textAt(slot: number): string {
    const start = this.#starts[slot] as number;
    const chunk = this.#chunks[this.#chunkOf[slot] as number] as Buffer;
    return chunk.toString('utf8', start, start + (this.#lengths[slot] as number));
  }

  /** Appends `json` and its comma (ChunkTexts) and points `slot` at it. */
  #write(slot: number, json: string, bytes: number): void {
    const at = this.#roomFor(bytes + 1);
    const tail = this.#tail as Buffer;
    const written = writeUtf8(tail, json, at, bytes);
    if (written !== bytes) throw new RangeError(`${bytes} bytes counted, ${written} written`);
    tail[at + bytes] = COMMA;
    this.#place(slot, at, bytes);
  }

  #place(slot: number, at: number, bytes: number): void {
    this.#chunkOf[slot] = this.#chunks.length - 1;
    this.#starts[slot] = at;
    this.#lengths[slot] = bytes;
    this.#used = at + bytes + 1;
    this.#liveBytes += bytes;
  }

  /** Where in the tail `bytes` go, a new tail made when they do not fit in this one. */
  #roomFor(bytes: number): number {
    if (this.#tail && this.#used + bytes <= this.#tail.length) return this.#used;
    const size = Math.max(bytes, this.#nextChunk);
    this.#nextChunk = Math.min(CHUNK_BYTES, this.#nextChunk * 2);
    // Of its own (never from Node's shared pool): a chunk lives as long as its records.
    this.#tail = Buffer.allocUnsafeSlow(size);
    this.#chunks.push(this.#tail);
    this.#used = 0;
    return 0;
  }

  /** Room for one more slot. */
  #grow(): void {
    // A list lent the slots reads only those it was lent: the ones after are free to fill.
    if (this.#slots < this.#lengths.length) return;
    const capacity = Math.max(16, Math.ceil(this.#lengths.length * 1.5));
    this.#chunkOf = grown(this.#chunkOf, capacity);
    this.#starts = grown(this.#starts, capacity);
    this.#lengths = grown(this.#lengths, capacity);
    this.#lent = false;
  }

  /** Slots of its own, before one is changed: a list lent them may be reading them. */
  #ownSlots(): void {
    if (!this.#lent) return;
    this.#chunkOf = this.#chunkOf.slice();
    this.#starts = this.#starts.slice();
    this.#lengths = this.#lengths.slice();
    this.#lent = false;
  }

  #compactIfWasteful(): void {
    const wasteful =
      (this.#deadBytes >= COMPACT_FROM_BYTES && this.#deadBytes > this.#liveBytes) ||
      (this.#deadSlots >= COMPACT_FROM_SLOTS && this.#deadSlots > this.size);
    if (wasteful) this.compact();
  }
}

function grown(array: Uint32Array, capacity: number): Uint32Array {
  const bigger = new Uint32Array(capacity);
  bigger.set(array);
  return bigger;
}
