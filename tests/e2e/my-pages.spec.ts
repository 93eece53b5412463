import { bookingThroughApi, expect, expectAccessible, signIn, test } from './fixtures.ts';

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
    const email = await page.evaluate(
      async (bookingId) => ((await (await fetch(`/api/bookings/${bookingId}`)).json()) as { email: string }).email,
      id,
    );
    await page.goto(`/bookings/${id}`);
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
    await traveller.waitForURL(`**/my/bookings/${id}`);
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
    await traveller.getByRole('button', { name: 'Sign out' }).click();
    await traveller.waitForURL('**/my/sign-in');
    await traveller.goto(link);
    await expect(traveller.getByRole('alert')).toHaveText(/expired or has already been used/);
    await traveller.getByLabel('Your email address').fill(email);
    await traveller.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect(traveller.getByRole('status')).toHaveText(/If we know that address, we have sent it a link/);
    await phone.close();
  });
});
