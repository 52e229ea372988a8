// Not in docs/recipes.md: the proof that its recipe isolates workers. Two tests, on two workers at
// once, each add a category; each then sees its own, with the same id, and not the other's;
// the mock's default state (a developer's browser) sees neither.
import { barrier } from './barrier.ts';
import { expect as expectSoon, test } from './fixtures.ts';

// What the page shows is awaited for up to 15 s, not Playwright's 5 s: a busy machine runs two
// Chromiums, the dev server and the mock on the same cores.
const expect = expectSoon.configure({ timeout: 15_000 });

const mock = `http://127.0.0.1:${process.env.MOCK_PORT ?? 4010}`;

for (const name of ['Axolotl', 'Capybara']) {
  test(`adds ${name} while another worker adds another, and sees only its own`, async ({
    page,
  }) => {
    await page.goto('/');
    await page.getByLabel('New category').fill(name);
    await page.getByRole('button', { name: 'Add' }).click();
    await expect(page.getByRole('listitem').last()).toHaveText(name);
    await barrier('created', name, 2);

    await page.reload();
    await expect(page.getByRole('listitem')).toHaveCount(11);
    await expect(page.getByRole('listitem').last()).toHaveText(name);

    const shared = await fetch(`${mock}/v1/categories`, {
      headers: { Authorization: 'Bearer petstore-kit-dev-key' },
    });
    expect(((await shared.json()) as { name: string }[]).map((c) => c.name)).not.toContain(name);
  });
}
