import type { Page } from '@playwright/test';
import { bookingThroughApi, expect, expectAccessible, signIn, test } from './fixtures.ts';

/** A fresh provisional booking on an open trip that takes a deposit. */
const freshBooking = (page: Page) =>
  bookingThroughApi(page, {
    title: 'Ms',
    first_name: 'Edith',
    last_name: 'Invoiced',
    preferred_name: 'Edie',
    email_name: 'edith',
  });

test.describe('invoices and payments', () => {
  test('raise a deposit invoice, take a part payment, refund, see the history and the invoice page', async ({
    page,
    context,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await freshBooking(page);
    await page.goto(`/bookings/${id}`);
    const panel = page.locator('#invoices');
    await expect(panel.getByText('This booking has no invoices yet.')).toBeVisible();
    await expect(panel.getByText(/Refunds are not automatically processed against card transactions/)).toBeVisible();

    await panel.getByRole('button', { name: 'Standard Invoice' }).click();
    const standard = page.getByRole('dialog', { name: 'Standard Invoice' });
    await standard.getByLabel('Deposit').check();
    await standard.getByRole('button', { name: 'Create Invoice' }).click();
    await expect(panel.getByRole('status')).toContainText(/Invoice INV-\d+ has been created\./);
    const row = panel.locator('tbody tr').first();
    await expect(row).toContainText('Deposit for');
    const total = (await row.locator('td').nth(3).innerText()).trim();
    await expect(row.getByRole('button', { name: /^Unpaid/ })).toBeDisabled();

    // a part payment: the outstanding note appears
    await row.getByRole('button', { name: 'Payment', exact: true }).click();
    const payment = page.getByRole('dialog', { name: /Record Payment/ });
    await payment.getByLabel('Amount').fill('100');
    await payment.getByLabel('Paid by').selectOption('BACS');
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/record-payment.png' });
    await payment.getByRole('button', { name: 'Record Payment' }).click();
    await expect(panel.getByRole('status')).toHaveText('Transaction has been processed.');
    const outstanding = Number(total.replace(/[£,]/g, '')) - 100;
    await expect(row).toContainText(
      `£${outstanding.toLocaleString('en-GB', { minimumFractionDigits: 2 })} outstanding`,
    );

    // an overpayment is refused and says so
    await row.getByRole('button', { name: 'Payment', exact: true }).click();
    await payment.getByLabel('Amount').fill('99999');
    await payment.getByRole('button', { name: 'Record Payment' }).click();
    await expect(payment.getByText(/is more than the .* outstanding on this invoice/).first()).toBeVisible();
    await payment.getByRole('button', { name: 'Cancel' }).click();

    // the rest: paid in full, and Payment now offers a refund first
    await row.getByRole('button', { name: 'Payment', exact: true }).click();
    await payment.getByLabel('Amount').fill(String(outstanding));
    await payment.getByRole('button', { name: 'Record Payment' }).click();
    await expect(panel.getByRole('status')).toHaveText('Transaction has been processed.');
    await expect(row.getByRole('button', { name: /^Paid/ })).toBeVisible();
    await row.getByRole('button', { name: 'Payment', exact: true }).click();
    await expect(
      payment.getByText(
        /Refunds are not automatically processed against card transactions and should be done through the card payment provider's dashboard\./,
      ),
    ).toBeVisible();
    await payment.getByLabel('Amount').fill('40');
    await payment.getByRole('button', { name: 'Record Refund' }).click();
    await expect(panel.getByRole('status')).toHaveText('Transaction has been processed.');
    await expect(row).toContainText('£40.00 outstanding');
    await expect(row.getByRole('button', { name: 'Delete' })).toHaveCount(0);

    // payment history; strike out the refund
    await row.getByRole('button', { name: /^Part Paid/ }).click();
    const history = page.getByRole('dialog', { name: /Payment History/ });
    await expect(history.locator('tbody tr')).toHaveCount(3);
    await history.locator('tbody tr').nth(2).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete transaction' })
      .getByRole('button', { name: 'Yes, Delete it' })
      .click();
    await expect(history.locator('tbody tr[data-deleted]')).toHaveCount(1);
    await expect(history.getByText(/^Deleted by/)).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/payment-history.png' });
    await history.getByRole('button', { name: 'Close' }).click();
    await expect(row.getByRole('button', { name: /^Paid/ })).toBeVisible();
    await page.locator('#invoices').screenshot({ path: 'test-results/screens/invoices-panel.png' });

    // the invoice page opens in a new tab
    const [invoiceTab] = await Promise.all([
      context.waitForEvent('page'),
      row.getByRole('link', { name: 'View' }).click(),
    ]);
    await invoiceTab.waitForLoadState();
    await expect(invoiceTab.getByRole('heading', { name: 'Invoice', exact: true })).toBeVisible();
    await expect(invoiceTab.getByText('Payments received')).toBeVisible();
    await expect(invoiceTab.getByText('This invoice is paid in full. Thank you.')).toBeVisible();
    await expect(invoiceTab.getByText('Edith Invoiced', { exact: false })).toBeVisible();
    await invoiceTab.screenshot({ path: 'test-results/screens/invoice-page.png', fullPage: true });
    await expectAccessible(invoiceTab);
    await invoiceTab.close();

    // send it
    await row.getByRole('button', { name: 'Send' }).click();
    await expect(panel.getByRole('status')).toHaveText('Invoice has been emailed to the customer.');
    await expect(row).toContainText('sent');
  });

  test('a custom invoice needs an item, totals as typed, and can be deleted while unpaid', async ({ page }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await freshBooking(page);
    await page.goto(`/bookings/${id}`);
    const panel = page.locator('#invoices');
    await panel.getByRole('button', { name: 'New Invoice' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Invoice' });
    await dialog.getByLabel('Remove item 1').click();
    await dialog.getByRole('button', { name: 'Create Invoice' }).click();
    await expect(dialog.getByText('Please add at least one item to this invoice')).toBeVisible();

    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await dialog.getByLabel('Item 1 description').fill('Kit hire');
    await dialog.getByLabel('Item 1 amount').fill('45.50');
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await dialog.getByLabel('Item 2 description').fill('Visa service');
    await dialog.getByLabel('Item 2 amount').fill('20');
    await expect(dialog.getByText('Total: £65.50')).toBeVisible();
    await dialog.getByRole('button', { name: 'Create Invoice' }).click();
    await expect(dialog.getByText('The reference field is required.')).toBeVisible();
    await dialog.getByLabel('Reference').fill(`EXTRA-${id}`);
    await dialog.getByRole('textbox', { name: 'Description', exact: true }).fill('Extras');
    await page.screenshot({ path: 'test-results/screens/new-invoice.png' });
    await dialog.getByRole('button', { name: 'Create Invoice' }).click();
    await expect(panel.getByRole('status')).toHaveText(`Invoice EXTRA-${id} has been created.`);
    const row = panel.locator('tbody tr', { hasText: `EXTRA-${id}` });
    await expect(row).toContainText('£65.50');

    await row.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete invoice' })
      .getByRole('button', { name: 'Yes, Delete the Invoice' })
      .click();
    await expect(panel.getByText('This booking has no invoices yet.')).toBeVisible();
  });
});

test.describe('booking notes', () => {
  test('add, edit and delete a note with the rich-text editor', async ({ page }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await freshBooking(page);
    await page.goto(`/bookings/${id}`);
    const panel = page.locator('#notes');
    await expect(panel.getByText('There are no notes for this booking.')).toBeVisible();
    const editor = panel.getByRole('textbox', { name: 'New note' });
    await editor.click();
    await page.keyboard.type('Called about ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('flights');
    await page.keyboard.press('Control+b');
    await panel.getByRole('button', { name: 'Add Note' }).click();
    const note = panel.getByTestId('note');
    await expect(note).toHaveCount(1);
    await expect(note.locator('strong')).toHaveText('flights');
    await expect(note).toContainText('IP ');

    // unsaved writing is not thrown away without asking
    await panel.getByRole('textbox', { name: 'New note' }).click();
    await page.keyboard.type('A draft');
    await note.getByRole('button', { name: 'Edit' }).click();
    const discard = page.getByRole('dialog', { name: 'Discard your writing?' });
    await discard.getByRole('button', { name: 'No, Keep Writing' }).click();
    await expect(panel.getByRole('textbox', { name: 'New note' })).toHaveText('A draft');
    await note.getByRole('button', { name: 'Edit' }).click();
    await discard.getByRole('button', { name: 'Yes, Discard it' }).click();
    const editing = panel.getByRole('textbox', { name: 'Edit note' });
    await expect(editing).toContainText('Called about flights');
    await editing.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' and insurance');
    await panel.getByRole('button', { name: 'Update Note' }).click();
    await expect(note).toContainText('Called about flights and insurance');
    await expect(panel.getByRole('textbox', { name: 'New note' })).toHaveText('');

    // Cancel clears the editor and leaves the note as it was
    await note.getByRole('button', { name: 'Edit' }).click();
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await expect(panel.getByRole('textbox', { name: 'New note' })).toHaveText('');
    await panel.screenshot({ path: 'test-results/screens/notes-panel.png' });

    await note.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete note' })
      .getByRole('button', { name: 'Yes, Delete the Note' })
      .click();
    await expect(panel.getByText('There are no notes for this booking.')).toBeVisible();
  });
});
