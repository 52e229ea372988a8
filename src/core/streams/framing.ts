// How one item of a stream is written on the wire, as each sequential media type's own
// specification says.
import type { StreamMedia } from '../../openapi/streams.js';

/** RFC 7464's record separator, written before each JSON text of `application/json-seq`. */
const RS = '\u001e';

/**
 * The bytes of one item: a Server-Sent Event (WHATWG HTML §9.2: `event:`, `id:`, a `data:` line
 * per line of its data, a blank line), a JSON Lines line, or an RFC 7464 JSON text (RS, the
 * JSON, LF).
 * @example framed({ framing: 'jsonl', ... }, { n: 1 }, 0, undefined) // '{"n":1}\n'
 */
export function framed(
  media: Pick<StreamMedia, 'framing' | 'wholeEvent'>,
  item: unknown,
  index: number,
  /** The item's property that names its kind (see kindPropertyOf), for an SSE `event:`. */
  kindProperty: string | undefined,
): string {
  if (media.framing === 'jsonl') return `${JSON.stringify(item)}\n`;
  if (media.framing === 'json-seq') return `${RS}${JSON.stringify(item)}\n`;
  if (media.wholeEvent) return sseEvent(item as EventFields, index);
  const kind = kindProperty === undefined ? undefined : fieldOf(item, kindProperty);
  return sseEvent(
    { ...(typeof kind === 'string' ? { event: kind } : {}), data: JSON.stringify(item) },
    index,
  );
}

/** An SSE event as 3.2 describes one: its fields. */
interface EventFields {
  data?: unknown;
  event?: unknown;
  id?: unknown;
  retry?: unknown;
}

function sseEvent(fields: EventFields, index: number): string {
  let text = '';
  if (typeof fields.event === 'string' && fields.event !== '')
    text += `event: ${oneLine(fields.event)}\n`;
  // The event's own id, else its place: a reconnecting client's Last-Event-ID names it.
  const id = typeof fields.id === 'string' || typeof fields.id === 'number' ? fields.id : index + 1;
  text += `id: ${oneLine(String(id)).replaceAll('\0', '')}\n`;
  if (typeof fields.retry === 'number' && Number.isInteger(fields.retry) && fields.retry >= 0)
    text += `retry: ${fields.retry}\n`;
  const data =
    fields.data === undefined
      ? ''
      : typeof fields.data === 'string'
        ? fields.data
        : JSON.stringify(fields.data);
  for (const line of data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** A field's value is one line: a line break would end it. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

function fieldOf(item: unknown, name: string): unknown {
  return typeof item === 'object' && item !== null && !Array.isArray(item)
    ? (item as Record<string, unknown>)[name]
    : undefined;
}
