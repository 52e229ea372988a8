// The side panel: the scenario settings to change, reset, and the collections with their counts.
import type { CollectionList, FaultKind, Settings } from './api.js';
import { byId, h } from './dom.js';

const FAULT_KINDS: readonly FaultKind[] = ['reset', 'timeout', 'malformed'];

/** The scenario settings form: what it shows is what `GET /settings` said last. */
export class SettingsForm {
  readonly #form = byId<HTMLFormElement>('settings');
  readonly #min = byId<HTMLInputElement>('delay-min');
  readonly #max = byId<HTMLInputElement>('delay-max');
  readonly #rate = byId<HTMLInputElement>('fault-rate');
  readonly #message = byId('settings-message');

  constructor(apply: (change: Settings) => Promise<void>) {
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void apply(this.#read());
    });
  }

  fill(settings: Settings): void {
    this.#min.value = String(settings.delay?.min ?? 0);
    this.#max.value = String(settings.delay?.max ?? 0);
    this.#rate.value = String(settings.faultRate ?? 0);
    for (const kind of FAULT_KINDS)
      this.#kind(kind).checked = settings.faultKinds?.includes(kind) ?? false;
  }

  /** A line under the form: what was applied, or why not. */
  say(text: string, error = false): void {
    this.#message.textContent = text;
    this.#message.classList.toggle('error', error);
  }

  #read(): Settings {
    return {
      delay: { min: this.#min.valueAsNumber, max: this.#max.valueAsNumber },
      faultRate: this.#rate.valueAsNumber,
      faultKinds: FAULT_KINDS.filter((kind) => this.#kind(kind).checked),
    };
  }

  #kind(kind: FaultKind): HTMLInputElement {
    return byId<HTMLInputElement>(`fault-${kind}`);
  }
}

/** How the settings read in one line: `Delay 300–300 ms, no faults`. */
export function describeSettings(settings: Settings): string {
  const { min = 0, max = 0 } = settings.delay ?? {};
  const delay = max === 0 ? 'no delay' : min === max ? `delay ${min} ms` : `delay ${min}–${max} ms`;
  const rate = settings.faultRate ?? 0;
  const faults =
    rate === 0
      ? 'no faults'
      : `${Math.round(rate * 1000) / 10}% faults (${(settings.faultKinds ?? []).join(', ')})`;
  return `${delay[0]?.toUpperCase()}${delay.slice(1)}, ${faults}`;
}

/** The list of collections: a button each, which opens its records. */
export class CollectionPanel {
  readonly #list = byId<HTMLUListElement>('collections');
  readonly #empty = byId('no-collections');
  #last = '';

  constructor(private readonly onOpen: (name: string, button: HTMLElement) => void) {
    this.#list.addEventListener('click', (event) => {
      const button = (event.target as Element).closest<HTMLButtonElement>('button[data-name]');
      if (button?.dataset.name) this.onOpen(button.dataset.name, button);
    });
  }

  render({ collections }: CollectionList): void {
    // Drawn again only when something changed: a focused button keeps its focus.
    const shown = JSON.stringify(collections);
    if (shown === this.#last) return;
    this.#last = shown;
    const focused = (document.activeElement as HTMLElement | null)?.dataset.key;
    this.#list.replaceChildren(
      ...collections.map(({ name, path, count, parents }) =>
        h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              class: 'collection',
              'data-name': name,
              'data-key': `collection-${name}`,
            },
            h('span', { class: 'name' }, name),
            h('span', { class: 'mono path' }, path),
            h(
              'span',
              {
                class: 'count',
                'aria-label':
                  `${count} records` + (parents ? ` under ${parents.length} parents` : ''),
                // A nested collection's records under each parent, on hover.
                title: parents?.map((parent) => `${parent.path}: ${parent.count}`).join('\n'),
              },
              count,
            ),
          ),
        ),
      ),
    );
    this.#empty.hidden = collections.length > 0;
    if (focused?.startsWith('collection-'))
      this.#list.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`)?.focus();
  }
}
