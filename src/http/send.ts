import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TurnBudget } from '../core/turn-budget.js';
import { CheckedList, type CheckedAnswer, type CheckedJson } from '../vocabulary/answer.js';
import type { Texts } from '../vocabulary/texts.js';
import { sendStream } from './send-stream.js';

/** A list goes out in writes of about this many bytes. */
const WRITE_BYTES = 64 * 1024;

const COMMA = Buffer.from(',');

/** The most header names a sender remembers in lower case: an answer may name any. */
const MAX_NAMES = 256;

/** Headers that an answer's own replace, as `setHeader` would: `Vary: Origin` when CORS adds it. */
export interface AddedHeaders {
  /** `Vary: Origin`, first, for a request without Origin when CORS is on (see CorsStep). */
  varyOrigin: boolean;
}

/**
 * Sends an answer the core has checked: its status, headers and a Content-Length, then its
 * bytes (HEAD gets the headers of GET and no body). A list's parts are written a few tens of
 * kilobytes at a time, waiting for the client to drain each, in slices that share the turn
 * budget with every other list being sent. A stream's events go out as they are made (sendStream).
 * @example await send(req, res, { status: 200, headers: {}, body: new CheckedJson(bytes) });
 */
export function createSender(
  budget: TurnBudget,
): (
  req: IncomingMessage,
  res: ServerResponse,
  answer: CheckedAnswer,
  added?: AddedHeaders,
) => void | Promise<void> {
  /** Pairs of scratch buffers no list is writing through: reused, never reallocated. */
  const idle: Buffer[][] = [];
  /** Header names in lower case, as answers name them: a few dozen, lower-cased once each. */
  const lowerNames = new Map<string, string>();
  const lowerCase = (name: string): string => {
    let lower = lowerNames.get(name);
    if (lower === undefined) {
      lower = name.toLowerCase();
      if (lowerNames.size < MAX_NAMES) lowerNames.set(name, lower);
    }
    return lower;
  };

  /**
   * The head (without its Content-Length) of each frozen set of headers, such as an operation's
   * that every answer of it shares: worked out once, copied for each answer. Undefined: set one by one.
   */
  const heads = new WeakMap<
    Readonly<Record<string, string>>,
    { plain: Head | undefined; varied: Head | undefined }
  >();
  const headOf = (
    headers: Readonly<Record<string, string>>,
    varyOrigin: boolean,
    length: number,
  ): Head | undefined => {
    let head: Head | undefined;
    if (Object.isFrozen(headers)) {
      let known = heads.get(headers);
      if (!known) {
        known = {
          plain: headObject(headers, false, lowerCase),
          varied: headObject(headers, true, lowerCase),
        };
        heads.set(headers, known);
      }
      const shared = varyOrigin ? known.varied : known.plain;
      head = shared?.slice();
    } else head = headObject(headers, varyOrigin, lowerCase);
    if (head) head[head.length - 1] = length;
    return head;
  };

  /** A promise only while a long list is written. */
  return function send(req, res, answer, added) {
    const { body } = answer;
    const varyOrigin = added?.varyOrigin === true;
    if (answer.stream || body === undefined) {
      // Node works out these heads itself (chunked, or no body), from headers set one by one.
      setOneByOne(res, answer, varyOrigin, undefined);
      if (answer.stream) return sendStream(req, res, answer.stream);
      res.end();
      return;
    }
    const list = body instanceof CheckedList ? body : undefined;
    const length = list ? list.length : (body as CheckedJson).bytes.length;
    // One list given to writeHead: Node writes the head from it without a setHeader per
    // header (its fast path when nothing was set before; else it merges, as setHeader does).
    const head = headOf(answer.headers, varyOrigin, length);
    if (head) res.writeHead(answer.status, head);
    else setOneByOne(res, answer, varyOrigin, length);
    const headOnly = req.method === 'HEAD';
    if (list) {
      if (headOnly) res.end();
      // A list that fits a write goes out as one, head and body in one system call.
      else if (list.length <= WRITE_BYTES) res.end(list.joined());
      else
        return writeParts(res, list).then(() => {
          if (!res.destroyed) res.end();
        });
      return;
    }
    res.end(headOnly ? undefined : (body as CheckedJson).bytes);
  };

  /**
   * Writes `[part,part,...]` through two scratch buffers, filled in turn and reused once their
   * write is done: a list of 100 MB makes no 100 MB of copies for the collector to pause over.
   * A part too large for a scratch buffer goes out as it is. The pairs are kept for the next
   * list: one allocated per answer makes the collector switch to full mark-compacts after the
   * mock sits idle, and throughput drops for many seconds.
   */
  async function writeParts(res: ServerResponse, list: CheckedList): Promise<void> {
    const scratch = idle.pop() ?? [
      Buffer.allocUnsafe(WRITE_BYTES),
      Buffer.allocUnsafe(WRITE_BYTES),
    ];
    try {
      await writeThrough(res, list, scratch);
    } finally {
      // A pair whose write a vanished client left pending stays with that write.
      if (!res.destroyed) idle.push(scratch);
    }
  }

  async function writeThrough(
    res: ServerResponse,
    { parts, open, close }: CheckedList,
    scratch: Buffer[],
  ): Promise<void> {
    const texts = Array.isArray(parts) ? undefined : (parts as Texts);
    const written: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
    // Room kept after a part: its comma, or the closing.
    const reserve = Math.max(COMMA.length, close.length) + 1;
    // A write of a client that left may never call back: its leaving ends the wait too.
    const gone = new Promise<void>((resolve) => res.once('close', resolve));
    let i = 0;
    for (let turn = 0, opened = false; ; turn ^= 1) {
      await Promise.race([written[turn], gone]);
      if (res.destroyed) return;
      const done = await budget.slice();
      const started = performance.now();
      const buffer = scratch[turn] as Buffer;
      const direct: Buffer[] = [];
      let size = 0;
      if (!opened) {
        size += open.copy(buffer);
        opened = true;
      }
      if (texts) {
        // A store's texts go in runs of records stored one after the other, each run one copy
        // (its commas included); what is left (a text no buffer holds) goes below.
        const cursor = { index: i, offset: size };
        texts.copyInto(cursor, buffer, buffer.length - reserve);
        i = cursor.index;
        size = cursor.offset;
      }
      // A slice fills at most one buffer: the clock is read every 64 parts, not for each.
      while (i < parts.length && !((i & 63) === 0 && size > 1 && budget.spent(started))) {
        const part = texts ? undefined : (parts as readonly (Buffer | string)[])[i];
        const separated = i > 0;
        // A text is counted only near the end of the buffer: three bytes a character at most.
        const length = texts
          ? texts.byteLengthAt(i)
          : typeof part !== 'string'
            ? (part as Buffer).length
            : size + part.length * 3 + reserve <= buffer.length
              ? part.length
              : Buffer.byteLength(part);
        if (length + reserve > buffer.length) {
          if (size > 0) break; // what is filled goes first
          if (separated) direct.push(COMMA);
          direct.push(
            texts
              ? Buffer.from(texts.at(i))
              : typeof part === 'string'
                ? Buffer.from(part)
                : (part as Buffer),
          );
          i++;
          break;
        }
        if (size + length + reserve > buffer.length) break;
        if (separated) size += COMMA.copy(buffer, size);
        // A store's bytes are copied as they are: no string is made for them.
        size += texts
          ? texts.copyTo(i, buffer, size)
          : typeof part === 'string'
            ? buffer.write(part, size)
            : (part as Buffer).copy(buffer, size);
        i++;
      }
      const last = i >= parts.length;
      if (last) {
        if (direct.length > 0) direct.push(close);
        else size += close.copy(buffer, size);
      }
      let ok = true;
      if (size > 0) {
        written[turn] = new Promise((resolve) => {
          ok = res.write(buffer.subarray(0, size), () => resolve());
        });
      }
      for (const part of direct) ok = res.write(part);
      done();
      if (last || res.destroyed) {
        // The pair goes back to the pool only once both of its writes are done.
        await Promise.race([Promise.all(written), gone]);
        return;
      }
      if (!ok && !(await drained(res))) return;
    }
  }
}

