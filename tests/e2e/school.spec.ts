import { addDays, ukToday } from '../../src/contract/dates.ts';
import { expect, expectAccessible, freshBooking, freshTrip, signIn, test, travellerOnPhone } from './fixtures.ts';

test.describe('school trips', () => {
  test('a parent gives consent on a phone, the board turns green for the pupil, and a withdrawal turns it red', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const tripId = await freshTrip(page, `Year 8 Snowdonia ${Date.now()}`, addDays(ukToday(), 90));
    const id = await freshBooking(page, tripId, 'Pupil');
    // the trip's own wording, set on its page
    await page.goto(`/trips/${tripId}/edit`);
    await page.getByLabel('Parent’s consent').fill('I agree to my child joining the Snowdonia trip.');
    await page.getByRole('button', { name: 'Save Trip' }).click();
    await expect(page.getByRole('status')).toBeVisible();

    const { traveller, phone } = await travellerOnPhone(page, browser, id);
    try {
      const section = traveller.getByRole('region', { name: 'Parent’s consent' });
      await expect(section.getByLabel('What you agree to')).toHaveText(
        'I agree to my child joining the Snowdonia trip.',
      );
      await expect(traveller.getByText('A parent’s consent')).toBeVisible();
      await section.getByRole('button', { name: 'I Give My Consent' }).click();
      await expect(section.getByText('Type your full name to give your consent.')).toBeVisible();
      await section.screenshot({ path: 'test-results/screens/consent-asked-phone.png' });
      await section.getByLabel('Your full name').fill('Mo Parent');
      await section.getByRole('button', { name: 'I Give My Consent' }).click();
      await expect(section.getByRole('status')).toHaveText('Thank you: your consent is recorded.');
      await expect(section).toContainText('Consent given by Mo Parent');
      await expect(traveller.getByText('A parent’s consent')).toHaveCount(0);
      expect(await traveller.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expectAccessible(traveller);
      await section.screenshot({ path: 'test-results/screens/consent-given-phone.png' });

      await page.goto(`/trips/${tripId}/readiness`);
      const consent = page.getByRole('img', { name: /^Consent: Ready\. Consent given by Mo Parent/ });
      await expect(consent).toBeVisible();

      await section.getByRole('button', { name: 'Withdraw Consent' }).click();
      await section.screenshot({ path: 'test-results/screens/consent-withdraw-phone.png' });
      await section.getByRole('button', { name: 'Yes, Withdraw My Consent' }).click();
      await expect(section.getByRole('status')).toHaveText('Your consent is withdrawn, and the office has been told.');
      await expect(section.getByLabel('Your full name')).toBeVisible();
      await page.reload();
      await expect(
        page.getByRole('img', { name: /^Consent: Problem\. The parent’s consent was withdrawn/ }),
      ).toBeVisible();
      await page.screenshot({ path: 'test-results/screens/consent-board.png', fullPage: true });
      await page.goto(`/bookings/${id}`);
      await expect(page.getByRole('table', { name: 'Readiness checks' })).toContainText('Consent');
    } finally {
      await phone.close();
    }
  });
});
