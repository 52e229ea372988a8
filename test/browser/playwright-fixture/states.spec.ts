// Six tests on two workers at once against one mock: each worker in its own session, each
// test starting from the seed data, forcing the states a UI must render. Each add logs its
// project, worker, session and mock, for the Vitest test that runs Playwright to check.
import { expect, test } from 'petstore-kit/playwright';

/** A page that lists the categories, adds one, and says what state it is in. */
function appPage(api: string): string {
  return `<!doctype html><title>app</title><ul id="list"></ul><p id="state">loading</p>
<script>
const api = ${JSON.stringify(api)};
const auth = { Authorization: 'Bearer petstore-kit-dev-key' };
const state = document.getElementById('state');
async function load() {
  try {
    const response = await fetch(api + '/categories', { headers: auth });
    if (!response.ok) { state.textContent = 'error ' + response.status; return; }
    const items = await response.json();
    document.getElementById('list').innerHTML = items.map((c) => '<li>' + c.name + '</li>').join('');
    state.textContent = 'loaded';
  } catch { state.textContent = 'network error'; }
}
window.add = async (name) => {
  await fetch(api + '/categories', {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  await load();
};
load();
</script>`;
}

/** The app's page, served (by a route) from the mock's origin: its calls are same-origin. */
let APP = '';

test.beforeEach(async ({ page, mock }) => {
  APP = new URL('/app.html', mock.url).href;
  await page.route(APP, (route) =>
    route.fulfill({ contentType: 'text/html', body: appPage(mock.url) }),
  );
});

for (const name of ['Axolotl', 'Capybara', 'Dugong']) {
  test(`adds ${name}, and sees only its own`, async ({ page, mock }) => {
    await page.goto(APP);
    await expect(page.locator('#state')).toHaveText('loaded');
    await expect(page.locator('li')).toHaveCount(10);
    await page.evaluate(
      (added) => (globalThis as unknown as { add(n: string): Promise<void> }).add(added),
      name,
    );
    await expect(page.locator('li')).toHaveCount(11);
    await expect(page.locator('li').last()).toHaveText(name);
    const posts = await mock.requests({ path: '/v1/categories', method: 'POST' });
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ status: 201, session: mock.session });
    const { project, parallelIndex } = test.info();
    console.log(
      `[${project.name}] worker ${parallelIndex} ${mock.session} at ${mock.url} added ${name}`,
    );
  });
}

test('renders the error state of a forced 500, for one call only', async ({ page, mock }) => {
  await mock.force('code=500', { times: 1 });
  await page.goto(APP);
  await expect(page.locator('#state')).toHaveText('error 500');
  await page.reload();
  await expect(page.locator('#state')).toHaveText('loaded');
  expect((await mock.requests({ path: '/v1/categories' })).map((r) => r.status)).toEqual([
    500, 200,
  ]);
});

test('renders a network error when the connection is reset', async ({ page, mock }) => {
  await mock.force('fault=reset');
  await page.goto(APP);
  await expect(page.locator('#state')).toHaveText('network error');
  const [logged] = await mock.requests({ path: '/v1/categories', method: 'GET' });
  expect(logged?.fault).toBe('reset');
});

test('holds answers back with latency, and counts the delay in the coverage', async ({
  page,
  mock,
}) => {
  await mock.latency(300);
  await page.goto(APP);
  await expect(page.locator('#state')).toHaveText('loaded');
  const [get] = await mock.requests({ path: '/v1/categories', method: 'GET' });
  expect(get?.durationMs).toBeGreaterThanOrEqual(300);
  const list = (await mock.coverage()).operations.find((o) => o.operationId === 'listCategories');
  expect(list?.statuses).toContainEqual({ status: 'delay', documented: false, hits: 1 });
});

test('holds the mock its worker started, and none it reaches at a mock URL', async ({ mock }) => {
  if (test.info().project.name === 'shared') {
    expect(mock.mock).toBeUndefined();
    return;
  }
  // The one mock, with no socket: what the page added over HTTP is in its own session's store.
  const headers = { authorization: 'Bearer petstore-kit-dev-key', 'mock-session': mock.session };
  const created = await mock.mock!.fetch(
    new Request(`${mock.url}/categories`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Quokka' }),
    }),
  );
  expect(created.status).toBe(201);
  const listed = await fetch(`${mock.url}/categories`, { headers });
  expect(((await listed.json()) as { name: string }[]).map((c) => c.name)).toContain('Quokka');
});
