import { bookingThroughApi, expect, expectAccessible, signIn, test } from './fixtures.ts';

test.describe('card payments', () => {
  test('staff copy a pay link; a payer on a phone pays it by card; staff see the payment from Stripe', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await bookingThroughApi(
      page,
      { title: 'Mr', first_name: 'Cardo', last_name: 'Payer', preferred_name: 'Cardo', email_name: 'cardo' },
      { deposit: true },
    );
    await page.goto(`/bookings/${id}`);
    const panel = page.locator('#invoices');
    const row = panel.locator('tbody tr').first();
    await row.getByRole('button', { name: /^Copy pay link of INV-/ }).click();
    const notice = panel.getByRole('status');
    await expect(notice).toContainText(/pay link of INV-\d+ \(it works until \d\d\/\d\d\/\d{4}\): http/);
    const url = /(http:\/\/\S+\/pay\/\S+)/.exec(await notice.innerText())![1]!;

    // the payer: another browser, on a phone, signed in to nothing
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en-GB',
      timezoneId: 'Europe/London',
      bypassCSP: true,
    });
    const payer = await phone.newPage();
    await payer.goto(url);
    await expect(payer.getByRole('heading', { level: 1 })).toHaveText(/^Pay invoice INV-\d+$/);
    await expect(payer.getByText('Cardo’s place on')).toBeVisible();
    await expect(payer.getByText('Payer')).toHaveCount(0);
    const button = payer.getByRole('button', { name: /^Pay £[\d,]+\.\d\d by card$/ });
    await expect(button).toBeVisible();
    // nothing wider than the phone
    expect(await payer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(payer);
    await payer.screenshot({ path: 'test-results/screens/pay-page-phone.png', fullPage: true });
    await button.click();

    // Stripe's page (the stand-in): pay, and come back
    await expect(payer.getByRole('heading', { name: 'Stand-in checkout' })).toBeVisible();
    await payer.getByRole('button', { name: /^Pay £/ }).click();
    await expect(payer.getByRole('heading', { level: 1 })).toHaveText('Payment received');
    await expect(payer.getByRole('status')).toContainText(
      /Thank you: your payment of £[\d,]+\.\d\d has been received\./,
    );
    await expectAccessible(payer);
    await payer.screenshot({ path: 'test-results/screens/pay-page-paid-phone.png', fullPage: true });

    // the link, opened again, says there is nothing to pay
    await payer.goto(url);
    await expect(payer.getByRole('alert')).toHaveText('This invoice has been paid in full. Thank you.');
    await phone.close();

    // the office: the invoice is paid, by card, recorded by Stripe, in its payment history and the booking's History
    await page.reload();
    await expect(row.getByRole('button', { name: /^Paid: payment history of INV-/ })).toBeVisible();
    await expect(row.getByRole('button', { name: /^Copy pay link/ })).toHaveCount(0);
    await row.getByRole('button', { name: /^Paid: payment history of INV-/ }).click();
    const payments = page.getByRole('dialog', { name: /Payment History/ });
    await expect(payments).toContainText('Card (Stripe)');
    await expect(payments.locator('tbody tr').first()).toContainText('Stripe');
    await page.screenshot({ path: 'test-results/screens/payment-history-stripe.png' });
    await page.keyboard.press('Escape');
    await expect(
      page
        .getByRole('region', { name: 'History' })
        .getByText(/Stripe recorded a payment of £[\d,]+\.\d\d \(STRIPE\) on INV-\d+/),
    ).toBeVisible();
  });

  test('a link that is not valid says so, on a page of its own', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/pay/1.abc.abcdefghijklmnopqrstuvwxyz012345');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This link cannot be used');
    await expect(page.getByRole('alert')).toContainText('This pay link is not valid.');
    await expectAccessible(page);
  });
});
