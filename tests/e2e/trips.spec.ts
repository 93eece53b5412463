import { makePdf } from '../../src/db/seed/images.ts';
import { expect, expectAccessible, signIn, test } from './fixtures.ts';

test.describe('trips', () => {
  test('the list sorts, searches (after a pause), shows archived trips and offers the right menus', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/trips');
    await expect(page.getByRole('heading', { name: 'Trips' })).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/trip-list.png', fullPage: true });
    const rows = page.locator('tbody tr');
    await page.getByLabel('Search').fill('trek');
    await expect(rows.filter({ hasText: 'Cycle' })).toHaveCount(0);
    await page.getByLabel('Sort by').selectOption('name');
    await expect(rows.first()).toContainText('Atlas Mountains Trek');

    // a closed trip offers no New booking; a departed one no Edit Trip
    await page.getByLabel('Search').fill('');
    await page.getByRole('button', { name: /^Bookings menu for Ben Nevis Night Climb/ }).click();
    await expect(page.getByRole('menuitem', { name: 'List' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'New' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /^Trip menu for Ben Nevis Night Climb/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Edit Trip' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    await page.getByLabel('Show archived trips').check();
    await expect(rows.filter({ hasText: 'Snowdon Sunrise Trek 2024' })).toBeVisible();
    await expect(rows.filter({ hasText: 'Kilimanjaro' })).toHaveCount(0);
  });

  test('create a trip, edit it, add an add-on, a custom field and a document, then book, archive and delete it', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/trips');
    await page.getByRole('button', { name: 'Create New Trip' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Trip' });
    await expect(dialog.getByLabel('Type')).toHaveValue('charity');
    await expect(dialog.getByLabel('Level')).toHaveValue('2');
    await dialog.getByRole('button', { name: 'Create Trip' }).click();
    await expect(dialog.getByText('The name field is required.')).toBeVisible();
    await expectAccessible(page);

    await dialog.getByLabel('Trip Name').fill('Lake District Three Peaks 2099');
    await dialog.getByLabel('Country').fill('United King');
    await page.getByRole('option', { name: 'United Kingdom' }).click();
    await dialog.getByLabel('Departure').fill('12/06/2099');
    await dialog.getByLabel('Return').fill('11/06/2099');
    await dialog.getByRole('button', { name: 'Create Trip' }).click();
    await expect(dialog.getByText('The return date must be on or after the departure date.')).toBeVisible();
    await dialog.getByLabel('Return').fill('14/06/2099');
    await dialog.getByLabel('Level').selectOption('3');
    await dialog.getByRole('button', { name: 'Create Trip' }).click();

    await expect(page).toHaveURL(/\/trips\/\d+\/edit$/);
    await expect(page.getByRole('heading', { name: 'Edit Trip: Lake District Three Peaks 2099' })).toBeVisible();
    await expect(page.getByLabel('Status')).toHaveValue('open');
    await expect(page.getByLabel('Deposit')).toHaveValue('0.00');
    await expect(page.getByLabel('Funding')).toHaveValue('both');

    await page.getByLabel('Deposit').fill('95');
    await page.getByLabel('Cost').fill('395');
    await page.getByRole('button', { name: 'Save Trip' }).click();
    await expect(page.getByText('Trip details updated')).toBeVisible();

    await page.getByLabel('Add-on name').fill('Extra night in Keswick');
    await page.getByLabel('Price').fill('85');
    await page.getByRole('button', { name: 'Add Add-on' }).click();
    await expect(page.locator('tr').filter({ hasText: 'Extra night in Keswick' })).toContainText('£85.00');

    await page.getByLabel('Label').fill('Walking boots size');
    await page.getByLabel('Note').fill('UK sizes, for the boot hire');
    await page.getByRole('button', { name: 'Add Field' }).click();
    await expect(page.locator('tr').filter({ hasText: 'Walking boots size' })).toContainText(
      'UK sizes, for the boot hire',
    );

    await page.getByRole('button', { name: 'Add Document' }).click();
    // the server's message above, the field error under the field
    await expect(page.getByText('The name field is required.')).toHaveCount(2);
    await page.getByLabel('Document name').fill('Route map');
    await page.getByRole('button', { name: 'Add Document' }).click();
    const docRow = page.locator('tr').filter({ hasText: 'Route map' });
    await expect(docRow).toContainText('No file yet');
    // hold the reply back a moment, so the bar can be seen while the upload is under way
    await page.route('**/api/documents/*/upload', async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    const progressSeen = page.waitForSelector('[role=progressbar]', { timeout: 10_000, state: 'attached' }).then(
      () => true,
      () => false,
    );
    await docRow.locator('input[type=file]').setInputFiles({
      name: 'route-map.pdf',
      mimeType: 'application/pdf',
      buffer: makePdf('Route map', ['Day 1: Scafell Pike']),
    });
    await expect(docRow.getByRole('link', { name: 'route-map.pdf' })).toBeVisible();
    expect(await progressSeen).toBe(true);
    const href = await docRow.getByRole('link', { name: 'route-map.pdf' }).getAttribute('href');
    const download = await page.request.get(href!);
    expect(download.status()).toBe(200);
    expect((await download.body()).subarray(0, 5).toString()).toBe('%PDF-');

    await docRow
      .locator('input[type=file]')
      .setInputFiles({ name: 'evil.pdf', mimeType: 'application/pdf', buffer: Buffer.from('MZ not a pdf') });
    await expect(
      page.getByText('The document file must be a PDF, an image, a Word or Excel file, or a text file.'),
    ).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/trip-edit.png', fullPage: true });

    await page.getByRole('button', { name: 'Remove Route map' }).click();
    await expect(page.getByText('Are you sure? This action is permanent!')).toBeVisible();
    await page.getByRole('button', { name: 'Yes, Remove the Document' }).click();
    await expect(page.locator('tr').filter({ hasText: 'Route map' })).toHaveCount(0);

    await page.locator('tr').filter({ hasText: 'Walking boots size' }).getByRole('button', { name: 'Delete' }).click();
    await expect(
      page.getByText('Are you sure you want to delete this field? All the data entered for it will be lost.'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Yes, Delete the Field' }).click();
    await expect(page.locator('tr').filter({ hasText: 'Walking boots size' })).toHaveCount(0);

    // the trip's history: its own changes and its add-ons', questions' and documents'
    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('button', { name: 'Refresh' }).click();
    await expect(
      history.getByTestId('history-entry').filter({ hasText: /deleted the custom field Walking boots size/ }),
    ).toHaveCount(1);
    await expect(
      history
        .getByTestId('history-entry')
        .filter({ hasText: /uploaded|route-map\.pdf/ })
        .first(),
    ).toBeVisible();
    await expect(history.getByTestId('history-entry').filter({ hasText: /added the trip/ })).toHaveCount(1);

    // book it from the list
    await page.getByRole('link', { name: 'Back to Trips' }).click();
    await page.getByLabel('Search').fill('Lake District');
    const row = page.locator('tbody tr').filter({ hasText: 'Lake District Three Peaks 2099' });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: /^Bookings menu/ }).click();
    await page.getByRole('menuitem', { name: 'New' }).click();
    const booking = page.getByRole('dialog', { name: 'Create Booking' });
    await booking.getByRole('button', { name: 'Create Booking' }).click();
    await expect(booking.getByText('The terms and conditions must be accepted.')).toBeVisible();
    await booking.getByLabel('Title').selectOption('Mrs');
    await booking.getByLabel(/^First Name/).fill('Margaret');
    await booking.getByLabel(/^Last Name/).fill('Fell');
    await booking.getByLabel('Preferred Name').fill('Maggie');
    await booking.getByLabel('Email').fill('maggie.fell@example.test');
    await booking.getByLabel(/details as shown on the passport/).check();
    await booking.getByLabel('Terms & conditions accepted').check();
    await booking.getByRole('button', { name: 'Create Booking' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: /Booking TD-\w{6} has been created for Margaret Fell\./ }),
    ).toBeVisible();
    await expect(row.locator('td').nth(7)).toHaveText('1');

    await row.getByRole('button', { name: /^Trip menu/ }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    await expect(page.getByText(/Are you sure you want to archive Lake District Three Peaks 2099\?/)).toBeVisible();
    await page.getByRole('button', { name: 'Yes, Archive the Trip' }).click();
    await expect(row).toHaveCount(0);
    await page.getByLabel('Show archived trips').check();
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: /^Trip menu/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, Delete the Trip' }).click();
    await expect(row).toHaveCount(0);
  });
});
