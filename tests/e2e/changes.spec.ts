import { addDays, ukToday } from '../../src/contract/dates.ts';
import {
  bookingThroughApi,
  expect,
  expectAccessible,
  freshBooking,
  freshTrip,
  signIn,
  test,
  travellerOnPhone,
} from './fixtures.ts';

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

  test('a departure below its minimum warns before its reg 13 deadline, and the operator cancels it with its bookings', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/trips');
    // five days long, so the notice is 7 days: fifteen days out, the deadline is eight days away
    const tripId = await freshTrip(page, `Called Off Tour ${Date.now()}`, addDays(ukToday(), 15));
    await freshBooking(page, tripId, 'Stranded');
    await page.goto(`/trips/${tripId}/edit`);
    await expect(page.getByRole('alert').filter({ hasText: 'Below its minimum numbers' })).toHaveCount(0);
    await page.getByLabel('Minimum numbers').fill('12');
    await page.getByRole('button', { name: 'Save Trip' }).click();
    const warning = page.getByRole('alert').filter({ hasText: 'Below its minimum numbers' });
    await expect(warning).toContainText('1 booked of a minimum of 12 (11 short).');
    await expect(warning).toContainText('8 days left');

    await page.getByRole('button', { name: 'Cancel Departure' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this departure' });
    const preview = dialog.getByRole('group', { name: 'What cancelling the departure does' });
    await expect(preview).toContainText('The 1 booking of');
    await expect(preview.getByRole('table', { name: 'Bookings cancelled' })).toContainText('Stranded');
    await expect(preview).toContainText('1 booked of a minimum of 12');
    await dialog.getByRole('button', { name: 'Cancel Departure' }).click();
    await expect(dialog.getByText('Give the reason for cancelling the departure.')).toBeVisible();
    await dialog.getByLabel(/^Reason/).fill('Too few travellers to run it');
    await dialog.getByLabel('Email each traveller').uncheck();
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/cancel-departure.png' });
    await dialog.getByRole('button', { name: 'Cancel Departure' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'is cancelled, with its booking.' })).toBeVisible();
    await expect(warning).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Cancel Departure' })).toHaveCount(0);
    await expect(page.getByLabel('Status')).toHaveValue('cancelled');
  });

  test('change a booking’s funding from its page: the preview, then the Fundraising panel; Create Booking takes funding too', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await bookingThroughApi(page, {
      title: 'Mr',
      first_name: 'Felix',
      last_name: 'Funded',
      preferred_name: 'Felix',
      email_name: 'felix',
    });
    await page.goto(`/bookings/${id}`);
    await page.getByRole('button', { name: 'Change Funding' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change funding' });
    await expect(dialog.getByRole('group', { name: 'What the change does' })).toContainText('Nothing changes');
    await dialog.getByLabel('Funding').selectOption('fundraise');
    const charity = dialog.getByLabel('Charity');
    await expect(charity.locator('option').nth(1)).toBeAttached();
    await charity.selectOption({ index: 1 });
    const preview = dialog.getByRole('group', { name: 'What the change does' });
    await expect(preview).toContainText(/becomes fundraising for .+ \(was self-funded/);
    await expect(preview).toContainText('is told a fundraiser joins it');
    await dialog.getByRole('button', { name: 'Change Funding' }).click();
    await expect(dialog.getByText('Give the reason for the change.')).toBeVisible();
    await dialog.getByLabel(/^Reason/).fill('Will raise money after all');
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/change-funding.png' });
    await dialog.getByRole('button', { name: 'Change Funding' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: /The funding of TD-\w+ is changed\./ })).toBeVisible();
    await expect(page.locator('#fundraising')).toBeVisible();

    // Create Booking sets both from the start
    const name = `Flexi Tour ${Date.now()}`;
    await freshTrip(page, name, addDays(ukToday(), 150));
    await page.goto('/trips');
    await page.getByLabel('Search').fill(name);
    const row = page.locator('tbody tr').filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: /^Bookings menu/ }).click();
    await page.getByRole('menuitem', { name: 'New' }).click();
    const create = page.getByRole('dialog', { name: 'Create Booking' });
    await create.getByLabel('Title').selectOption('Ms');
    await create.getByLabel(/^First Name/).fill('Flora');
    await create.getByLabel(/^Last Name/).fill('Flexi');
    await create.getByLabel('Preferred Name').fill('Flo');
    await create.getByLabel('Email').fill(`flora.${Date.now()}@example.test`);
    await create.getByLabel('Funding').selectOption('flexi');
    await create.getByLabel('Charity').selectOption({ index: 1 });
    await create.getByLabel(/details as shown on the passport/).check();
    await create.getByLabel('Terms & conditions accepted').check();
    await create.getByRole('button', { name: 'Create Booking' }).click();
    await expect(page.getByRole('status').filter({ hasText: /has been created for Flora Flexi\./ })).toBeVisible();
  });

  test('a traveller on a phone asks to cancel, sees today’s fee; the office sees the ask and cancels', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await bookingThroughApi(page, {
      title: 'Ms',
      first_name: 'Asha',
      last_name: 'Asking',
      preferred_name: 'Asha',
      email_name: 'asha',
    });
    const { traveller, phone } = await travellerOnPhone(page, browser, id);
    const section = traveller.getByRole('region', { name: 'Cancel or change' });
    await expect(section).toContainText(/If you cancelled today \(\d+ days before departure/);
    await expect(section).toContainText(/we would keep £[\d,.]+/);
    await section.getByRole('button', { name: 'Ask to cancel' }).click();
    const form = section.getByRole('form', { name: 'Ask to cancel' });
    await form.getByRole('button', { name: 'Send my request' }).click();
    await expect(form.getByText('Tell us what you would like.')).toBeVisible();
    await form.getByLabel(/^Why you would like to cancel/).fill('My knee surgery is the week we fly.');
    await expectAccessible(traveller);
    await form.getByRole('button', { name: 'Send my request' }).click();
    await expect(section.getByRole('status')).toContainText('we have your request to cancel');
    await expect(section.getByRole('list', { name: 'Your requests' })).toContainText('with the office');
    await expect(section.getByRole('button', { name: 'Ask to cancel' })).toBeDisabled();
    await traveller.screenshot({ path: 'test-results/screens/my-ask-to-cancel-phone.png', fullPage: true });
    await phone.close();

    // the office: the dashboard counts it, the queue lists it, the booking page shows it
    await page.goto('/');
    await expect(
      page
        .getByRole('region', { name: 'Needs attention today' })
        .getByRole('article', { name: 'Requests from travellers' }),
    ).toBeVisible();
    await page.goto('/requests');
    await expect(page.getByRole('heading', { level: 1, name: 'Requests from travellers' })).toBeVisible();
    const row = page.locator('tbody tr').filter({ hasText: 'My knee surgery is the week we fly.' });
    await expect(row).toContainText('To cancel');
    await expectAccessible(page);
    await row.getByRole('link').first().click();
    const ask = page.getByRole('region', { name: 'Asha Asking asks to cancel this booking' });
    await expect(ask).toContainText('My knee surgery is the week we fly.');
    await ask.getByRole('button', { name: 'Cancel Booking…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this booking' });
    await dialog.getByLabel('Reason').fill('Asked by the traveller: surgery');
    await dialog.getByLabel('Email the traveller what was decided').uncheck();
    await dialog.getByRole('button', { name: 'Cancel Booking' }).click();
    await expect(dialog).toBeHidden();
    await expect(ask).toHaveCount(0);
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

  test('a trip sets its own fees for changes, and goes back to the office’s', async ({ page }) => {
    await signIn(page, 'admin', '/trips');
    const tripId = await freshTrip(page, `Own Fees Tour ${Date.now()}`, addDays(ukToday(), 200));
    await page.goto(`/trips/${tripId}/edit`);
    const panel = page.getByRole('region', { name: 'Fees for changes' });
    await expect(panel).toContainText('This trip uses the office’s fees for changes:');
    await panel.getByRole('button', { name: 'Set This Trip’s Own' }).click();
    const form = panel.getByRole('form', { name: 'This trip’s fees for changes' });
    await form.getByLabel('Move to another departure').fill('60');
    await form.getByLabel('Band 1: from days before departure').fill('90');
    await expectAccessible(page);
    await form.getByRole('button', { name: 'Save Fees' }).click();
    await expect(form.getByRole('status')).toHaveText('The fees for changes have been saved.');
    await expect(form).toContainText('This trip has its own fees for changes.');
    await page.setViewportSize({ width: 390, height: 844 });
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screens/trip-own-fees-phone.png' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    await expect(form.getByLabel('Move to another departure')).toHaveValue('60.00');
    await expect(form.getByLabel('Band 1: from days before departure')).toHaveValue('90');
    await form.getByRole('button', { name: 'Use the Office’s Fees' }).click();
    await page
      .getByRole('dialog', { name: 'Use the office’s fees?' })
      .getByRole('button', { name: 'Use the Office’s Fees' })
      .click();
    await expect(panel).toContainText('This trip uses the office’s fees for changes:');
    await expect(page.getByRole('region', { name: 'History' })).toContainText(
      "back to the office's cancellation scale",
    );
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
