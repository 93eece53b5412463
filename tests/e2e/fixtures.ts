import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, expect, test as base, type Page } from '@playwright/test';
import { addDays, toDdMmYyyy } from '../../src/contract/dates.ts';
import { E2E_USERS } from './users.ts';

const require = createRequire(import.meta.url);
const axePath = require.resolve('axe-core/axe.min.js');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> };

/** Every page visit checks accessibility: no serious or critical axe-core violations. */
export async function expectAccessible(page: Page): Promise<void> {
  // the page as it rests: the pointer off the content, so that a control it happens to be over
  // after a scroll (a screenshot of a panel scrolls) is not checked in its hover colours
  await page.mouse.move(0, 0);
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

export async function signIn(page: Page, who: keyof typeof E2E_USERS = 'admin', next = '/') {
  await page.goto(next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(E2E_USERS[who].email);
  await page.locator('input[name=password]').fill(E2E_USERS[who].password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === next.split('?')[0]);
  // the first screen has rendered (and read the flash queue) before the test goes on
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

export type NewTraveller = {
  title: string;
  first_name: string;
  last_name: string;
  preferred_name: string;
  email_name: string;
};

/**
 * A fresh provisional booking on an open trip that takes a deposit, made through the API as the
 * Create Booking dialog does (in the page, with its CSRF token); with `deposit`, its deposit
 * invoice too. Its id.
 */
export async function bookingThroughApi(
  page: Page,
  who: NewTraveller,
  options: { deposit?: boolean } = {},
): Promise<number> {
  return page.evaluate(
    async ({ who, deposit }) => {
      const headers = {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
      };
      const trips = (await (await fetch('/api/trips?paged=1&page=1&sort_by=date', { headers })).json()) as {
        data: Array<{ id: number; status: string; deposit: number }>;
      };
      const trip = trips.data.find((t) => t.status === 'open' && t.deposit > 0)!;
      const { email_name, ...names } = who;
      const body = {
        trip_id: trip.id,
        ...names,
        email: `${email_name}.${Date.now()}@example.test`,
        as_on_passport: true,
        terms_accepted: true,
      };
      const booking = (await (
        await fetch('/api/bookings', { method: 'POST', headers, body: JSON.stringify(body) })
      ).json()) as { id: number };
      if (deposit)
        await fetch(`/api/bookings/${booking.id}/invoices`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ invoice_type: 'deposit' }),
        });
      return booking.id;
    },
    { who, deposit: options.deposit ?? false },
  );
}

export const test = base.extend<{ consoleErrors: string[]; accessibleAtEnd: void }>({
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await use(errors);
  },
  // whatever page a test ends on is checked too, so no visited screen escapes the check
  accessibleAtEnd: [
    async ({ page }, use, testInfo) => {
      await use();
      if (testInfo.status === 'passed' && page.url().startsWith('http')) await expectAccessible(page);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * A new open school trip, made through the API as the Create New Trip dialog does; its cost and
 * deposit (none unless `price` is given) are then set as on its page.
 */
export async function freshTrip(
  page: Page,
  name: string,
  departure: string,
  price?: { deposit: string; cost: string },
): Promise<number> {
  return page.evaluate(
    async ([name, departure, back, price]) => {
      const headers = {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
      };
      const countries = (await (await fetch('/api/countries', { headers })).json()) as Array<{ id: number }>;
      const trip = {
        name,
        country_id: countries[0]!.id,
        departure,
        return: back,
        type: 'school',
        level: 1,
        status: 'open',
        deposit: 0,
        cost: 0,
        require_passport: 1,
        funding: 'both',
      };
      const res = await fetch('/api/trips', { method: 'POST', headers, body: JSON.stringify(trip) });
      const body = (await res.json()) as { id: number };
      if (res.status !== 201) throw new Error(`POST /api/trips: ${res.status} ${JSON.stringify(body)}`);
      if (price) {
        const priced = await fetch(`/api/trips/${body.id}`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ ...trip, ...price }),
        });
        if (priced.status !== 200)
          throw new Error(`PATCH /api/trips/${body.id}: ${priced.status} ${await priced.text()}`);
      }
      return body.id;
    },
    [name, toDdMmYyyy(departure), toDdMmYyyy(addDays(departure, 5)), price ?? null] as const,
  );
}

/** A booking made through the API as the Create Booking dialog does. */
export async function freshBooking(page: Page, tripId: number, lastName: string): Promise<number> {
  return page.evaluate(
    async ([tripId, lastName]) => {
      const res = await fetch('/api/bookings', {
        method: 'POST',
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'X-Requested-With': 'XMLHttpRequest',
          'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
        },
        body: JSON.stringify({
          trip_id: tripId,
          title: 'Mr',
          first_name: 'Moritz',
          last_name: lastName,
          preferred_name: 'Moritz',
          email: `moritz.${Date.now()}@example.test`,
          as_on_passport: true,
          terms_accepted: true,
        }),
      });
      const body = (await res.json()) as { id: number };
      if (res.status !== 201) throw new Error(`POST /api/bookings: ${res.status} ${JSON.stringify(body)}`);
      return body.id;
    },
    [tripId, lastName] as const,
  );
}

/**
 * Staff email the booking's traveller a sign-in link from its page; the traveller opens it on a
 * phone (390 px) and lands on the booking's own page. The phone's context is the caller's to close.
 */
export async function travellerOnPhone(
  page: Page,
  browser: Browser,
  bookingId: number,
): Promise<{ traveller: Page; phone: BrowserContext; email: string; link: string }> {
  const control = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`;
  const email = await page.evaluate(
    async (id) => ((await (await fetch(`/api/bookings/${id}`)).json()) as { email: string }).email,
    bookingId,
  );
  await page.goto(`/bookings/${bookingId}`);
  await page.getByRole('button', { name: 'Email a sign-in link' }).click();
  await expect(page.getByRole('status')).toHaveText(`A sign-in link is on its way to ${email}.`);
  const mail = (await (await page.request.get(`${control}/mail?to=${encodeURIComponent(email)}`)).text()).replace(
    /=\r?\n/g,
    '',
  );
  const link = /https?:\/\/\S+?(\/my\/sign-in\/[\w-]{43})/.exec(mail)![1]!;
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    bypassCSP: true,
  });
  const traveller = await phone.newPage();
  await traveller.goto(link);
  await traveller.waitForURL(`**/my/bookings/${bookingId}`);
  return { traveller, phone, email, link };
}
