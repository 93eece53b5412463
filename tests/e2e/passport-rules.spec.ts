import { expect, expectAccessible, signIn, test } from './fixtures.ts';

test.describe('passport rules by destination', () => {
  test('an Administrator finds a country, changes its months and note, with a mistake first', async ({
    page,
    consoleErrors,
  }) => {
    await signIn(page, 'admin', '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Passport rules' }).click();
    await expect(page).toHaveURL(/\/settings\/countries$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Passport rules' })).toBeVisible();
    await expect(page.getByText(/confirm each with official travel advice/)).toBeVisible();

    await page.getByLabel('Find a country').fill('iceland');
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Iceland');
    await expect(rows.first().locator('td').nth(2)).toHaveText('3');
    await expect(rows.first()).toContainText('Schengen area');
    await expectAccessible(page);

    await rows.first().getByRole('button', { name: 'Edit the passport rule for Iceland' }).click();
    const dialog = page.getByRole('dialog', { name: 'Passport rule for Iceland' });
    const months = dialog.getByLabel('Months valid after the return');
    await expect(months).toBeFocused();
    await months.fill('');
    await dialog.getByRole('button', { name: 'Save Rule' }).click();
    await expect(dialog.getByText('The months must be a whole number from 0 to 24.')).toBeVisible();
    await months.fill('4');
    await dialog.getByLabel('Note').fill('Two blank pages, and issued within 10 years.');
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/passport-rule-dialog.png' });
    await dialog.getByRole('button', { name: 'Save Rule' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(
      page.getByRole('status').filter({ hasText: 'The passport rule for Iceland has been saved.' }),
    ).toBeVisible();
    await expect(rows.first().locator('td').nth(2)).toHaveText('4');
    await expect(rows.first()).toContainText('Two blank pages, and issued within 10 years.');
    await page.screenshot({ path: 'test-results/screens/passport-rules.png', fullPage: false });

    // no match says so
    await page.getByLabel('Find a country').fill('Atlantis');
    await expect(page.getByText('No country matches "Atlantis".')).toBeVisible();

    // back as it was, for the other specs
    await page.getByLabel('Find a country').fill('iceland');
    await rows.first().getByRole('button', { name: 'Edit the passport rule for Iceland' }).click();
    await dialog.getByLabel('Months valid after the return').fill('3');
    await dialog
      .getByLabel('Note')
      .fill('Schengen area: valid 3 months after you leave, and issued less than 10 years before the day you arrive.');
    await dialog.getByRole('button', { name: 'Save Rule' }).click();
    await expect(dialog).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });
});
