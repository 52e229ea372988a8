// The dialog that shows one request and its answer, or the records of a collection. A modal
// <dialog>: Escape closes it, and focus goes back to what opened it.
import type { CollectionRecords, RecordedRequest } from './api.js';
import { byId, clock, duration, h, pretty, size, statusClass } from './dom.js';

const FAULTS: Readonly<Record<string, string>> = {
  reset: 'The mock reset the connection: no answer was sent.',
  timeout: 'The mock sent no answer, held the connection, then closed it.',
  malformed: 'The mock sent the success status with a body cut short.',
};

export class Dialog {
  readonly #dialog = byId<HTMLDialogElement>('detail');
  readonly #title = byId('detail-title');
  readonly #body = byId('detail-body');
  #returnTo: HTMLElement | undefined;

  constructor() {
    byId('detail-close').addEventListener('click', () => this.#dialog.close());
    this.#dialog.addEventListener('close', () => {
      this.#body.replaceChildren();
      // The opener may have been drawn again while the dialog was open: find it by its key.
      const key = this.#returnTo?.dataset.key;
      const again = key
        ? document.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`)
        : null;
      (again ?? this.#returnTo)?.focus();
    });
  }

  get open(): boolean {
    return this.#dialog.open;
  }

  show(title: string, content: readonly Node[], returnTo: HTMLElement | undefined): void {
    this.#returnTo = returnTo;
    this.#title.textContent = title;
    this.#body.replaceChildren(...content);
    if (!this.#dialog.open) this.#dialog.showModal();
    this.#body.scrollTop = 0;
  }
}

/** A request and its answer: headers and bodies, pretty-printed. */
export function requestDetail(entry: RecordedRequest): Node[] {
  const facts = [
    `#${entry.id}`,
    clock(entry.time),
    duration(entry.durationMs),
    entry.session ? `session ${entry.session}` : undefined,
    entry.outgoing
      ? `${entry.outgoing.kind} ${entry.outgoing.name} sent by the mock${entry.outgoing.cause ? ` (${entry.outgoing.cause})` : ''}, ${entry.outgoing.attempts} attempt${entry.outgoing.attempts === 1 ? '' : 's'}`
      : undefined,
  ].filter((fact) => fact !== undefined);
  const { outgoing } = entry;
  const request = h(
    'section',
    { class: 'part', 'aria-label': 'Request' },
    h('h3', {}, 'Request'),
    h('p', { class: 'line mono' }, `${entry.method} ${entry.path}`),
    headerTable(entry.headers ?? {}),
    body(entry.body, entry.bodyNote),
  );
  const response = h(
    'section',
    { class: 'part', 'aria-label': 'Response' },
    h('h3', {}, outgoing ? 'The receiver’s answer' : 'Response'),
    outgoing?.error ? h('p', { class: 'note fault' }, outgoing.error) : null,
    ...(outgoing?.problems ?? []).map((problem) => h('p', { class: 'note fault' }, problem)),
    entry.fault
      ? h('p', { class: 'note fault' }, `Fault: ${entry.fault}. ${FAULTS[entry.fault] ?? ''}`)
      : null,
    entry.status !== undefined
      ? h('p', { class: `line mono status ${statusClass(entry.status)}` }, String(entry.status))
      : null,
    entry.response ? headerTable(entry.response.headers) : null,
    entry.response
      ? entry.response.bodyStart !== undefined
        ? cutBody(entry.response.bodyStart, entry.response.bodyBytes)
        : body(entry.response.body, undefined)
      : null,
  );
  return [
    h('p', { class: 'facts' }, facts.join(' · ')),
    h('div', { class: 'parts' }, request, response),
  ];
}

/** A collection's newest records. */
export function collectionDetail(collection: CollectionRecords): Node[] {
  const shown = collection.records.length;
  return [
    h(
      'p',
      { class: 'facts' },
      `${collection.path} · ${collection.count} record${collection.count === 1 ? '' : 's'}` +
        (shown < collection.count ? ` · the newest ${shown} shown` : ''),
    ),
    shown === 0
      ? h('p', { class: 'note' }, 'No records.')
      : h('pre', { class: 'body', tabindex: 0 }, pretty(collection.records)),
  ];
}

function headerTable(headers: Readonly<Record<string, string>>): Node {
  const names = Object.keys(headers);
  if (names.length === 0) return h('p', { class: 'note' }, 'No headers.');
  return h(
    'table',
    { class: 'headers' },
    h('caption', {}, 'Headers'),
    h(
      'tbody',
      {},
      ...names.map((name) =>
        h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, headers[name])),
      ),
    ),
  );
}

function body(value: unknown, note: string | undefined): Node {
  if (note) return h('p', { class: 'note' }, note);
  if (value === undefined) return h('p', { class: 'note' }, 'No body.');
  // Focusable, so that a long body scrolls with the keyboard.
  return h(
    'figure',
    {},
    h('figcaption', {}, 'Body'),
    h('pre', { class: 'body', tabindex: 0 }, pretty(value)),
  );
}

function cutBody(start: string, bytes: number | undefined): Node {
  return h(
    'figure',
    {},
    h('figcaption', {}, `Body: ${size(bytes ?? 0)}, its first 16 KiB shown`),
    h('pre', { class: 'body', tabindex: 0 }, start),
  );
}
