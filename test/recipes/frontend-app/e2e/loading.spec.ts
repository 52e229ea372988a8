// Not in docs/recipes.md: the proof that its component waits for the list before it offers an
// add. The first list is held back here until the page has said it is loading; an add made
// before the list arrived used to be overwritten by it (the list ended at the seed's last).
import { expect, test } from './fixtures.ts';

test('says it is loading, and offers the add only with the list', async ({ page }) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/v1/categories', async (route) => {
    if (route.request().method() === 'GET') await held;
    await route.continue();
  });

  await page.goto('/');
  await expect(page.getByText('Loading')).toBeVisible();
  await expect(page.getByLabel('New category')).toHaveCount(0);
  release();

  await page.getByLabel('New category').fill('Okapi');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('listitem')).toHaveCount(11);
  await expect(page.getByRole('listitem').last()).toHaveText('Okapi');
  await expect(page.getByText('Loading')).toHaveCount(0);
});
