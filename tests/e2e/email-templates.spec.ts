import { expect, signIn, test } from './fixtures.ts';

type Row = { id: number; ref: string; first_name: string; preferred_name: string | null; email: string };

test.describe('email templates', () => {
  test('the overdue chaser’s subject is changed, previewed against a demo booking, saved and kept', async ({
    page,
    consoleErrors,
  }) => {
    await signIn(page, 'admin', '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings\/emails$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Email templates' })).toBeVisible();
    const booking = await page.evaluate(async () => {
      const res = await fetch('/api/bookings?timing=all&per_page=1', {
        headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      });
      return ((await res.json()) as { data: Row[] }).data[0]!;
    });

    await page.getByRole('tab', { name: /Chaser for an overdue instalment/ }).click();
    await expect(page).toHaveURL(/\?email=reminder_overdue$/);
    const form = page.getByRole('form', { name: /Chaser for an overdue instalment/ });
    await expect(form.getByText('Tripdesk’s default wording')).toBeVisible();
    const subject = form.getByLabel('Subject');
    await expect(subject).toHaveValue('Overdue: {{ invoice.ref }} for {{ trip.name }}');

    // a new subject, with a placeholder put in at the cursor
    await subject.fill('A gentle nudge for  about {{ trip.name }}');
    await subject.evaluate((el: HTMLInputElement) =>
      el.setSelectionRange('A gentle nudge for '.length, 'A gentle nudge for '.length),
    );
    await form.getByRole('button', { name: '{{ traveller.first_name }}' }).click();
    await expect(subject).toHaveValue('A gentle nudge for {{ traveller.first_name }} about {{ trip.name }}');
    await expect(page.getByRole('tab', { name: /Chaser for an overdue instalment.*unsaved changes/ })).toBeVisible();

    // previewed against the booking, by its reference, before it is saved
    const panel = page.getByRole('tabpanel', { name: /Chaser for an overdue instalment/ });
    const preview = panel.getByRole('region', { name: 'Preview' });
    await preview.getByRole('textbox', { name: 'Booking' }).fill(booking.ref);
    await preview.getByRole('textbox', { name: 'Booking' }).press('Enter');
    await expect(preview.getByTestId('preview-to')).toHaveText(booking.email);
    await expect(preview.getByTestId('preview-subject')).toHaveText(
      new RegExp(`^A gentle nudge for ${booking.first_name} about `),
    );
    const name = booking.preferred_name ?? booking.first_name;
    await expect(preview.getByTestId('preview-text')).toContainText(`Dear ${name},`);
    await expect(preview.frameLocator('iframe[title="The email as HTML"]').locator('p').first()).toHaveText(
      `Dear ${name},`,
    );
    await expect(preview.locator('iframe')).toHaveAttribute('sandbox', '');
    await page.screenshot({ path: 'test-results/screens/email-templates.png', fullPage: true });

    // saved, and kept
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('status')).toHaveText(/^Saved at \d\d:\d\d\.$/);
    await page.reload();
    await expect(page.getByRole('tab', { name: /Chaser for an overdue instalment/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(form.getByLabel('Subject')).toHaveValue(
      'A gentle nudge for {{ traveller.first_name }} about {{ trip.name }}',
    );
    await expect(form.getByText(/^Changed \d\d \w{3} \d{4}/)).toBeVisible();

    // back to Tripdesk's subject, so the other specs' reminders read as they expect
    await form.getByLabel('Subject').fill('Overdue: {{ invoice.ref }} for {{ trip.name }}');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByRole('status')).toHaveText(/^Saved at/);
    expect(consoleErrors).toEqual([]);
  });

  test('a body that cannot be read is refused under Body, and a booking that does not exist under Booking', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/settings/emails');
    const form = page.getByRole('form', { name: /Reminder before an instalment is due/ });
    const body = form.getByLabel('Body');
    await body.fill('Dear {{ traveller.first_name ,\n\nPlease pay.');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(body).toHaveAccessibleDescription(/The body cannot be read/);
    await expect(body).toHaveAttribute('aria-invalid', 'true');

    // the preview reads the draft first
    const preview = page
      .getByRole('tabpanel', { name: /Reminder before an instalment is due/ })
      .getByRole('region', { name: 'Preview' });
    const bookingField = preview.getByRole('textbox', { name: 'Booking' });
    await bookingField.fill('1');
    await preview.getByRole('button', { name: 'Preview' }).click();
    await expect(body).toHaveAccessibleDescription(/The body cannot be read/);
    await expect(preview.getByTestId('preview-to')).toHaveCount(0);
    await page.screenshot({ path: 'test-results/screens/email-templates-error.png', fullPage: true });

    // leaving asks first
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.getByRole('button', { name: 'Stay' }).click();
    await expect(leave).toHaveCount(0);
    await expect(page).toHaveURL(/\/settings\/emails/);

    // nothing was saved
    await form.getByRole('button', { name: 'Discard changes' }).click();
    await expect(body).toHaveValue(/^Dear \{\{ traveller.preferred_name/);
    await page.reload();
    await expect(body).toHaveValue(/^Dear \{\{ traveller.preferred_name/);

    // a booking that is not there
    await bookingField.fill('TD-NOSUCH');
    await preview.getByRole('button', { name: 'Preview' }).click();
    await expect(bookingField).toHaveAccessibleDescription('No booking has the reference “TD-NOSUCH”.');
    await bookingField.fill('99999999');
    await bookingField.press('Enter');
    await expect(bookingField).toHaveAccessibleDescription('The selected booking is invalid.');
  });
});
