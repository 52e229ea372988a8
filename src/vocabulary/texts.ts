// Lists of JSON texts read by position: an array of strings, or the bytes a store keeps its
// records in, which a list is sent from with no string made per record.

/**
 * A list of JSON texts, oldest first, read by position. A list of a store's records is sent
 * from it: `copyTo` writes a text's UTF-8 bytes where a string would have to be made first.
 */
export interface Texts {
  readonly length: number;
  /** The UTF-8 bytes of every text together. */
  readonly byteLength: number;
  /** The text at `index` (0 ≤ index < length). */
  at(index: number): string;
  /** The UTF-8 bytes of the text at `index`. */
  byteLengthAt(index: number): number;
  /** Copies the UTF-8 bytes of the text at `index` into `target` from `offset`; answers how many. */
  copyTo(index: number, target: Buffer, offset: number): number;
  /**
   * Copies the texts from `cursor.index` on into `target` from `cursor.offset`, each after a
   * comma but the list's first, as many whole ones as fit before `end`, and moves the cursor
   * past them: a list's body, a buffer at a time.
   */
  copyInto(cursor: TextCursor, target: Buffer, end: number): void;
  /** The texts from `start` to `end` (excluded), sharing this list's memory. */
  slice(start: number, end: number): Texts;
  /**
   * Whether the text at `index` is, as stored, the one at `otherIndex` of `other`: the same
   * bytes, found without reading them (false says nothing: they may be equal all the same).
   */
  sameAs(index: number, other: Texts, otherIndex: number): boolean;
}

/** Where a list is in being copied: the next text, and where its bytes go. */
export interface TextCursor {
  index: number;
  offset: number;
}

const COMMA = 0x2c;

/**
 * Texts held as strings (a store that gives strings, a filtered list).
 * @example new TextArray(['{"id":1}']).byteLength // 8
 */
export class TextArray implements Texts {
  #byteLength: number | undefined;

  constructor(readonly texts: readonly string[]) {}

  get length(): number {
    return this.texts.length;
  }

  get byteLength(): number {
    if (this.#byteLength === undefined) {
      let bytes = 0;
      for (const text of this.texts) bytes += Buffer.byteLength(text);
      this.#byteLength = bytes;
    }
    return this.#byteLength;
  }

  at(index: number): string {
    return this.texts[index] as string;
  }

  byteLengthAt(index: number): number {
    return Buffer.byteLength(this.at(index));
  }

  copyTo(index: number, target: Buffer, offset: number): number {
    return target.write(this.at(index), offset);
  }

  copyInto(cursor: TextCursor, target: Buffer, end: number): void {
    let { index, offset } = cursor;
    for (; index < this.texts.length; index++) {
      const text = this.texts[index] as string;
      const room = end - offset - (index > 0 ? 1 : 0);
      // Counted only near the end: three bytes a character at most.
      if (text.length * 3 > room && Buffer.byteLength(text) > room) break;
      if (index > 0) target[offset++] = COMMA;
      offset += target.write(text, offset);
    }
    cursor.index = index;
    cursor.offset = offset;
  }

  slice(start: number, end: number): Texts {
    return new TextArray(this.texts.slice(start, end));
  }

  sameAs(index: number, other: Texts, otherIndex: number): boolean {
    return other instanceof TextArray && this.texts[index] === other.texts[otherIndex];
  }
}

/**
 * Texts kept as UTF-8 bytes in chunks that are never written again where they hold a text:
 * each text is a range of a chunk (its chunk's place in `chunks`, its start, its length),
 * followed in its chunk by a comma. Two texts at the same start of the same chunk are the same
 * bytes, and texts stored one after the other are, with their commas, a list's body as it is.
 * @example new ChunkTexts([Buffer.from('{"id":1}')], Uint32Array.of(0), Uint32Array.of(0), Uint32Array.of(8)).at(0) // '{"id":1}'
 */
export class ChunkTexts implements Texts {
  #byteLength: number | undefined;

  constructor(
    readonly chunks: readonly Buffer[],
    /** For each text, its chunk's place in `chunks`. */
    readonly chunkOf: Uint32Array,
    readonly starts: Uint32Array,
    readonly lengths: Uint32Array,
  ) {}

  get length(): number {
    return this.lengths.length;
  }

  get byteLength(): number {
    if (this.#byteLength === undefined) {
      let bytes = 0;
      const { lengths } = this;
      for (let i = 0; i < lengths.length; i++) bytes += lengths[i] as number;
      this.#byteLength = bytes;
    }
    return this.#byteLength;
  }

  at(index: number): string {
    const start = this.starts[index] as number;
    return this.#chunk(index).toString('utf8', start, start + (this.lengths[index] as number));
  }

  byteLengthAt(index: number): number {
    return this.lengths[index] as number;
  }

  copyTo(index: number, target: Buffer, offset: number): number {
    const start = this.starts[index] as number;
    return this.#chunk(index).copy(target, offset, start, start + (this.lengths[index] as number));
  }

  copyInto(cursor: TextCursor, target: Buffer, end: number): void {
    const { chunkOf, starts, lengths } = this;
    const count = lengths.length;
    let { index, offset } = cursor;
    while (index < count) {
      const separated = index > 0 ? 1 : 0;
      const chunk = chunkOf[index] as number;
      const start = starts[index] as number;
      const room = end - offset - separated;
      let last = index;
      let stop = start + (lengths[index] as number);
      if (stop - start > room) break;
      // The texts after it in the same chunk, each after the comma of the one before: one copy.
      while (last + 1 < count && chunkOf[last + 1] === chunk && starts[last + 1] === stop + 1) {
        const next = (starts[last + 1] as number) + (lengths[last + 1] as number);
        if (next - start > room) break;
        last++;
        stop = next;
      }
      if (separated) target[offset++] = COMMA;
      offset += (this.chunks[chunk] as Buffer).copy(target, offset, start, stop);
      index = last + 1;
    }
    cursor.index = index;
    cursor.offset = offset;
  }

  slice(start: number, end: number): Texts {
    return new ChunkTexts(
      this.chunks,
      this.chunkOf.subarray(start, end),
      this.starts.subarray(start, end),
      this.lengths.subarray(start, end),
    );
  }

  sameAs(index: number, other: Texts, otherIndex: number): boolean {
    return (
      other instanceof ChunkTexts &&
      this.starts[index] === other.starts[otherIndex] &&
      this.#chunk(index) === other.#chunk(otherIndex)
    );
  }

  #chunk(index: number): Buffer {
    return this.chunks[this.chunkOf[index] as number] as Buffer;
  }
}

/**
 * Texts as a list of them: an array of strings is wrapped.
 * @example textsFrom(['{"id":1}']).length // 1
 */
export function textsFrom(texts: Texts | readonly string[]): Texts {
  return Array.isArray(texts) ? new TextArray(texts as readonly string[]) : (texts as Texts);
}
