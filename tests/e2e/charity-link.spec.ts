import { expect, expectAccessible, signIn, test } from './fixtures.ts';
import { E2E_USERS } from './users.ts';

test('an Administrator links a Charity user to their charity; the select is there for the Charity role only', async ({
  page,
  consoleErrors,
}) => {
  await signIn(page, 'admin', '/users');
  const found = (await (
    await page.request.get(`/api/users?search=${encodeURIComponent(E2E_USERS.charity.email)}`)
  ).json()) as { data: Array<{ id: number }> };
  const id = found.data[0]!.id;
  await page.goto(`/users/${id}/edit`);
  const charity = page.getByLabel('Charity', { exact: true });
  await expect(charity).toBeVisible();
  await expect(charity.locator('option')).not.toHaveCount(1);
  const chosen = (await charity.locator('option').nth(1).innerText()).trim();
  await charity.selectOption({ label: chosen });
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save User' }).click();
  await expect(page.getByText('User record updated')).toBeVisible();
  await page.goto(`/users/${id}/edit`);
  await expect(page.getByLabel('Charity', { exact: true }).locator('option:checked')).toHaveText(chosen);
  // another role has no charity to choose
  await page.getByLabel('Role').selectOption({ label: 'End User' });
  await expect(page.getByLabel('Charity', { exact: true })).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
