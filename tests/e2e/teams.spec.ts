import type { Browser, Page } from '@playwright/test';
import { addDays, ukToday } from '../../src/contract/dates.ts';
import { bookingThroughApi, expect, expectAccessible, freshTrip, signIn, test } from './fixtures.ts';

/** A new Administrator in the team named, made by Full access through the API as the user form does; signed in on a page of their own. */
async function memberOf(admin: Page, browser: Browser, team: string, width = 1280) {
  const made = await admin.evaluate(async (team) => {
    const headers = {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
    };
    const teams = (await (await fetch('/api/teams', { headers })).json()) as Array<{ id: number; name: string }>;
    const email = `${team.replace(/\W/g, '').toLowerCase()}.${Date.now()}@example.test`;
    const res = await fetch('/api/users', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        email,
        first_name: 'Tam',
        last_name: team,
        user_role_id: 1,
        team_id: teams.find((t) => t.name === team)!.id,
      }),
    });
    const body = (await res.json()) as { password: string };
    if (res.status !== 201) throw new Error(`POST /api/users: ${res.status} ${JSON.stringify(body)}`);
    return { email, password: body.password };
  }, team);
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByLabel('Email').fill(made.email);
  await page.locator('input[name=password]').fill(made.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  return { page, close: () => context.close() };
}

// the words of controls that change something: none may show for a team that only reads
const CHANGING =
  /^(Add|Create|Edit|Save|Delete|Cancel Booking|Cancel Departure|Transfer|Move|Change|Record|New|Standard Invoice|Payment|Send|Email a sign-in link|Traveller form|Keep longer|Rebuild|Archive|Offer|Remove|Set This|Use the Office|Mark Done|Decline|Update)/;

async function changingButtons(page: Page): Promise<string[]> {
  const names = await page
    .getByRole('button')
    .evaluateAll((els) =>
      els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => (e.textContent ?? '').trim()),
    );
  const links = await page.getByRole('link').evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
  return [...names, ...links].filter((n) => CHANGING.test(n));
}

