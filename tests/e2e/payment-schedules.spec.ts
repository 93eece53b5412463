import { addDays, toDdMmYyyy, ukToday } from '../../src/contract/dates.ts';
import { expect, expectAccessible, freshBooking, freshTrip, signIn, test } from './fixtures.ts';

/** The money job, run as if it were 10:00 UK time on a day (the e2e server's control port moves the job's clock). */
async function moneyRunOn(day: string) {
  const port = Number(process.env.E2E_PORT ?? 3210) + 1;
  const res = await fetch(`http://127.0.0.1:${port}/money-run`, {
    method: 'POST',
    body: JSON.stringify({ at: `${day}T10:00:00Z` }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { raised: number; sent: number; reminders: { sent: number } };
}

const shortDate = (iso: string) => toDdMmYyyy(iso);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** as the date field shows it: 07 Dec 2026 */
const formatLong = (iso: string) => `${iso.slice(8, 10)} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;

test.describe('payment plans and schedules', () => {
  test('make a monthly plan on a trip, book it, see the schedule, waive an instalment and turn reminders off', async ({
    page,
  }) => {
    // a whole journey across two screens and five dialogs
    test.setTimeout(90_000);
    await signIn(page, 'admin', '/trips');
    const today = ukToday();
    const departure = addDays(today, 400);
    const name = `Paris Art School Trip ${Date.now() % 100000}`;
    const tripId = await freshTrip(page, name, departure);

    // the trip's price: £2,000 with a £300 deposit
    await page.goto(`/trips/${tripId}/edit`);
    await page.getByLabel('Deposit', { exact: true }).fill('300');
    await page.getByLabel('Cost', { exact: true }).fill('2000');
    await page.getByRole('button', { name: 'Save Trip' }).click();
    await expect(page.getByText('Trip details updated')).toBeVisible();

    // the default plan until one is saved; then monthly instalments in a few clicks
    const plan = page.getByRole('region', { name: 'Payment plan' });
    await expect(plan.getByText(/This trip is on the default plan/)).toBeVisible();
    await expect(plan.getByRole('row').filter({ hasText: 'Balance' })).toContainText('£1,700.00');
    await plan.getByRole('button', { name: 'Monthly instalments…' }).click();
    const helper = plan.getByRole('form', { name: 'Monthly instalments' });
    await expect(helper.getByLabel('Number of instalments')).toBeFocused();
    await helper.getByLabel('Number of instalments').fill('4');
    await helper.getByLabel('Each (% of the trip cost)').fill('15');
    await expect(
      helper.getByText(
        'Deposit £300.00, then 4 × 15% (about £300.00 each), and a balance of £500.00: £2,000.00 in all.',
      ),
    ).toBeVisible();
    await helper.getByRole('button', { name: 'Fill the plan' }).click();
    await expect(plan.getByRole('textbox', { name: /^Instalment \d+ name$/ })).toHaveCount(6);
    await expect(plan.getByLabel('Instalment 3 percentage')).toHaveValue('15');
    await expect(plan.getByLabel('Instalment 6 amount', { exact: true })).toHaveValue('rest');
    await expect(
      plan.getByText("This is the saved plan's schedule: save the plan to see your changes here."),
    ).toBeVisible();

    // a mistake comes back under its row's field
    await plan.getByLabel('Instalment 2 percentage').fill('0');
    await plan.getByRole('button', { name: 'Save plan' }).click();
    await expect(plan.getByText('The percentage must be between 0.01 and 100.')).toBeVisible();
    await expect(plan.getByLabel('Instalment 2 percentage')).toHaveAttribute('aria-invalid', 'true');
    await plan.getByLabel('Instalment 2 percentage').fill('15');

    // reorder by keyboard: the balance up one and back
    await plan.getByRole('button', { name: 'Move instalment 6 up' }).press('Enter');
    await expect(plan.getByLabel('Instalment 5 amount', { exact: true })).toHaveValue('rest');
    // the focus goes with the row it moved
    await expect(plan.getByRole('button', { name: 'Move instalment 5 up' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(plan.getByRole('button', { name: 'Move instalment 5 down' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(plan.getByLabel('Instalment 6 amount', { exact: true })).toHaveValue('rest');

    await plan.getByRole('button', { name: 'Save plan' }).click();
    await expect(plan.getByText(/Payment plan saved\./)).toBeVisible();
    await expect(plan.getByText(/This trip is on the default plan/)).toHaveCount(0);
    const expected = [
      ['Deposit', addDays(today, 14), '£300.00'],
      ['Instalment 1', addDays(today, 30), '£300.00'],
      ['Instalment 2', addDays(today, 60), '£300.00'],
      ['Instalment 3', addDays(today, 90), '£300.00'],
      ['Instalment 4', addDays(today, 120), '£300.00'],
      ['Balance', addDays(departure, -56), '£500.00'],
    ] as const;
    const preview = plan.getByRole('table').last();
    for (const [label, due, amount] of expected) {
      await expect(preview.getByRole('row').filter({ hasText: label })).toContainText(`${shortDate(due)}${amount}`);
    }
    await expect(
      plan.getByText("£2,000.00 in all: the trip's cost of £2,000.00, with a deposit of £300.00."),
    ).toBeVisible();
    await expectAccessible(page);
    await plan.screenshot({ path: 'test-results/screens/payment-plan.png' });

    // book it: trip list → Bookings → New
    await page.getByRole('link', { name: 'Back to Trips' }).click();
    await page.getByLabel('Search').fill(name);
    const row = page.locator('tbody tr').filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: /^Bookings menu/ }).click();
    await page.getByRole('menuitem', { name: 'New' }).click();
    const booking = page.getByRole('dialog', { name: 'Create Booking' });
    await booking.getByLabel('Title').selectOption('Ms');
    await booking.getByLabel(/^First Name/).fill('Frida');
    await booking.getByLabel(/^Last Name/).fill('Instalment');
    await booking.getByLabel('Preferred Name').fill('Frida');
    await booking.getByLabel('Email').fill(`frida.${Date.now()}@example.test`);
    await booking.getByLabel(/details as shown on the passport/).check();
    await booking.getByLabel('Terms & conditions accepted').check();
    await booking.getByRole('button', { name: 'Create Booking' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: /Booking TD-\w{6} has been created for Frida Instalment\./ }),
    ).toBeVisible();
    await row.getByRole('button', { name: /^Bookings menu/ }).click();
    await page.getByRole('menuitem', { name: 'List' }).click();
    await page.getByRole('link', { name: /^View booking TD-/ }).click();

    // the schedule: the plan's amounts and due dates
    const schedule = page.getByRole('region', { name: 'Payment schedule' });
    for (const [label, due, amount] of expected) {
      const r = schedule.getByRole('row').filter({ hasText: label });
      await expect(r).toContainText(shortDate(due));
      await expect(r).toContainText(amount);
      await expect(r).toContainText('Scheduled');
    }
    await expect(schedule.getByRole('switch', { name: 'Send automatic reminders' })).toBeChecked();

    // move one by a day, then waive another with a reason
    await schedule.getByRole('button', { name: 'Change Instalment 1' }).click();
    const change = page.getByRole('dialog', { name: 'Change Instalment 1' });
    await expect(change.getByLabel('Amount')).toHaveValue('300.00');
    // a click opens the calendar; a date typed there counts, and leaving the field closes it
    await change.getByLabel('Due date').click();
    await expect(page.locator('[data-dates-dropdown]')).toBeVisible();
    await change.getByLabel('Due date').fill(toDdMmYyyy(addDays(today, 31)));
    await change.getByLabel('Due date').press('Tab');
    await expect(change.getByLabel('Due date')).toHaveValue(formatLong(addDays(today, 31)));
    await change.getByRole('button', { name: 'Save Instalment' }).click();
    await expect(schedule.getByRole('status')).toHaveText('Instalment 1 has been changed.');
    await expect(schedule.getByRole('row').filter({ hasText: 'Instalment 1' })).toContainText(
      shortDate(addDays(today, 31)),
    );

    await schedule.getByRole('button', { name: 'Waive Instalment 2' }).click();
    const waive = page.getByRole('dialog', { name: 'Waive Instalment 2' });
    await waive.getByRole('button', { name: 'Waive Instalment' }).click();
    await expect(waive.getByText('Say why the instalment is waived.')).toBeVisible();
    await waive.getByLabel('Reason').fill('Paid from the school hardship fund');
    await expectAccessible(page);
    await waive.getByRole('button', { name: 'Waive Instalment' }).click();
    await expect(schedule.getByRole('status')).toHaveText('Instalment 2 has been waived.');
    const waived = schedule.getByRole('row').filter({ hasText: 'Instalment 2' });
    await expect(waived).toContainText('Waived');
    await expect(waived).toContainText('Paid from the school hardship fund');
    // the focus is back on the row's button (now Un-waive)
    await expect(waived.getByRole('button', { name: 'Un-waive Instalment 2' })).toBeFocused();

    // it is in the booking's history, with the reason
    const history = page.getByRole('region', { name: 'History' });
    const entry = history
      .getByTestId('history-entry')
      .filter({ hasText: /changed waived and waived reason of the instalment Instalment 2 of TD-/ });
    await expect(entry).toHaveCount(1);
    await entry.getByRole('button', { name: 'Show changes' }).click();
    await expect(entry.getByRole('row').filter({ hasText: 'waived reason' })).toContainText(
      'Paid from the school hardship fund',
    );

    // reminders off for this booking, with the reason (by keyboard)
    const reminders = schedule.getByRole('switch', { name: 'Send automatic reminders' });
    await reminders.focus();
    await page.keyboard.press('Space');
    const off = page.getByRole('dialog', { name: 'Turn automatic reminders off' });
    await off.getByLabel('Reason').fill('The school collects the money and pays us');
    await off.getByRole('button', { name: 'Turn Reminders Off' }).click();
    await expect(off).toHaveCount(0);
    await expect(reminders).not.toBeChecked();
    await expect(reminders).toBeFocused();
    await expect(schedule.getByText('Off for this booking: The school collects the money and pays us')).toBeVisible();
    await expect(
      history.getByTestId('history-entry').filter({
        hasText: /turned automatic reminders off for the booking TD-\w+ \(The school collects the money and pays us\)/,
      }),
    ).toHaveCount(1);
    await expectAccessible(page);
    await schedule.screenshot({ path: 'test-results/screens/payment-schedule.png' });
  });

  test('move the clock: the money job raises the deposit, emails it, reminds and chases, all on the booking and in /money', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await signIn(page, 'admin', '/trips');
    const today = ukToday();
    const name = `Clockwork Trek ${Date.now() % 100000}`;
    const tripId = await freshTrip(page, name, addDays(today, 300));
    await page.goto(`/trips/${tripId}/edit`);
    await page.getByLabel('Deposit', { exact: true }).fill('250');
    await page.getByLabel('Cost', { exact: true }).fill('1500');
    await page.getByRole('button', { name: 'Save Trip' }).click();
    await expect(page.getByText('Trip details updated')).toBeVisible();
    const bookingId = await freshBooking(page, tripId, 'Clockwork');
    // the default plan: the deposit due 14 days after booking, invoiced 21 days before (at once)
    const depositDue = addDays(today, 14);

    // a week on: the deposit is raised and emailed, and the first reminder (7 days before) goes
    const week = await moneyRunOn(addDays(today, 7));
    expect(week.raised).toBeGreaterThanOrEqual(1);
    await page.goto(`/bookings/${bookingId}`);
    const invoices = page.getByRole('region', { name: 'Invoices' });
    const invoiceRow = invoices.locator('tbody tr').filter({ hasText: 'Deposit' });
    await expect(invoiceRow).toContainText('£250.00');
    const invoiceRef = (
      (await invoiceRow
        .getByText(/^INV-\d+$/)
        .first()
        .innerText()) || ''
    ).trim();
    const schedule = page.getByRole('region', { name: 'Payment schedule' });
    await expect(schedule.getByRole('row').filter({ hasText: 'Deposit' })).toContainText('Invoiced');
    const emails = page.getByRole('region', { name: 'Emails' });
    await expect(emails.locator('tbody tr').filter({ hasText: new RegExp(`Invoice ${invoiceRef} from`) })).toHaveCount(
      1,
    );
    await expect(
      emails.locator('tbody tr').filter({ hasText: `Payment reminder: ${invoiceRef} for ${name}` }),
    ).toHaveCount(1);

    // the same day again: nothing twice
    await moneyRunOn(addDays(today, 7));
    // two days after the due day: the overdue chaser
    await moneyRunOn(addDays(depositDue, 2));
    await page.reload();
    await expect(emails.locator('tbody tr').filter({ hasText: `Payment reminder: ${invoiceRef}` })).toHaveCount(1);
    await expect(emails.locator('tbody tr').filter({ hasText: `Overdue: ${invoiceRef} for ${name}` })).toHaveCount(1);
    await expect(emails.locator('tbody tr').filter({ hasText: new RegExp(`Invoice ${invoiceRef} from`) })).toHaveCount(
      1,
    );
    const history = page.getByRole('region', { name: 'History' });
    await expect(
      history.getByTestId('history-entry').filter({ hasText: /emailed the reminder "Overdue:/ }),
    ).toHaveCount(1);
    await expect(
      history.getByTestId('history-entry').filter({ hasText: /emailed the reminder "Payment reminder:/ }),
    ).toHaveCount(1);
    await page.screenshot({ path: 'test-results/screens/money-job-booking.png', fullPage: true });

    // and in /money, filtered to the trip: the deposit invoice and the balance still to invoice, reminded
    await page.goto(`/money?trip_id=${tripId}`);
    const rows = page.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    const deposit = rows.filter({ hasText: invoiceRef });
    await expect(deposit).toContainText('£250.00');
    await expect(deposit).not.toContainText('None sent');
    await expect(rows.filter({ hasText: 'Balance' })).toContainText('£1,250.00');
    await expect(page.getByTestId('bucket-total')).toContainText('£1,500.00');
  });
});
