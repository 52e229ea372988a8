// Lists of JSON texts read by position: an array of strings, or the bytes a store keeps its
// records in (issue 28), which a list is sent from with no string made per record.

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
  /** The texts from `start` to `end` (excluded), sharing this list's memory. */
  slice(start: number, end: number): Texts;
  /**
   * Whether the text at `index` is, as stored, the one at `otherIndex` of `other`: the same
   * bytes, found without reading them (false says nothing: they may be equal all the same).
   */
  sameAs(index: number, other: Texts, otherIndex: number): boolean;
}

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

  slice(start: number, end: number): Texts {
    return new TextArray(this.texts.slice(start, end));
  }

  sameAs(index: number, other: Texts, otherIndex: number): boolean {
    return other instanceof TextArray && this.texts[index] === other.texts[otherIndex];
  }
}

/**
 * Texts kept as UTF-8 bytes in chunks that are never written again where they hold a text:
 * each text is a range of a chunk (its chunk's place in `chunks`, its start, its length). Two
 * texts at the same start of the same chunk are the same bytes.
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
