// A few helpers to build the page: elements from a tag, attributes and children (text is
// always set as text, never as HTML: the page shows what clients sent), and the formats of
// times, sizes and bodies.

type Child = Node | string | number | null | undefined | false;

/**
 * An element with these attributes (`true` sets a boolean one, `false` or undefined leaves
 * it out) and children.
 * @example h('button', { type: 'button', class: 'link' }, 'Open')
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(
    ...children
      .filter(isPresent)
      .map((child) => (typeof child === 'number' ? String(child) : child)),
  );
  return element;
}

function isPresent(child: Child): child is Node | string | number {
  return child !== null && child !== undefined && child !== false;
}

/** The element with this id, which index.html has. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html has no #${id}`);
  return element as T;
}

/** `10:04:05.123`, local time. */
export function clock(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** `12.3 ms`, `1.20 s`. */
export function duration(ms: number): string {
  return ms < 1000
    ? `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`
    : `${(ms / 1000).toFixed(2)} s`;
}

/** `523 bytes`, `16.0 KiB`, `1.2 MiB`. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A body as a person reads it: JSON indented, text as it is. */
export function pretty(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** The class of a status for its colour: `s2`, `s4`, ...; the text says it too. */
export function statusClass(status: number | undefined): string {
  return status === undefined ? 'sx' : `s${String(status)[0]}`;
}
