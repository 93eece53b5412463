import { bookingThroughApi, expect, expectAccessible, signIn, test } from './fixtures.ts';

test.describe('history', () => {
  test('a status change, a payment recorded and struck out, and an invoice sent are all in the booking History; /audit filters by who', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await bookingThroughApi(page, {
      title: 'Mr',
      first_name: 'Hector',
      last_name: 'History',
      preferred_name: 'Hec',
      email_name: 'hector',
    });
    await page.goto(`/bookings/${id}`);

    // the status, through Edit Booking
    await page.getByRole('button', { name: 'Edit Booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Booking' });
    await dialog.getByLabel('Status').selectOption('confirmed');
    await dialog.getByRole('button', { name: 'Save Booking' }).click();
    await expect(dialog).toHaveCount(0);

    // a deposit invoice, a payment, the payment struck out, the invoice sent
    const panel = page.locator('#invoices');
    await panel.getByRole('button', { name: 'Standard Invoice' }).click();
    const standard = page.getByRole('dialog', { name: 'Standard Invoice' });
    await standard.getByLabel('Deposit').check();
    await standard.getByRole('button', { name: 'Create Invoice' }).click();
    const row = panel.locator('tbody tr').first();
    await expect(row).toContainText('Deposit for');
    await row.getByRole('button', { name: 'Payment', exact: true }).click();
    const payment = page.getByRole('dialog', { name: /Record Payment/ });
    await payment.getByLabel('Amount').fill('100');
    await payment.getByLabel('Paid by').selectOption('BACS');
    await payment.getByRole('button', { name: 'Record Payment' }).click();
    await expect(panel.getByRole('status')).toHaveText('Transaction has been processed.');
    await row.getByRole('button', { name: /^Part Paid/ }).click();
    const payments = page.getByRole('dialog', { name: /Payment History/ });
    await payments.locator('tbody tr').first().getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete transaction' })
      .getByRole('button', { name: 'Yes, Delete it' })
      .click();
    await expect(payments.locator('tbody tr[data-deleted]')).toHaveCount(1);
    await payments.getByRole('button', { name: 'Close' }).click();
    await row.getByRole('button', { name: 'Send' }).click();
    await expect(panel.getByRole('status')).toHaveText('Invoice has been emailed to the customer.');

    // the email, read in full and sent again
    const emails = page.getByRole('region', { name: 'Emails' });
    const email = emails.locator('tbody tr').first();
    await expect(email).toContainText(/Invoice INV-\d+ from/);
    await email.getByRole('button', { name: 'Read' }).click();
    await expect(emails.getByText(/Dear Mr Hector History/)).toBeVisible();
    await emails.screenshot({ path: 'test-results/screens/booking-emails.png' });
    await email.getByRole('button', { name: 'Resend' }).click();
    await expect(emails.getByRole('status')).toHaveText('Invoice has been emailed to the customer.');
    await expect(emails.locator('tbody tr').filter({ hasText: /Invoice INV-\d+ from/ })).toHaveCount(2);

    // all four, newest first, in the History panel
    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('button', { name: 'Refresh' }).click();
    const entries = history.getByTestId('history-entry');
    await expect(entries.filter({ hasText: 'changed status from provisional to confirmed' })).toHaveCount(1);
    await expect(entries.filter({ hasText: /recorded a payment of £100\.00/ })).toHaveCount(1);
    await expect(entries.filter({ hasText: /struck out/ })).toHaveCount(1);
    await expect(entries.filter({ hasText: /sent the invoice|emailed/ }).first()).toBeVisible();
    // the field diff on demand
    const statusEntry = entries.filter({ hasText: 'changed status from provisional to confirmed' });
    await statusEntry.getByRole('button', { name: 'Show changes' }).click();
    await expect(statusEntry.getByRole('cell', { name: 'confirmed' })).toBeVisible();
    await history.scrollIntoViewIfNeeded();
    await history.screenshot({ path: 'test-results/screens/booking-history.png' });
    await expectAccessible(page);

    // the whole office's history, filtered by who
    await page.getByRole('link', { name: 'History' }).click();
    await expect(page.getByRole('heading', { name: 'History', level: 1 })).toBeVisible();
    await page.getByLabel('Who').fill('admin@e2e.test');
    await page.getByLabel('Action').fill('transaction.');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/actor=admin%40e2e\.test/);
    const rows = page.locator('tbody tr');
    await expect(rows.filter({ hasText: 'transaction.recorded' }).first()).toBeVisible();
    await expect(rows.filter({ hasText: 'booking.status_changed' })).toHaveCount(0);
    await page.screenshot({ path: 'test-results/screens/audit.png', fullPage: true });
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(page).toHaveURL(/\/audit$/);
  });
});
