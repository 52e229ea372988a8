// The inspector page: asks once for an API key (kept in this tab's sessionStorage), then shows
// the mock's request log live (polled every second while the tab is visible), the collections
// with their counts, and the scenario settings, through the admin API.
import {
  AdminClient,
  AdminError,
  Unreachable,
  type CollectionList,
  type CollectionRecords,
  type RecordedRequest,
  type RequestList,
  type SessionList,
  type Settings,
  type ViolationList,
} from './api.js';
import { collectionDetail, Dialog, requestDetail } from './detail.js';
import { byId, h } from './dom.js';
import { RequestTable } from './requests.js';
import { CollectionPanel, describeSettings, SettingsForm } from './side.js';
import { setUpTheme } from './theme.js';
import { ViolationPanel } from './violations.js';

const KEY_STORAGE = 'petstore-kit-inspector-key';
const POLL_MS = 1000;
/** The collections and the sessions are asked for again every this many polls. */
const SLOW_POLLS = 5;
/** The newest requests the table shows. */
const ROWS = 200;
const RECORDS = 100;

let client: AdminClient | undefined;
let live = true;
let polls = 0;
/** What the table shows: the count and the ids (a logged request never changes). */
let shownList = '';
let polling: ReturnType<typeof setTimeout> | undefined;

const dialog = new Dialog();
const table = new RequestTable(
  (id, session, row) => void guard(() => openRequest(id, session, row)),
);
const settingsForm = new SettingsForm((change) => guard(() => applySettings(change)));
const collections = new CollectionPanel(
  (name, button) => void guard(() => openCollection(name, button)),
);
const violations = new ViolationPanel(() => void guard(() => clearViolations()));
const filters = byId<HTMLFormElement>('filters');

setUpTheme();

byId<HTMLFormElement>('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void connect(byId<HTMLInputElement>('key').value.trim());
});

byId('forget').addEventListener('click', () => {
  sessionStorage.removeItem(KEY_STORAGE);
  showGate('');
});

const liveButton = byId('live');
liveButton.addEventListener('click', () => {
  live = !live;
  liveButton.setAttribute('aria-pressed', String(live));
  liveButton.textContent = live ? 'Live' : 'Paused';
  if (live) void guard(() => refreshRequests());
});

let typing: ReturnType<typeof setTimeout> | undefined;
filters.addEventListener('input', () => {
  clearTimeout(typing);
  typing = setTimeout(() => void guard(() => refreshRequests()), 250);
});
filters.addEventListener('submit', (event) => event.preventDefault());
filters.addEventListener('reset', () => setTimeout(() => void guard(() => refreshRequests())));

const sessionSelect = byId<HTMLSelectElement>('session');
sessionSelect.addEventListener('change', () => {
  if (!client) return;
  client.session = sessionSelect.value || undefined;
  resetLabel();
  void guard(() => refreshAll());
});

byId('reset').addEventListener('click', () => void guard(() => reset()));

const saved = sessionStorage.getItem(KEY_STORAGE);
if (saved) void connect(saved);
else showGate('');

/** Checks the key against the admin API; once it is accepted, shows the page and starts polling. */
async function connect(key: string): Promise<void> {
  if (!key) return showGate('Enter one of the mock’s API keys.');
  const candidate = new AdminClient(key);
  let settings: Settings;
  try {
    settings = await candidate.get<Settings>('settings');
  } catch (err) {
    sessionStorage.removeItem(KEY_STORAGE);
    return showGate(
      err instanceof AdminError && err.status === 401
        ? `That key was refused: ${err.message}`
        : (err as Error).message,
    );
  }
  sessionStorage.setItem(KEY_STORAGE, key);
  client = candidate;
  byId('gate').hidden = true;
  byId('app').hidden = false;
  byId('forget').hidden = false;
  settingsForm.fill(settings);
  byId('requests-title').focus();
  shownList = '';
  await guard(() => refreshAll());
  schedule();
}

function showGate(message: string): void {
  client = undefined;
  clearTimeout(polling);
  byId('app').hidden = true;
  byId('forget').hidden = true;
  byId('session-picker').hidden = true;
  byId('gate').hidden = false;
  byId('key-error').textContent = message;
  byId<HTMLInputElement>('key').focus();
}

function schedule(): void {
  clearTimeout(polling);
  polling = setTimeout(() => {
    void (async () => {
      if (client && live && !document.hidden) {
        polls++;
        await guard(async () => {
          await refreshRequests();
          if (polls % SLOW_POLLS === 0)
            await Promise.all([refreshCollections(), refreshSessions(), refreshViolations()]);
        });
      }
      if (client) schedule();
    })();
  }, POLL_MS);
}

/**
 * Runs a call of the admin API, and says what went wrong: a refused key sends the person back
 * to the key field, a mock that does not answer is said so (polling goes on, and says when it
 * answers again).
 */
async function guard(action: () => Promise<void>): Promise<void> {
  const banner = byId('connection');
  try {
    await action();
    banner.hidden = true;
  } catch (err) {
    if (err instanceof AdminError && err.status === 401)
      return showGate(
        `The key was refused (the mock may have restarted with other keys): ${err.message}`,
      );
    banner.textContent =
      err instanceof Unreachable ? err.message : `Something failed: ${(err as Error).message}`;
    banner.hidden = false;
  }
}

/** The reset button names what it resets: the default state, or the session picked. */
function resetLabel(): void {
  byId('reset').textContent = client?.session
    ? `Reset session ${client.session}`
    : 'Reset the mock';
}

async function refreshAll(): Promise<void> {
  shownList = '';
  await Promise.all([
    refreshRequests(),
    refreshCollections(),
    refreshSessions(),
    refreshSettings(),
    refreshViolations(),
  ]);
}

