import { expect, expectAccessible, signIn, test } from './fixtures.ts';

test.describe('discounts', () => {
  test('the list shows value, capitalised invoice type and every form of validity; search runs on Enter', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/discounts');
    await expect(page.getByRole('heading', { name: 'Discounts' })).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveText([
      'Code',
      'Description',
      'Value',
      'Invoice Type',
      'Validity',
      'Edit',
    ]);
    const row = (code: string) => page.locator('tbody tr').filter({ hasText: code });
    await expect(row('STAFF100')).toContainText('£100.00');
    await expect(row('STAFF100')).toContainText('Unrestricted');
    await expect(row('EARLYBIRD50')).toContainText('Balance');
    await expect(row('EARLYBIRD50')).toContainText(/\d{2}\/\d{2}\/\d{4} to \d{2}\/\d{2}\/\d{4}/);
    await expect(row('SPRING25')).toContainText(/From \d{2}\/\d{2}\/\d{4}/);
    await expect(row('LASTCHANCE')).toContainText(/Until \d{2}\/\d{2}\/\d{4}/);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/discount-list.png', fullPage: true });

    const search = page.getByPlaceholder('Search...');
    await search.fill('friend');
    await expect(page.locator('tbody tr')).toHaveCount(6);
    await search.press('Enter');
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await expect(row('REFERAFRIEND')).toBeVisible();
  });

  test('create, update (the notice lasts 2 seconds), and delete a discount', async ({ page }) => {
    await signIn(page, 'admin', '/discounts');
    await page.getByRole('link', { name: 'Add New' }).click();
    await expect(page.getByRole('heading', { name: 'New Discount' })).toBeVisible();
    await expect(page.getByLabel('Value')).toHaveAttribute('placeholder', '0.00');
    await expect(page.getByLabel('Invoice Type').locator('option')).toHaveText(['Any', 'Deposit', 'Balance', 'Other']);
    await expect(page.getByLabel('Trip (Optional)').locator('option').first()).toHaveText('');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Save Discount' }).click();
    await expect(page.getByText('The description field is required.')).toBeVisible();
    await expect(page.getByText('The code field is required.')).toBeVisible();

    await page.getByLabel('Code').fill('WINTER20');
    await page.getByLabel('Description').fill('Winter warmer');
    await page.getByLabel('Invoice Type').selectOption('deposit');
    // the demo trips are named by the year they depart, which follows the clock
    const kilimanjaro = await page
      .getByLabel('Trip (Optional)')
      .locator('option', { hasText: 'Kilimanjaro Summit Trek' })
      .first()
      .textContent();
    await page.getByLabel('Trip (Optional)').selectOption({ label: kilimanjaro! });
    await page.getByLabel('Value').fill('20');
    await page.getByLabel('Valid From (Optional)').fill('31/02/2027');
    await page.getByRole('button', { name: 'Save Discount' }).click();
    await expect(page.getByText('The valid from date must be a real date in the format dd/mm/yyyy.')).toBeVisible();
    await page.getByLabel('Valid From (Optional)').fill('01/12/2026');
    await page.getByLabel('Valid Until (Optional)').fill('28/02/2027');
    await page.getByRole('button', { name: 'Save Discount' }).click();

    await expect(page).toHaveURL(/\/discounts$/);
    await expect(page.getByRole('status').filter({ hasText: 'Discount has been created' })).toBeVisible();
    const row = page.locator('tbody tr').filter({ hasText: 'WINTER20' });
    await expect(row).toContainText('£20.00');
    await expect(row).toContainText('Deposit');
    await expect(row).toContainText('01/12/2026 to 28/02/2027');

    await row.getByRole('link', { name: 'Edit WINTER20' }).click();
    await expect(page.getByRole('heading', { name: 'Update Discount' })).toBeVisible();
    await expect(page.getByLabel('Valid From (Optional)')).toHaveValue('01/12/2026');
    await page.getByLabel('Code').fill('STAFF100');
    await page.getByRole('button', { name: 'Save Discount' }).click();
    await expect(page.getByText('The code has already been taken.')).toBeVisible();
    await page.getByLabel('Code').fill('WINTER25');
    await page.getByLabel('Value').fill('25.50');
    await page.getByRole('button', { name: 'Save Discount' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Discount updated' });
    await expect(notice).toBeVisible();
    await expect(page).toHaveURL(/\/discounts\/\d+\/edit$/);
    await page.screenshot({ path: 'test-results/screens/discount-form.png', fullPage: true });
    await page.waitForTimeout(1500);
    await expect(notice).toBeVisible();
    await expect(notice).toHaveCount(0, { timeout: 1500 });
    await expect(page.getByLabel('Value')).toHaveValue('25.50');

    await page.getByRole('button', { name: 'Delete Discount' }).click();
    await expect(page.getByText('Are you sure? This cannot be undone!')).toBeVisible();
    await page.getByRole('button', { name: 'No, Cancel' }).click();
    await page.getByRole('button', { name: 'Delete Discount' }).click();
    await page.getByRole('button', { name: 'Yes, Delete this Discount' }).click();
    await expect(page).toHaveURL(/\/discounts$/);
    await expect(page.getByRole('status').filter({ hasText: 'Discount has been deleted' })).toBeVisible();
    await expect(page.locator('tbody tr').filter({ hasText: 'WINTER25' })).toHaveCount(0);
  });

  test('a discount that does not exist shows the not-found page', async ({ page }) => {
    await signIn(page, 'admin', '/discounts');
    await page.goto('/discounts/999999/edit');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });
});
