// The docs' "shows the error state", with the page behind Vite's proxy and in StrictMode, run by
// the docs' own Playwright config (test/browser/playwright-docs-config.test.ts).
import { expect as pageExpect, test } from 'petstore-kit/playwright';

// Chromium, Vite and the mock share two busy cores: 15 s for what a page shows, not 5. A
// passing test waits no longer.
const expect = pageExpect.configure({ timeout: 15_000 });

test('shows the error state', async ({ page, mock }) => {
  await mock.force('code=500');
  await page.goto('/');
  await expect(page.getByRole('alert')).toBeVisible();
});

test('after the force is cleared, the page lists again', async ({ page, mock }) => {
  await mock.force('code=500');
  await mock.clear();
  await page.goto('/');
  await expect(page.getByRole('listitem')).toHaveCount(10);
});

test('{ times: 1 } is spent on the answer StrictMode ignores', async ({ page, mock }) => {
  await mock.force('code=500', { times: 1 });
  await page.goto('/');
  await expect(page.getByRole('listitem')).toHaveCount(10);
  expect(await mock.requests({ path: '/v1/categories', status: '500' })).toHaveLength(1);
});

test('{ times: 2 } reaches the answer StrictMode shows', async ({ page, mock }) => {
  await mock.force('code=500', { times: 2 });
  await page.goto('/');
  await expect(page.getByRole('alert')).toBeVisible();
});

test('{ for: ms } holds for that time, then the page lists again', async ({ page, mock }) => {
  await mock.force('code=500', { for: 60_000 });
  await page.goto('/');
  await expect(page.getByRole('alert')).toBeVisible();
  await mock.force('code=500', { for: 1 });
  await expect
    .poll(async () =>
      (
        await page.request.get('/v1/categories', {
          headers: { Authorization: 'Bearer petstore-kit-dev-key' },
        })
      ).status(),
    )
    .toBe(200);
});

test('the session is the page’s through the proxy: another test’s add is not seen', async ({
  page,
  mock,
}) => {
  await page.goto('/');
  await expect(page.getByRole('listitem')).toHaveCount(10);
  expect(await mock.requests({ path: '/v1/categories', method: 'GET' })).toHaveLength(2);
});
