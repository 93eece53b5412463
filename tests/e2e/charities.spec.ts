import { makeLogoPng } from '../../src/db/seed/images.ts';
import { expect, expectAccessible, signIn, test } from './fixtures.ts';

test.describe('charities', () => {
  test('search by name on each key, filter by type, reset', async ({ page }) => {
    await signIn(page, 'admin', '/charities');
    await expect(page.getByRole('heading', { name: 'Charities' })).toBeVisible();
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(16);
    await expect(page.getByRole('columnheader')).toHaveText(['Charity Name & Type', 'URL', 'Logo', 'Action']);
    await expectAccessible(page);

    await page.getByLabel('Search by name').pressSequentially('hosp');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('Meadowbank Hospice');
    await expect(rows.first()).toContainText('Hospice');

    await page.getByLabel('Filter by Type').selectOption({ label: 'Animal Charity' });
    await expect(page.getByText('No charities match this search.')).toBeVisible();
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(rows).toHaveCount(16);
    await expect(page.getByLabel('Search by name')).toHaveValue('');

    await page.getByLabel('Filter by Type').selectOption({ label: 'Animal Charity' });
    await expect(rows).toHaveCount(2);
    const paws = rows.filter({ hasText: 'Paws & Whiskers Rescue' });
    await expect(paws.getByRole('link', { name: 'Website' })).toHaveAttribute('target', '_blank');
    await expect(paws.getByRole('img')).toBeVisible();
    expect(await paws.getByRole('img').evaluate((img) => getComputedStyle(img).maxWidth)).toBe('150px');
    await expect(rows.filter({ hasText: 'Hedgehog Haven Trust' })).toContainText('N/A');
    await page.screenshot({ path: 'test-results/screens/charity-list.png', fullPage: true });
  });

  test('add a charity from the inline form: it clears, resets to Hospice, hides and the list shows it', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/charities');
    await expect(page.getByLabel('Charity Name')).toHaveCount(0);
    await page.getByRole('button', { name: 'Add New Charity' }).click();
    await page.getByRole('button', { name: 'Add Charity' }).click();
    await expect(page.getByText('The name field is required.')).toBeVisible();

    await page.getByLabel('Charity Name').fill('Mountain Rescue Volunteers');
    await expect(page.getByLabel('Type of Charity')).toHaveValue('5');
    await page.getByLabel('Type of Charity').selectOption({ label: 'Community Charity' });
    await page.getByRole('button', { name: 'Add Charity' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Charity record has been added' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Charity' })).toHaveCount(0);
    await expect(page.locator('tbody tr').filter({ hasText: 'Mountain Rescue Volunteers' })).toContainText(
      'Community Charity',
    );

    await page.getByRole('button', { name: 'Add New Charity' }).click();
    await expect(page.getByLabel('Charity Name')).toHaveValue('');
    await expect(page.getByLabel('Type of Charity')).toHaveValue('5');
  });

  test('edit a charity: errors under the fields, upload and remove a logo, save, delete', async ({ page }) => {
    await signIn(page, 'admin', '/charities');
    await page.getByRole('button', { name: 'Add New Charity' }).click();
    await page.getByLabel('Charity Name').fill('Harbour Lights Trust');
    await page.getByRole('button', { name: 'Add Charity' }).click();
    await page.getByRole('link', { name: 'Edit Harbour Lights Trust' }).click();

    await expect(page.getByRole('heading', { name: 'Edit Charity: Harbour Lights Trust' })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Charity Name').fill('');
    await page.getByLabel('Website URL').fill('not a website');
    await page.getByRole('button', { name: 'Save Charity Record' }).click();
    await expect(page.getByText('The name field is required.')).toBeVisible();
    await expect(page.getByText('The url must be a valid URL starting with http:// or https://.')).toBeVisible();

    // a forged logo is refused by its bytes
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'forged.png', mimeType: 'image/png', buffer: Buffer.from('this is not an image') });
    await expect(page.getByText('The charity logo must be a JPG or PNG image.')).toBeVisible();
    await expect(page.getByText('Current Logo', { exact: true })).toHaveCount(0);

    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: makeLogoPng(200, 100, [40, 120, 200]) });
    await expect(page.getByText('Current Logo', { exact: true })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Harbour Lights Trust logo' })).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/charity-edit.png', fullPage: true });

    await page.getByRole('button', { name: 'Remove Logo' }).click();
    await expect(page.getByText('Are you sure you want to remove this logo?')).toBeVisible();
    await page.getByRole('button', { name: 'No, Cancel' }).click();
    await expect(page.getByText('Current Logo', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Remove Logo' }).click();
    await page.getByRole('button', { name: 'Yes, Remove the Logo' }).click();
    await expect(page.getByText('Current Logo', { exact: true })).toHaveCount(0);

    await page.getByLabel('Charity Name').fill('Harbour Lights Foundation');
    await page.getByLabel('Type of Charity').selectOption({ label: 'Other' });
    await page.getByLabel('Website URL').fill('https://www.harbourlights.example');
    await page.getByRole('button', { name: 'Save Charity Record' }).click();
    await expect(page).toHaveURL(/\/charities$/);
    await expect(page.getByRole('status').filter({ hasText: 'Charity details updated' })).toBeVisible();
    const row = page.locator('tbody tr').filter({ hasText: 'Harbour Lights Foundation' });
    await expect(row).toContainText('Other');
    await expect(row.getByRole('link', { name: 'Website' })).toHaveAttribute(
      'href',
      'https://www.harbourlights.example',
    );

    await row.getByRole('link', { name: /^Edit/ }).click();
    await page.getByRole('button', { name: 'Delete Charity Record' }).click();
    await expect(
      page.getByText('Are you sure you want to delete this charity? This action is irreversible!'),
    ).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Yes, Delete the Record' }).click();
    await expect(page).toHaveURL(/\/charities$/);
    await expect(page.getByRole('status').filter({ hasText: 'Charity record deleted' })).toBeVisible();
    await expect(page.locator('tbody tr').filter({ hasText: 'Harbour Lights Foundation' })).toHaveCount(0);
  });

  test('a charity that trips refer to is kept, and the page says why', async ({ page }) => {
    await signIn(page, 'admin', '/charities');
    await page.getByRole('link', { name: 'Edit Wild Moorland Conservation' }).click();
    await page.getByRole('button', { name: 'Delete Charity Record' }).click();
    await page.getByRole('button', { name: 'Yes, Delete the Record' }).click();
    await expect(page.getByRole('alert')).toContainText('This charity cannot be deleted because');
    await expect(page).toHaveURL(/\/edit$/);
  });
});