async function refreshRequests(): Promise<void> {
  if (!client) return;
  const query = new URLSearchParams({ view: 'summary', limit: String(ROWS) });
  for (const name of ['method', 'path', 'status', 'session']) {
    const value = (
      filters.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null
    )?.value.trim();
    if (value) query.set(name, value);
  }
  const error = byId('filter-error');
  // The session asked about: another may be picked before the answer comes.
  const session = client.session;
  let list: RequestList;
  try {
    list = await client.get<RequestList>(`requests?${query}`);
    // An answer about a session no longer picked is dropped: shown under the new one, with the
    // same ids (each session numbers its own log), it would stand for the new one's rows.
    if (client?.session !== session) return;
  } catch (err) {
    if (!(err instanceof AdminError && err.status === 400)) throw err;
    error.textContent = filterProblem(err.message);
    shownList = '';
    table.render([]);
    byId('request-count').textContent = '';
    return;
  }
  error.textContent = '';
  const signature = `${session ?? ''}|${query}|${list.count}|${list.requests.map((request) => request.id).join(',')}`;
  if (signature === shownList) return;
  const before = shownList;
  shownList = signature;
  table.render(list.requests);
  const shown = list.requests.length;
  byId('request-count').textContent =
    `${list.count} request${list.count === 1 ? '' : 's'}` +
    (shown < list.count ? `, the newest ${shown} shown` : '');
  // New requests may have changed what the collections hold, and broken the spec.
  if (before !== '') await Promise.all([refreshCollections(), refreshViolations()]);
}

/** The violations a proxy saw (a mock has none): the proxy keeps them for every session alike. */
async function refreshViolations(): Promise<void> {
  if (client) violations.render(await client.get<ViolationList>('violations'));
}

async function clearViolations(): Promise<void> {
  if (!client) return;
  await client.delete('violations');
  await refreshViolations();
}

/**
 * A filter the log refused, in words: the field the admin API named, and what it takes (the
 * field's `data-accepts`), else the API's own message.
 */
function filterProblem(message: string): string {
  for (const field of filters.querySelectorAll<HTMLInputElement>('input[data-accepts]')) {
    if (!new RegExp(`\\b${field.name}\\b`).test(message)) continue;
    const label = field.closest('label')?.firstChild?.textContent?.trim() ?? field.name;
    return `${label} takes ${field.dataset.accepts}: “${field.value.trim()}” is not one.`;
  }
  return `That filter is not one the log takes: ${message}`;
}

async function refreshCollections(): Promise<void> {
  if (client) collections.render(await client.get<CollectionList>('collections'));
}

async function refreshSettings(): Promise<void> {
  if (client) settingsForm.fill(await client.get<Settings>('settings'));
}

/**
 * Shows the session picker once the mock has sessions: `GET /sessions` answers 200 (a mock
 * without sessions answers 404) and lists one at least.
 */
async function refreshSessions(): Promise<void> {
  if (!client) return;
  const { status, body } = await client.status('sessions');
  const picker = byId('session-picker');
  const ids = new Set(
    status === 200 ? (body as SessionList).sessions.map((session) => session.id) : [],
  );
  const picked = client.session;
  if (picked !== undefined) ids.add(picked);
  if (ids.size === 0) {
    picker.hidden = true;
    return;
  }
  const options = [
    h('option', { value: '' }, 'default'),
    ...[...ids].sort().map((id) => h('option', { value: id }, id)),
  ];
  const current = [...sessionSelect.options].map((option) => option.value).join('\n');
  if (current !== options.map((option) => option.value).join('\n'))
    sessionSelect.replaceChildren(...options);
  sessionSelect.value = picked ?? '';
  picker.hidden = false;
  resetLabel();
}

async function openRequest(
  id: number,
  session: string | undefined,
  row: HTMLElement,
): Promise<void> {
  if (!client) return;
  try {
    // Each session numbers its own log: the row's session says which.
    const query = session === undefined ? '' : `?${new URLSearchParams({ session })}`;
    const entry = await client.get<RecordedRequest>(`requests/${id}${query}`);
    dialog.show(`${entry.method} ${entry.path}`, requestDetail(entry), row);
  } catch (err) {
    if (!(err instanceof AdminError && err.status === 404)) throw err;
    dialog.show(
      `Request #${id}`,
      [h('p', { class: 'note' }, 'The log no longer holds this request.')],
      row,
    );
  }
}

async function openCollection(name: string, button: HTMLElement): Promise<void> {
  if (!client) return;
  const collection = await client.get<CollectionRecords>(
    `collections/${encodeURIComponent(name)}?limit=${RECORDS}`,
  );
  dialog.show(collection.name, collectionDetail(collection), button);
}

async function applySettings(change: Settings): Promise<void> {
  if (!client) return;
  try {
    const applied = await client.patch<Settings>('settings', change);
    settingsForm.fill(applied);
    settingsForm.say(`Applied. ${describeSettings(applied)}.`);
  } catch (err) {
    if (!(err instanceof AdminError && err.status === 400)) throw err;
    settingsForm.say(err.message, true);
  }
}

async function reset(): Promise<void> {
  if (!client) return;
  const which = client.session ? `session “${client.session}”` : 'the default state';
  const asked = `Reset ${which}? Its records, scenario settings and request log go back to the start-up state.`;
  if (!window.confirm(asked)) return;
  await client.post('reset');
  settingsForm.say(
    `Back to the start-up state${client.session ? ` (session ${client.session})` : ''}: data, settings and log.`,
  );
  await refreshAll();
}
