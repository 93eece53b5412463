import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from './fixtures.ts';

const control = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`;

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

  test('a full trip takes a name on its waiting list; the office offers the place; the offer’s link books it', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/trips');
    const trip = await page.evaluate(async () => {
      const headers = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
      const list = (await (await fetch('/api/trips?paged=1&page=1&sort_by=date-d', { headers })).json()) as {
        data: Array<{ id: number; name: string; status: string; type: string; deposit: number }>;
      };
      // another trip than the first test's: the second open one
      const open = list.data.filter((t) => t.status === 'open' && t.deposit > 0 && t.type !== 'school');
      return open[1]!;
    });
    await page.goto(`/trips/${trip.id}/edit`);
    const panel = page.getByRole('region', { name: 'Online booking' });
    // its capacity is what it has now: full
    const taken = Number(
      await panel
        .getByText(/\d+ taken/)
        .locator('strong')
        .innerText(),
    );
    await page.getByLabel('Capacity').fill(String(taken));
    await page.getByRole('button', { name: 'Save Trip' }).click();
    await expect(panel.getByText(`${taken} places`)).toBeVisible();
    await panel.getByLabel('Take bookings online').check({ force: true });
    await panel.getByRole('button', { name: 'Save online booking' }).click();
    await expect(panel.getByText('The booking page shows the trip as full.')).toBeVisible();
    const url = await panel.getByRole('link', { name: /\/book\// }).getAttribute('href');

    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en-GB',
      timezoneId: 'Europe/London',
      bypassCSP: true,
    });
    const traveller = await phone.newPage();
    await traveller.goto(url!);
    await expect(traveller.getByText('This trip is full')).toBeVisible();
    const email = `wanda.${Date.now()}@example.test`;
    const form = traveller.getByRole('form', { name: 'Join the waiting list' });
    await form.getByLabel('First name').fill('Wanda');
    await form.getByLabel('Last name').fill('Waiting');
    await form.getByLabel('Email').fill(email);
    await expectAccessible(traveller);
    await traveller.screenshot({ path: 'test-results/screens/waiting-list-join-phone.png', fullPage: true });
    await form.getByRole('button', { name: 'Join the waiting list' }).click();
    await expect(traveller.getByText('You are on the waiting list', { exact: true })).toBeVisible();

    // the office raises the capacity by one and offers the place now
    await page.reload();
    await page.getByLabel('Capacity').fill(String(taken + 1));
    await page.getByRole('button', { name: 'Save Trip' }).click();
    const line = page.getByRole('region', { name: 'Waiting list' });
    await expect(line.getByText('Wanda Waiting')).toBeVisible();
    await line.getByRole('button', { name: 'Offer Wanda Waiting a place now' }).click();
    await expect(line.getByText('Wanda Waiting has been emailed an offer.')).toBeVisible();
    await expect(line.getByText('Offered', { exact: true })).toBeVisible();
    await line.scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/waiting-list-panel.png' });

    // the offer's link opens the page with the place held for Wanda
    const mail = (await (await page.request.get(`${control}/mail?to=${encodeURIComponent(email)}`)).text()).replace(
      /=\r?\n/g,
      '',
    );
    const link = /https?:\/\/\S+?(\/book\/[a-z0-9-]+\?offer=3D[\w-]+)/.exec(mail)![1]!.replace('=3D', '=');
    await traveller.goto(link);
    await expect(traveller.getByText('Wanda, your place is held')).toBeVisible();
    await traveller.getByLabel('Title').selectOption('Ms');
    await traveller.getByLabel('First name, as on your passport').fill('Wanda');
    await traveller.getByLabel('Last name, as on your passport').fill('Waiting');
    await traveller.getByLabel('Email').fill(email);
    await traveller.getByLabel('Mobile').fill('07700 900321');
    await traveller.getByLabel('Date of birth').fill('1988-03-04');
    await traveller.getByLabel('Address line 1').fill('2 Queue Street');
    await traveller.getByLabel('Post code').fill('LS1 1AA');
    await traveller.getByLabel('Self-funded').check();
    const charity = traveller.getByLabel('The charity you will raise money for');
    if (await charity.count()) await charity.selectOption({ index: 1 });
    await traveller.getByLabel('My name is as shown on my passport').check();
    await traveller.getByLabel(/I accept the/).check();
    await traveller.getByRole('button', { name: 'Book and pay the deposit' }).click();
    await expect(traveller.getByRole('heading', { level: 1 })).toHaveText('Booking received');
    await phone.close();

    await page.reload();
    await expect(page.getByRole('region', { name: 'Waiting list' }).getByText('Booked', { exact: true })).toBeVisible();
  });

  test('at desktop width the booking page books and pays too', async ({ page, browser }) => {
    await signIn(page, 'admin', '/trips');
    const slug = await page.evaluate(async () => {
      const headers = {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
      };
      const list = (await (await fetch('/api/trips?paged=1&page=1&sort_by=date-d', { headers })).json()) as {
        data: Array<{ id: number; status: string; type: string; deposit: number; places: { left: number | null } }>;
      };
      const trip = list.data.filter(
        (t) => t.status === 'open' && t.deposit > 0 && t.type !== 'school' && (t.places.left ?? 0) > 0,
      )[2]!;
      const res = await fetch(`/api/trips/${trip.id}/online-booking`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ enabled: true, funding_types: ['self'] }),
      });
      return ((await res.json()) as { slug: string }).slug;
    });
    const desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB', bypassCSP: true });
    const traveller = await desk.newPage();
    await traveller.goto(new URL(`/book/${slug}`, page.url()).toString());
    await fillTheForm(traveller, `desk.${Date.now()}@example.test`);
    await expectAccessible(traveller);
    await traveller.screenshot({ path: 'test-results/screens/book-page-desktop.png', fullPage: true });
    await traveller.getByRole('button', { name: 'Book and pay the deposit' }).click();
    await expect(traveller.getByRole('heading', { level: 1 })).toHaveText('Booking received');
    await traveller.getByRole('link', { name: /^Pay £[\d,]+\.\d\d by card$/ }).click();
    await traveller.getByRole('button', { name: /^Pay £[\d,]+\.\d\d by card$/ }).click();
    await traveller.getByRole('button', { name: /^Pay £/ }).click();
    await expect(traveller.getByRole('heading', { level: 1 })).toHaveText('Payment received');
    await desk.close();
  });
});
