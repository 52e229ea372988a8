// The fixture's controls on a page whose mock runs in the page itself (MSW's worker): nothing
// the page calls reaches the mock server the fixture started, so only the page's channel can.
import type { Page } from '@playwright/test';
import { expect, test } from 'petstore-kit/playwright';

const AUTH = { Authorization: 'Bearer petstore-kit-dev-key' };

/** One call by the page's own code, answered by the mock in the page: its status, and a list's length. */
function call(page: Page, method = 'GET', body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, body, headers }) => {
      const answer = await fetch('/v1/categories', {
        method,
        headers: { ...headers, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return answer.status;
    },
    { method, body, headers: AUTH },
  );
}

/** How many categories the mock in the page lists. */
function listed(page: Page): Promise<number> {
  return page.evaluate(
    async (headers) => ((await (await fetch('/v1/categories', { headers })).json()) as []).length,
    AUTH,
  );
}

test('a force until cleared holds over navigations; cleared, the page lists again', async ({
  page,
  mock,
}) => {
  await mock.force('code=500');
  await page.goto('/');
  await expect(page.getByRole('alert')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('alert')).toBeVisible();
  await mock.clear();
  await page.reload();
  await expect(page.getByRole('listitem')).toHaveCount(10);
});

test('{ times: 2 } reaches the answer StrictMode shows, and is spent after', async ({
  page,
  mock,
}) => {
  await mock.force('code=500', { times: 2 });
  await page.goto('/');
  await expect(page.getByRole('alert')).toBeVisible();
  // The next page's mock starts again, but not the count: it was spent in the last one.
  await page.reload();
  await expect(page.getByRole('listitem')).toHaveCount(10);
});

test('{ times: 1 } on a page already shown: the next call only', async ({ page, mock }) => {
  await page.goto('/');
  await expect(page.getByRole('listitem')).toHaveCount(10);
  await mock.force('code=503', { times: 1 });
  expect(await call(page)).toBe(503);
  expect(await call(page)).toBe(200);
});

test('{ for: ms } holds for that time, then the page lists again', async ({ page, mock }) => {
  await mock.force('code=500', { for: 60_000 });
  await page.goto('/');
  await expect(page.getByRole('alert')).toBeVisible();
  await mock.force('code=500', { for: 1 });
  await expect.poll(() => call(page)).toBe(200);
});

test('reset reaches the page: what it created is gone, the force too', async ({ page, mock }) => {
  await page.goto('/');
  await expect(page.getByRole('listitem')).toHaveCount(10);
  expect(await call(page, 'POST', { name: 'Axolotls' })).toBe(201);
  expect(await listed(page)).toBe(11);
  await mock.force('code=500');
  await mock.reset();
  expect(await call(page)).toBe(200);
  expect(await listed(page)).toBe(10);
});

// One worker, in this order: a channel the worker kept, not the test, would carry the force over.
test.describe.serial('each test its own controls', () => {
  test('a force left held at the end of a test…', async ({ page, mock }) => {
    await mock.force('code=500');
    await page.goto('/');
    await expect(page.getByRole('alert')).toBeVisible();
  });

  test('…is not seen by the next test', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('listitem')).toHaveCount(10);
    expect(await call(page)).toBe(200);
  });
});
