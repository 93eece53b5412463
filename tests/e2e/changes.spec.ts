import { bookingThroughApi, expect, expectAccessible, signIn, test } from './fixtures.ts';

test.describe('changes after booking', () => {
  test('cancel a booking from its page: the preview first, then the fee invoiced and the History', async ({ page }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await bookingThroughApi(
      page,
      { title: 'Mr', first_name: 'Colin', last_name: 'Cancelled', preferred_name: 'Col', email_name: 'colin' },
      { deposit: true },
    );
    await page.goto(`/bookings/${id}`);
    await page.getByRole('button', { name: 'Cancel Booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this booking' });
    const preview = dialog.getByRole('group', { name: 'What cancelling does' });
    await expect(preview).toContainText('Fee kept');
    await expect(preview).toContainText(/Invoice INV-\d+ \(£[\d,.]+\) is deleted: nothing was paid on it\./);
    await expect(preview).toContainText('Still to pay (a cancellation invoice)');
    await expectAccessible(page);

    // refused without a reason: nothing changes
    await dialog.getByRole('button', { name: 'Cancel Booking' }).click();
    await expect(dialog.getByText('Give the reason for cancelling.')).toBeVisible();

    // waiving the fee asks why, and the preview follows
    await dialog.getByLabel('Waive the fee').check();
    await expect(preview).toContainText(/The fee is waived/);
    await expect(dialog.getByLabel('Why the fee is waived')).toBeVisible();
    await dialog.getByLabel('Waive the fee').uncheck();
    await expect(preview).not.toContainText(/The fee is waived/);

    await dialog.getByLabel('Reason').fill('Changed plans, told us by phone');
    await dialog.getByLabel('Email the traveller what was decided').uncheck();
    await page.screenshot({ path: 'test-results/screens/cancel-booking.png' });
    await dialog.getByRole('button', { name: 'Cancel Booking' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: /Booking TD-\w+ is cancelled\./ })).toBeVisible();
    await expect(page.getByText(/^cancelled$/i).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel Booking' })).toHaveCount(0);
    await expect(page.locator('#invoices')).toContainText('Cancellation of booking');
    await expect(page.getByText(/cancelled booking TD-\w+: The fee is £[\d,.]+ \(/).first()).toBeVisible();
  });

  test('move a booking to another departure from its page: the departure chosen, the preview, then the History', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await bookingThroughApi(page, {
      title: 'Ms',
      first_name: 'Mona',
      last_name: 'Mover',
      preferred_name: 'Mona',
      email_name: 'mona',
    });
    await page.goto(`/bookings/${id}`);
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Move to another departure' });
    await expect(dialog.getByText('Choose the departure to see what the move does.')).toBeVisible();
    // refused without a departure: nothing changes
    await dialog.getByRole('button', { name: 'Move Booking' }).click();
    await expect(dialog.getByText('Choose the departure to move to.')).toBeVisible();

    const departure = dialog.getByLabel(/^Departure/);
    await expect(departure.locator('option').nth(1)).toBeAttached();
    const chosen = (await departure.locator('option').nth(1).textContent())!.split(',')[0]!;
    await departure.selectOption({ index: 1 });
    const preview = dialog.getByRole('group', { name: 'What the move does' });
    await expect(preview).toContainText('Move fee');
    await expect(preview).toContainText('Price difference');
    await dialog.getByLabel('Waive the move fee').check();
    await expect(preview.getByText('Move fee').locator('..')).toContainText('£0.00');
    await dialog.getByLabel('Reason').fill('Wants the later date');
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/move-booking.png' });
    await dialog.getByRole('button', { name: 'Move Booking' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: `has moved to ${chosen}.` })).toBeVisible();
    await expect(page.getByText(new RegExp(`moved booking TD-\\w+ from .+ to ${chosen}`)).first()).toBeVisible();
  });

  test('the office sets its fees for changes: a band for fundraisers, a transfer fee; mistakes are shown by their fields', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/settings/changes');
    const form = page.getByRole('form', { name: 'Fees for changes' });
    await expect(form.getByLabel('Band 1: from days before departure')).toHaveValue('57');
    await form.getByRole('button', { name: 'Add a band' }).click();
    await form.getByLabel('Band 4: for').selectOption('fundraise');
    await form.getByLabel('Transfer to another traveller').fill('lots');
    await form.getByRole('button', { name: 'Save Fees' }).click();
    await expect(form.getByText('Give the days before departure the band starts from.')).toBeVisible();
    await expect(form.getByText('The transfer fee must be an amount in pounds, such as 25 or 25.50.')).toBeVisible();
    await form.getByLabel('Band 4: from days before departure').fill('0');
    await form.getByLabel('Band 4: kept').selectOption('all');
    await form.getByLabel('Transfer to another traveller').fill('30');
    await expectAccessible(page);
    await form.getByRole('button', { name: 'Save Fees' }).click();
    await expect(form.getByRole('status')).toHaveText('The fees for changes have been saved.');
    await page.reload();
    await expect(form.getByLabel('Transfer to another traveller')).toHaveValue('30.00');
    await expect(form.getByLabel('Band 4: for')).toHaveValue('fundraise');
  });

  test('money’s Refunds owed tab lists what is owed back, by its state', async ({ page }) => {
    await signIn(page, 'admin', '/money');
    await page.getByRole('tab', { name: 'Refunds owed' }).click();
    await expect(page).toHaveURL(/tab=refunds/);
    await expect(page.getByRole('heading', { level: 1, name: 'Refunds owed' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /owed in all/ })).toBeVisible();
    await page.getByText('Settled', { exact: true }).click();
    await expect(page.getByText('No refund owed has been settled yet.')).toBeVisible();
    await expectAccessible(page);
    await page.getByRole('tab', { name: 'Money due' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Money due' })).toBeVisible();
  });

  test('transfer a booking to another traveller from its page: the preview, the new traveller, the fee', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await bookingThroughApi(page, {
      title: 'Ms',
      first_name: 'Tara',
      last_name: 'Leaving',
      preferred_name: 'Tara',
      email_name: 'tara',
    });
    await page.goto(`/bookings/${id}`);
    await page.getByRole('button', { name: 'Transfer', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer to another traveller' });
    await expect(dialog.getByRole('group', { name: 'What the transfer does' })).toContainText('From Tara Leaving');
    await dialog.getByRole('button', { name: 'Transfer Booking' }).click();
    await expect(dialog.getByText('The first name field is required.')).toBeVisible();
    await dialog.getByRole('textbox', { name: /^Title/ }).fill('Mr');
    await dialog.getByLabel('First name').fill('Theo');
    await dialog.getByLabel('Last name').fill('Taking');
    await dialog.getByLabel('Preferred name').fill('Theo');
    await dialog.getByRole('textbox', { name: /^Email/ }).fill(`theo.${Date.now()}@example.test`);
    await dialog.getByLabel('Email both travellers').uncheck();
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/transfer-booking.png' });
    await dialog.getByRole('button', { name: 'Transfer Booking' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: /has passed to Theo Taking/ })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Theo Taking');
    await expect(page.locator('#invoices')).toContainText('Transfer of booking');
  });
});