/** Resolves with whether the client took what was written (false: it is gone); leaves no listener behind. */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve(!res.destroyed);
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** An answer's head as `writeHead` takes it in one list: names and values in turn. */
type Head = (string | number)[];

/**
 * The head of an answer in one list, in the order `setHeader` one by one writes it: `Vary`
 * (when added), the answer's own, `Content-Length` last (its value 0, for the answer's to
 * replace). Undefined when a name comes twice in any case (`setHeader` would keep one), or is
 * `Content-Length`: then the head is set one by one, as before.
 */
function headObject(
  headers: Readonly<Record<string, string>>,
  varyOrigin: boolean,
  lowerCase: (name: string) => string,
): Head | undefined {
  const head: Head = varyOrigin ? ['Vary', 'Origin'] : [];
  const names: string[] = varyOrigin ? ['vary'] : [];
  for (const name of Object.keys(headers)) {
    const lower = lowerCase(name);
    if (lower === 'content-length' || names.includes(lower)) return undefined;
    names.push(lower);
    head.push(name, headers[name] as string);
  }
  head.push('Content-Length', 0);
  return head;
}

/** Sets an answer's status and head one header at a time (see headObject). */
function setOneByOne(
  res: ServerResponse,
  answer: CheckedAnswer,
  varyOrigin: boolean,
  length: number | undefined,
): void {
  res.statusCode = answer.status;
  if (varyOrigin) res.setHeader('Vary', 'Origin');
  const { headers } = answer;
  for (const name of Object.keys(headers)) res.setHeader(name, headers[name] as string);
  if (length !== undefined) res.setHeader('Content-Length', length);
}
