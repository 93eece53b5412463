import { expect, expectAccessible, signIn, test } from './fixtures.ts';

const pounds = (text: string) => Number(text.replace(/[£,]/g, ''));

test.describe('money due', () => {
  test('the bucket totals and rows, "Overdue only", sort by outstanding, and a reminder for a ticked row', async ({
    page,
    consoleErrors,
  }) => {
    await signIn(page, 'admin', '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Money' }).click();
    await expect(page).toHaveURL(/\/money$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Money due' })).toBeVisible();

    const totals = page.getByRole('region', { name: 'Totals by how overdue' });
    for (const label of [
      'Not yet due',
      '1–30 days overdue',
      '31–60 days overdue',
      '61–90 days overdue',
      'Over 90 days overdue',
      'Total outstanding',
    ]) {
      await expect(totals.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByTestId('bucket-total')).toContainText('£');
    const total = pounds((await page.getByTestId('bucket-total').locator('p').last().innerText()).trim());
    expect(total).toBeGreaterThan(0);
    const buckets = await Promise.all(
      ['not_due', 'days_1_30', 'days_31_60', 'days_61_90', 'days_90_plus'].map(async (b) =>
        pounds(await page.getByTestId(`bucket-${b}`).locator('p').last().innerText()),
      ),
    );
    expect(Math.round(buckets.reduce((a, b) => a + b, 0) * 100)).toBe(Math.round(total * 100));

    const rows = page.locator('tbody tr');
    await expect(rows.first().getByRole('link').first()).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveText([
      '',
      'Traveller',
      'Trip',
      'Departure',
      /^Due/,
      'Days overdue',
      'What',
      'Outstanding',
      'Last reminder',
    ]);
    await expect(page.getByRole('columnheader', { name: 'Due', exact: true })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    const allCount = await rows.count();
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/money-due.png', fullPage: true });

    // overdue only: every row is overdue, and "Not yet due" comes to nothing
    await page.getByRole('checkbox', { name: 'Overdue only' }).click();
    await expect(page.getByRole('checkbox', { name: 'Overdue only' })).toBeChecked();
    await expect(page).toHaveURL(/overdue=1/);
    await expect(page.locator('table')).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByTestId('bucket-not_due')).toContainText('£0.00');
    const overdue = await rows.locator('td:nth-child(6)').allInnerTexts();
    expect(overdue.length).toBeGreaterThan(0);
    for (const days of overdue) expect(Number(days)).toBeGreaterThan(0);
    expect(pounds(await page.getByTestId('bucket-total').locator('p').last().innerText())).toBeLessThan(total);
    expect(overdue.length).toBeLessThanOrEqual(allCount);

    // kept in the URL
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Overdue only' })).toBeChecked();

    // sorted by outstanding, the largest first
    await page.getByRole('button', { name: 'Outstanding', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'Outstanding' })).toHaveAttribute('aria-sort', 'descending');
    await expect(page).toHaveURL(/sort=outstanding/);
    await expect(page.locator('table')).toHaveAttribute('aria-busy', 'false');
    const amounts = (await rows.locator('td:nth-child(8)').allInnerTexts()).map(pounds);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));

    // tick an invoiced row and send its traveller a reminder now
    const invoiced = rows.filter({ has: page.getByRole('link', { name: /^INV/ }) }).first();
    const traveller = (await invoiced.getByRole('link').first().innerText()).trim();
    await expect(page.getByRole('button', { name: 'Send reminder now' })).toBeDisabled();
    await invoiced.getByRole('checkbox', { name: new RegExp(`^Select ${traveller}`) }).check();
    await expect(page.getByText(/^1 row ticked \(1 booking\)\.$/)).toBeVisible();
    await page.getByRole('button', { name: 'Send reminder now' }).click();
    // the demo's invoices were raised by hand, off any schedule: "send now" reminds of them all the same
    const message = page.getByRole('status').filter({ hasText: /^1 reminder sent\.$/ });
    await expect(message).toBeVisible();
    await expect(page.getByRole('checkbox', { name: new RegExp(`^Select ${traveller}`) }).first()).not.toBeChecked();
    await page.screenshot({ path: 'test-results/screens/money-due-sent.png', fullPage: true });

    // "select all on this page"
    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await expect(page.getByText(new RegExp(`^${await rows.count()} rows ticked`))).toBeVisible();

    // the list as filtered and sorted, every page, as a spreadsheet
    const link = page.getByRole('link', { name: 'Download (xlsx)' });
    await expect(link).toHaveAttribute('href', /^\/api\/money-due\/export\?.*overdue=1/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^money-due-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect((await download.failure()) ?? null).toBeNull();
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('email templates: a test send, and back to Tripdesk’s wording', () => {
  test('sends the draft to me, then puts a changed wording back', async ({ page }) => {
    await signIn(page, 'admin', '/settings/emails?email=reminder_due');
    const form = page.getByRole('form', { name: /Reminder on the day an instalment is due/ });
    const panel = page.getByRole('tabpanel', { name: /Reminder on the day an instalment is due/ });
    const preview = panel.getByRole('region', { name: 'Preview' });
    await expect(form.getByRole('button', { name: 'Back to Tripdesk’s wording' })).toHaveCount(0);
    const original = await form.getByLabel('Subject').inputValue();

    await form.getByLabel('Subject').fill('Test of {{ trip.name }}');
    await preview.getByRole('textbox', { name: 'Booking' }).fill('1');
    await preview.getByRole('button', { name: 'Send me a test' }).click();
    await expect(preview.getByRole('status').filter({ hasText: /^A test email has been sent to / })).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/email-templates-test-sent.png', fullPage: true });

    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('status')).toHaveText(/^Saved at/);
    await form.getByRole('button', { name: 'Back to Tripdesk’s wording' }).click();
    const dialog = page.getByRole('dialog', { name: 'Back to Tripdesk’s wording?' });
    await dialog.getByRole('button', { name: 'Use Tripdesk’s wording' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(form.getByLabel('Subject')).toHaveValue(original);
    await expect(form.getByText('Tripdesk’s default wording')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Back to Tripdesk’s wording' })).toHaveCount(0);
  });
});
