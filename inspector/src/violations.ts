// The violations panel: what a proxy (`petstore-kit proxy`) saw break the spec, beside the
// requests. A mock has none, so the panel shows itself once there is one, and stays.
import type { ViolationList } from './api.js';
import { byId, h } from './dom.js';

export class ViolationPanel {
  readonly #panel = byId('violations-panel');
  readonly #list = byId<HTMLOListElement>('violations');
  readonly #empty = byId('no-violations');
  readonly #count = byId('violation-count');
  #last = '';

  constructor(onClear: () => void) {
    byId('violations-clear').addEventListener('click', onClear);
  }

  render({ count, violations }: ViolationList): void {
    const shown = `${count}|${JSON.stringify(violations)}`;
    if (shown === this.#last) return;
    this.#last = shown;
    if (count > 0) this.#panel.hidden = false;
    this.#count.textContent =
      `${count} seen` + (violations.length < count ? `, the newest ${violations.length} kept` : '');
    this.#list.replaceChildren(
      ...violations.map((violation) =>
        h(
          'li',
          { class: 'violation', 'data-side': violation.side },
          h(
            'div',
            { class: 'where' },
            h('span', { class: 'badge' }, violation.side),
            h('span', { class: 'mono path' }, `${violation.method} ${violation.path}`),
            h('span', { class: 'mono' }, violation.status),
            h('span', { class: 'muted' }, violation.operation ?? ''),
            h('span', { class: 'mono rule' }, violation.rule),
          ),
          h('p', { class: 'message' }, violation.message),
        ),
      ),
    );
    this.#empty.hidden = violations.length > 0;
  }
}
