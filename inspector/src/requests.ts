// The table of logged requests, newest first. One tab stop for the whole table (a roving
// tabindex): the arrows move between rows, Enter or a click opens one.
import type { RecordedRequest } from './api.js';
import { byId, clock, duration, h, statusClass } from './dom.js';

export class RequestTable {
  readonly #rows = byId<HTMLTableSectionElement>('request-rows');
  readonly #empty = byId('no-requests');
  /** The id of the row that takes the table's tab stop. */
  #current: number | undefined;

  constructor(
    private readonly onOpen: (id: number, session: string | undefined, row: HTMLElement) => void,
  ) {
    this.#rows.addEventListener('click', (event) => {
      const row = (event.target as Element).closest<HTMLTableRowElement>('tr[data-id]');
      if (row) this.#open(row);
    });
    this.#rows.addEventListener('keydown', (event) => this.#key(event));
  }

  /**
   * Draws these rows, keeping the focused row focused if it is still there. While the table
   * has no focus, its tab stop is the newest row: Tab lands where the reader looks first.
   */
  render(requests: readonly RecordedRequest[]): void {
    const focused = this.#rows.contains(document.activeElement);
    if (!focused || !requests.some((request) => request.id === this.#current))
      this.#current = requests[0]?.id;
    this.#rows.replaceChildren(...requests.map((request) => this.#row(request)));
    this.#empty.hidden = requests.length > 0;
    // Columns no row fills are hidden (inspector.css), leaving their room to the path.
    const table = this.#rows.closest('table');
    table?.classList.toggle(
      'with-sessions',
      requests.some((request) => request.session),
    );
    table?.classList.toggle(
      'with-faults',
      requests.some((request) => request.fault ?? request.outgoing?.error),
    );
    if (focused) this.#rowOf(this.#current)?.focus();
  }

  #row(request: RecordedRequest): HTMLTableRowElement {
    return h(
      'tr',
      {
        'data-id': request.id,
        'data-key': `request-${request.session ?? ''}-${request.id}`,
        'data-session': request.session,
        tabindex: request.id === this.#current ? 0 : -1,
        class: request.fault ? 'faulted' : undefined,
      },
      h('td', { class: 'time' }, clock(request.time)),
      h('td', { class: 'mono method' }, request.method),
      h(
        'td',
        { class: 'mono path', title: request.path },
        request.outgoing
          ? h(
              'span',
              { class: 'badge outgoing', title: 'sent by the mock' },
              `→ ${request.outgoing.kind} ${request.outgoing.name}`,
            )
          : '',
        request.outgoing ? ' ' : '',
        request.path,
      ),
      h(
        'td',
        { class: 'num' },
        h('span', { class: `status ${statusClass(request.status)}` }, request.status ?? '—'),
      ),
      h('td', { class: 'num' }, duration(request.durationMs)),
      h('td', { class: 'mono session' }, request.session ?? ''),
      h(
        'td',
        {},
        request.fault
          ? h('span', { class: 'badge fault' }, request.fault)
          : request.outgoing?.error
            ? h(
                'span',
                { class: 'badge fault', title: request.outgoing.error },
                request.outgoing.attempts === 0 ? 'not sent' : 'failed',
              )
            : '',
      ),
    );
  }

  #key(event: KeyboardEvent): void {
    const row = (event.target as Element).closest<HTMLTableRowElement>('tr[data-id]');
    if (!row) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this.#open(row);
      return;
    }
    const rows = [...this.#rows.rows];
    const at = rows.indexOf(row);
    const to =
      event.key === 'ArrowDown'
        ? rows[at + 1]
        : event.key === 'ArrowUp'
          ? rows[at - 1]
          : event.key === 'Home'
            ? rows[0]
            : event.key === 'End'
              ? rows.at(-1)
              : undefined;
    if (!to) return;
    event.preventDefault();
    this.#focus(to);
  }

  #open(row: HTMLTableRowElement): void {
    this.#focus(row);
    this.onOpen(Number(row.dataset.id), row.dataset.session, row);
  }

  #focus(row: HTMLTableRowElement): void {
    this.#rowOf(this.#current)?.setAttribute('tabindex', '-1');
    this.#current = Number(row.dataset.id);
    row.setAttribute('tabindex', '0');
    row.focus();
  }

  #rowOf(id: number | undefined): HTMLTableRowElement | null {
    return id === undefined ? null : this.#rows.querySelector(`tr[data-id="${id}"]`);
  }
}
