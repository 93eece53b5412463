import { bookingThroughApi, expect, expectAccessible, signIn, test, travellerOnPhone } from './fixtures.ts';

const control = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`;

test.describe("a traveller's own pages", () => {
  test('staff email a sign-in link; the traveller opens it on a phone, sees what is to do and can pay', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await bookingThroughApi(
      page,
      { title: 'Ms', first_name: 'Mina', last_name: 'Phone', preferred_name: 'Mina', email_name: 'mina' },
      { deposit: true },
    );
    const { traveller, phone, email, link } = await travellerOnPhone(page, browser, id);
    await expect(traveller.getByRole('heading', { name: 'Still to do' })).toBeVisible();
    await expect(traveller).toHaveTitle('My booking');
    await expect(traveller.getByText('Your passport details')).toBeVisible();
    await expect(traveller.getByText('Your next of kin')).toBeVisible();
    await expect(traveller.getByRole('link', { name: /^Pay £[\d,]+\.\d\d$/ })).toBeVisible();
    expect(await traveller.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(traveller);
    await traveller.screenshot({ path: 'test-results/screens/my-booking-phone.png', fullPage: true });

    // the form: checked on the phone before it is sent, then saved; the next of kin is no longer to do
    const form = traveller.getByRole('form', { name: 'Your details' });
    await form.getByRole('button', { name: 'Save my details' }).click();
    await expect(form.getByRole('alert')).toHaveText('Please check the fields marked in red.');
    await expect(form.getByText('The date of birth field is required.')).toBeVisible();
    await form.getByLabel('Date of birth').fill('1994-05-17');
    await form.getByLabel('Mobile').fill('07700 900123');
    await form.getByLabel('Address line 1').fill('2 Harbour Street');
    await form.getByLabel('Post code').fill('BS1 4RN');
    await form.getByLabel('Passport number').fill('925665416');
    await form.getByLabel('Date of issue').fill('2024-01-15');
    await form.getByLabel('Date of expiry').fill('2034-01-15');
    await form.getByLabel(/^Name/).fill('Omar Phone');
    await form.getByLabel(/^Telephone/).fill('07700 900456');
    await form.getByRole('radio', { name: 'Yes' }).check();
    await form.getByLabel('Tell us about them').fill('Mild asthma, inhaler');
    await form.getByRole('button', { name: 'Save my details' }).click();
    await expect(form.getByRole('status')).toHaveText('Your details are saved. Thank you.');
    await expect(traveller.getByText('Your next of kin')).toHaveCount(0);
    expect(await traveller.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(traveller);
    await traveller.screenshot({ path: 'test-results/screens/my-details-phone.png', fullPage: true });
    // the office sees it at once
    await page.goto(`/bookings/${id}`);
    await expect(page.getByText('925665416')).toBeVisible();

    await traveller.getByRole('link', { name: 'My bookings' }).click();
    await expect(traveller.getByRole('heading', { level: 1 })).toHaveText('Hello, Mina');
    await expect(traveller.getByRole('link', { name: 'Open this booking' })).toHaveCount(1);
    await expectAccessible(traveller);

    // the link was spent by its first use
    await traveller.getByRole('button', { name: 'Sign out', exact: true }).click();
    await traveller.waitForURL('**/my/sign-in');
    await traveller.goto(link);
    await expect(traveller.getByRole('alert')).toHaveText(/expired or has already been used/);
    await traveller.getByLabel('Your email address').fill(email);
    await traveller.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect(traveller.getByRole('status')).toHaveText(/If we know that address, we have sent it a link/);
    await phone.close();
  });

  test("a chaser's link opens the form on a phone; once it is filled in, the board shows the forms check green and the photo to check", async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await bookingThroughApi(page, {
      title: 'Mr',
      first_name: 'Theo',
      last_name: 'Chased',
      preferred_name: 'Theo',
      email_name: 'theo',
    });
    const {
      email,
      trip_id: tripId,
      chased,
    } = await page.evaluate(async (bookingId) => {
      const headers = {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
      };
      const detail = (await (await fetch(`/api/bookings/${bookingId}`, { headers })).json()) as {
        email: string;
        trip: { id: number };
      };
      const booking = { email: detail.email, trip_id: detail.trip.id };
      const chased = await fetch(`/api/trips/${booking.trip_id}/chasers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ booking_ids: [bookingId], checks: ['forms'] }),
      });
      return { ...booking, chased: await chased.text() };
    }, id);
    const mail = (await (await page.request.get(`${control}/mail?to=${encodeURIComponent(email)}`)).text()).replace(
      /=\r?\n/g,
      '',
    );
    expect(JSON.parse(chased)).toMatchObject({ sent: [{ booking_id: id, check: 'forms' }] });
    const link = /https?:\/\/\S+?(\/my\/sign-in\/[0-9a-z]+\.[0-9a-z]+\.[0-9a-z]+\.[0-9a-z]+\.[\w-]{32})/.exec(
      mail,
    )![1]!;

    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en-GB',
      timezoneId: 'Europe/London',
      bypassCSP: true,
    });
    const traveller = await phone.newPage();
    await traveller.goto(link);
    await traveller.waitForURL(`**/my/bookings/${id}`);
    const form = traveller.getByRole('form', { name: 'Your details' });
    await form.getByLabel('Date of birth').fill('1991-03-02');
    await form.getByLabel('Mobile').fill('07700 900321');
    await form.getByLabel('Address line 1').fill('3 Quay Road');
    await form.getByLabel('Post code').fill('PL1 2AB');
    await form.getByLabel('Passport number').fill('533380006');
    await form.getByLabel('Date of issue').fill('2024-02-01');
    await form.getByLabel('Date of expiry').fill('2034-02-01');
    await form.getByLabel('Nationality').fill('British');
    await form.getByLabel(/^Name/).fill('Ivy Chased');
    await form.getByLabel(/^Telephone/).fill('07700 900654');
    await form.getByRole('button', { name: 'Save my details' }).click();
    await expect(form.getByRole('status')).toHaveText('Your details are saved. Thank you.');
    await expect(form.getByText(/^Your passport passes/)).toBeVisible();

    // the trip's own questions (the demo trip asks for a T-shirt size)
    const questions = traveller.getByRole('form', { name: 'The trip’s questions' });
    for (const box of await questions.getByRole('textbox').all()) await box.fill('Yes');
    await questions.getByRole('button', { name: 'Save my answers' }).click();
    await expect(questions.getByRole('status')).toHaveText('Your answers are saved. Thank you.');
    // the photo page, from the phone
    const photo = traveller.getByRole('form', { name: 'Passport photo' });
    await photo.locator('input[type=file]').setInputFiles({
      name: 'passport.png',
      mimeType: 'image/png',
      buffer: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    });
    await photo.getByRole('button', { name: 'Send the photo' }).click();
    await expect(photo.getByRole('status')).toHaveText(/we have your passport photo/);
    expect(await traveller.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(traveller);
    await traveller.screenshot({ path: 'test-results/screens/my-booking-answered-phone.png', fullPage: true });
    await phone.close();

    // the office's board sees it at once
    await page.goto(`/trips/${tripId}/readiness`);
    const row = page.getByRole('row').filter({ hasText: 'Theo Chased' });
    await expect(row.getByRole('img', { name: /^Forms: Ready/ })).toBeVisible();
    await page.screenshot({ path: 'test-results/screens/readiness-to-check.png', fullPage: true });
    await row.getByRole('button', { name: /Passport photo of .* to check/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Checked' }).click();
    await expect(row.getByRole('button', { name: /to check/ })).toHaveCount(0);
    await page.screenshot({ path: 'test-results/screens/readiness-after-traveller.png', fullPage: true });
  });

  test('staff fill in the traveller form for a traveller who phones: the same fields and rules, saved at once', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await bookingThroughApi(page, {
      title: 'Mrs',
      first_name: 'Ruth',
      last_name: 'Phoned',
      preferred_name: 'Ruth',
      email_name: 'ruth',
    });
    await page.goto(`/bookings/${id}`);
    await expect(page.getByText('Never signed in')).toBeVisible();
    await page.getByRole('button', { name: 'Traveller form' }).click();
    const dialog = page.getByRole('dialog', { name: 'Traveller form: Ruth Phoned' });
    const form = dialog.getByRole('form', { name: 'Traveller form' });
    await form.getByRole('button', { name: 'Save the traveller form' }).click();
    await expect(form.getByText('The date of birth field is required.')).toBeVisible();
    await form.getByLabel('Date of birth').fill('1960-08-09');
    await form.getByLabel('Mobile').fill('07700 900777');
    await form.getByLabel('Address line 1').fill('9 Mill Lane');
    await form.getByLabel('Post code').fill('YO1 7HH');
    await form.getByLabel('Passport number').fill('123456789');
    await form.getByLabel('Date of issue').fill('2022-05-01');
    await form.getByLabel('Date of expiry').fill('2032-05-01');
    await form.getByLabel('Nationality').fill('Irish');
    await form.getByLabel(/^Name/).fill('Ben Phoned');
    await form.getByLabel(/^Telephone/).fill('07700 900888');
    await form.getByRole('button', { name: 'Save the traveller form' }).click();
    await expect(form.getByRole('status')).toHaveText('The details are saved.');
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/booking-traveller-form.png' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByText('123456789')).toBeVisible();
    await expect(page.getByText('Irish')).toBeVisible();
  });

  test("a reminder's link opens the booking on a phone, where Pay goes to the card payment page", async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const id = await bookingThroughApi(
      page,
      { title: 'Dr', first_name: 'Nia', last_name: 'Reminded', preferred_name: 'Nia', email_name: 'nia' },
      { deposit: true },
    );
    const { email, reminded } = await page.evaluate(async (bookingId) => {
      const headers = {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
      };
      const detail = (await (await fetch(`/api/bookings/${bookingId}`, { headers })).json()) as { email: string };
      const res = await fetch(`/api/bookings/${bookingId}/reminders`, {
        method: 'POST',
        headers,
        body: '{}',
      });
      return { email: detail.email, reminded: res.status };
    }, id);
    expect(reminded).toBe(200);
    const mail = (await (await page.request.get(`${control}/mail?to=${encodeURIComponent(email)}`)).text()).replace(
      /=\r?\n/g,
      '',
    );
    expect(mail).toContain('Your booking, its invoices and payments:');
    const link = /https?:\/\/\S+?(\/my\/sign-in\/[0-9a-z]+\.[0-9a-z]+\.[0-9a-z]+\.[0-9a-z]+\.[\w-]{32})/.exec(
      mail,
    )![1]!;
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'en-GB',
      timezoneId: 'Europe/London',
      bypassCSP: true,
    });
    const traveller = await phone.newPage();
    await traveller.goto(link);
    await traveller.waitForURL(`**/my/bookings/${id}`);
    await expect(traveller.getByRole('list', { name: 'Your payment plan' })).toBeVisible();
    await traveller.getByRole('link', { name: /^Pay £[\d,]+\.\d\d$/ }).click();
    await expect(traveller.getByRole('heading', { level: 1 })).toHaveText(/^Pay invoice INV-\d+$/);
    await phone.close();
  });
});