test.describe('teams', () => {
  test('Full access sees the teams and adds one; the Team select is on the user page', async ({ page }) => {
    await signIn(page, 'admin', '/settings/teams');
    await expect(page.getByRole('heading', { level: 1, name: 'Teams' })).toBeVisible();
    for (const name of ['Full access', 'Finance', 'Operations', 'Sales', 'Read only'])
      await expect(page.getByRole('region', { name })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Full access' })).toContainText('Everything, always');
    await expectAccessible(page);
    await page.screenshot({ path: '/tmp/shots/teams-desktop.png', fullPage: true });

    await page.getByRole('button', { name: 'Add Team' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Team' });
    await dialog.getByRole('button', { name: 'Add Team' }).click();
    await expect(dialog.getByText('The name field is required.')).toBeVisible();
    const name = `Volunteers ${Date.now()}`;
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Trips', { exact: true }).selectOption('change');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Add Team' }).click();
    await expect(page.getByRole('status')).toContainText(`The team ${name} has been added.`);
    const card = page.getByRole('region', { name });
    await expect(card).toContainText('No one yet');
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('button', { name: 'Yes, Delete the Team' }).click();
    await expect(page.getByRole('status')).toContainText(`The team ${name} has been deleted.`);

    await page.goto('/users');
    await page
      .getByRole('link', { name: /Update User/ })
      .first()
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Edit User');
  });

  test('a Read only member sees no control that changes anything, and no screen beyond its areas', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const departure = addDays(ukToday(), 120);
    const tripId = await freshTrip(page, `Read Only Ridge ${Date.now()}`, departure);
    const id = await bookingThroughApi(
      page,
      { title: 'Ms', first_name: 'Rita', last_name: 'Readonly', preferred_name: 'Rita', email_name: 'rita' },
      { deposit: true },
    );
    const member = await memberOf(page, browser, 'Read only');
    const p = member.page;
    try {
      const nav = p.getByRole('navigation', { name: 'Main' });
      for (const link of ['Bookings', 'Trips', 'Money', 'Reports', 'Charities', 'Discounts', 'Settings'])
        await expect(nav.getByRole('link', { name: link, exact: true })).toBeVisible();
      for (const link of ['Users', 'History', 'Jobs'])
        await expect(nav.getByRole('link', { name: link, exact: true })).toHaveCount(0);

      for (const url of [
        '/bookings',
        `/bookings/${id}`,
        '/trips',
        `/trips/${tripId}/edit`,
        '/charities',
        '/discounts',
        '/money',
      ]) {
        await p.goto(url);
        await p.getByRole('heading', { level: 1 }).first().waitFor();
        await p.waitForLoadState('networkidle');
        expect(await changingButtons(p), url).toEqual([]);
      }
      // who has a condition, and whose passport is missing or runs out, is not theirs to search by
      await p.goto('/bookings');
      await p.getByRole('heading', { level: 1 }).first().waitFor();
      await expect(p.getByLabel('Booking Ref')).toBeVisible();
      await expect(p.getByLabel('Passport', { exact: true })).toHaveCount(0);
      await expect(p.getByLabel('Medical', { exact: true })).toHaveCount(0);
      await p.goto(`/bookings/${id}`);
      await p.waitForLoadState('networkidle');
      await expect(p.getByText('Hidden for your team').first()).toBeVisible();
      await expectAccessible(p);
      await p.screenshot({ path: '/tmp/shots/read-only-booking.png', fullPage: true });

      // a screen of an area it may not read says so, and asks the server nothing
      await p.goto('/users');
      await expect(p.getByRole('heading', { level: 1, name: 'Not open to your team' })).toBeVisible();
      await expect(p.getByText('Your team does not have the people read permission.')).toBeVisible();
    } finally {
      await member.close();
    }
  });

  test('an Operations member changes the booking but sees the money without its actions (390 px)', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await bookingThroughApi(
      page,
      { title: 'Mr', first_name: 'Otto', last_name: 'Operations', preferred_name: 'Otto', email_name: 'otto' },
      { deposit: true },
    );
    const member = await memberOf(page, browser, 'Operations', 390);
    const p = member.page;
    try {
      await p.goto(`/bookings/${id}`);
      await p.waitForLoadState('networkidle');
      await expect(p.getByRole('button', { name: 'Edit Booking' })).toBeVisible();
      const invoices = p.getByRole('region', { name: /Invoices/ }).first();
      await expect(invoices).toBeVisible();
      for (const action of ['New Invoice', 'Standard Invoice', 'Payment', 'Send', 'Delete'])
        await expect(invoices.getByRole('button', { name: action, exact: true })).toHaveCount(0);
      await expectAccessible(p);
      await p.screenshot({ path: '/tmp/shots/operations-booking-390.png', fullPage: true });
    } finally {
      await member.close();
    }
  });

  test('a member who may change people reads, but cannot change, a member of Full access', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/users');
    const name = `People desk ${Date.now()}`;
    const adminId = await page.evaluate(async (name) => {
      const headers = {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
      };
      const permissions = {
        bookings: 'read',
        trips: 'read',
        finance: 'read',
        charities: 'read',
        people: 'change',
        settings: 'none',
        traveller_data: 'none',
      };
      const res = await fetch('/api/teams', { method: 'POST', headers, body: JSON.stringify({ name, permissions }) });
      if (res.status !== 201) throw new Error(`POST /api/teams: ${res.status}`);
      return ((await (await fetch('/api/me', { headers })).json()) as { id: number }).id;
    }, name);
    const member = await memberOf(page, browser, name, 390);
    const p = member.page;
    try {
      await p.goto(`/users/${adminId}/edit`);
      await expect(p.getByRole('heading', { level: 1 })).toContainText('Edit User');
      await expect(p.getByText('You cannot change a member whose team may do more than yours.')).toBeVisible();
      await expect(p.getByRole('button', { name: 'Save User' })).toHaveCount(0);
      await expect(p.getByRole('button', { name: 'Delete User' })).toHaveCount(0);
      await expect(p.getByLabel('Email')).toBeDisabled();
      await expectAccessible(p);
      // the list shows each Administrator's team
      await p.goto('/users');
      await expect(p.getByRole('columnheader', { name: 'Team' })).toBeVisible();
    } finally {
      await member.close();
    }
  });
});
