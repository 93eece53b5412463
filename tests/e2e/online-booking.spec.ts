import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from './fixtures.ts';

/** The open trip with a capacity that departs last (the demo office's are made from its today). */
async function tripToSell(page: Page): Promise<{ id: number; name: string }> {
  return page.evaluate(async () => {
    const headers = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
    const list = (await (await fetch('/api/trips?paged=1&page=1&sort_by=date-d', { headers })).json()) as {
      data: Array<{ id: number; name: string; status: string; deposit: number; type: string }>;
    };
    const trip = list.data.find((t) => t.status === 'open' && t.deposit > 0 && t.type !== 'school')!;
    return { id: trip.id, name: trip.name };
  });
}

async function fillTheForm(page: Page, email: string) {
  await page.getByLabel('Title').selectOption('Ms');
  await page.getByLabel('First name, as on your passport').fill('Grace');
  await page.getByLabel('Last name, as on your passport').fill('Online');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mobile').fill('07700 900123');
  await page.getByLabel('Date of birth').fill('1990-05-06');
  await page.getByLabel('Address line 1').fill('1 Harbour Row');
  await page.getByLabel('Post code').fill('BS1 4AA');
  await page.getByLabel('Self-funded').check();
  const charity = page.getByLabel('The charity you will raise money for');
  if (await charity.count()) await charity.selectOption({ index: 1 });
  await page.getByLabel('My name is as shown on my passport').check();
  await page.getByLabel(/I accept the/).check();
}

test.describe('online booking', () => {
  test('the office opens a trip’s booking page; a traveller on a phone books and pays the deposit; the office sees the booking confirmed with its History', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/trips');
    const trip = await tripToSell(page);
    await page.goto(`/trips/${trip.id}/edit`);
    const panel = page.getByRole('region', { name: 'Online booking' });
    await panel.getByLabel('Take bookings online').check({ force: true });
    await panel.getByLabel('Self-funded').check();
    await panel.getByRole('button', { name: 'Save online booking' }).click();
    await expect(panel.getByRole('status').filter({ hasText: 'The online booking has been saved.' })).toBeVisible();
    await expect(panel.getByText('The booking page is taking bookings.')).toBeVisible();
    const url = await panel.getByRole('link', { name: /\/book\// }).getAttribute('href');
    await panel.scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/online-booking-panel.png' });

    // the traveller: a phone, signed in to nothing
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en-GB',
      timezoneId: 'Europe/London',
      bypassCSP: true,
    });
    const traveller = await phone.newPage();
    await traveller.goto(url!);
    await expect(traveller.getByRole('heading', { level: 1 })).toHaveText(trip.name);
    await expect(traveller.getByText(/^You pay £[\d,]+\.\d\d now/)).toBeVisible();
    // a refused submit says what is wrong and keeps what was typed
    await traveller.getByLabel('First name, as on your passport').fill('Grace');
    await traveller.getByRole('button', { name: 'Book and pay the deposit' }).click();
    await expect(
      traveller.getByRole('alert').filter({ hasText: 'Please check the fields marked in red.' }),
    ).toBeVisible();
    await expect(traveller.getByText('The last name field is required.')).toBeVisible();
    await expect(traveller.getByLabel('First name, as on your passport')).toHaveValue('Grace');
    const email = `grace.online.${Date.now()}@example.test`;
    await fillTheForm(traveller, email);
    expect(await traveller.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(traveller);
    await traveller.screenshot({ path: 'test-results/screens/book-page-phone.png', fullPage: true });
    await traveller.getByRole('button', { name: 'Book and pay the deposit' }).click();

    await expect(traveller.getByRole('heading', { level: 1 })).toHaveText('Booking received');
    const ref = (await traveller.getByText(/^TD-[A-Z0-9]+$/).innerText()).trim();
    await expect(traveller.getByRole('status')).toContainText('is held for 30 minutes while you pay the');
    await expectAccessible(traveller);
    await traveller.screenshot({ path: 'test-results/screens/book-page-booked-phone.png', fullPage: true });
    await traveller.getByRole('link', { name: /^Pay £[\d,]+\.\d\d by card$/ }).click();
    await traveller.getByRole('button', { name: /^Pay £[\d,]+\.\d\d by card$/ }).click();
    await expect(traveller.getByRole('heading', { name: 'Stand-in checkout' })).toBeVisible();
    await traveller.getByRole('button', { name: /^Pay £/ }).click();
    await expect(traveller.getByRole('heading', { level: 1 })).toHaveText('Payment received');
    await phone.close();

    // the office: the booking, confirmed, made online, in the list and with its History
    await page.goto('/bookings');
    await page.getByLabel('Booking Ref').fill(ref);
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.locator('tbody tr').filter({ hasText: 'Grace Online' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Confirmed', { ignoreCase: true });
    await row.getByRole('link', { name: 'View' }).click();
    await expect(page.getByText('Booked online')).toBeVisible();
    const history = page.getByRole('region', { name: 'History' });
    await expect(
      history.getByText(
        new RegExp(`Grace Online booked ${trip.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} online \\(${ref}\\)`),
      ),
    ).toBeVisible();
    await expect(history.getByText(`confirmed ${ref}: its deposit is paid`, { exact: false })).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/online-booking-staff.png' });
  });
});
