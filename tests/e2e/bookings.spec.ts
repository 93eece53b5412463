import { expect, expectAccessible, signIn, test } from './fixtures.ts';

test.describe('bookings', () => {
  test('filter by trip through the multi-select, sort, page, choose columns, and find the filters kept on return', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/bookings');
    await expect(page.getByRole('heading', { name: 'Bookings' })).toBeVisible();
    await expect(page.getByLabel('Status')).toHaveValue('all');
    await expect(page.getByLabel('Timing')).toHaveValue('future');
    await expect(page.getByRole('columnheader', { name: /Date Received/ })).toHaveAttribute('aria-sort', 'descending');
    // the ▲/▼ glyph is not part of the header's accessible name
    await expect(page.getByRole('button', { name: 'Date Received', exact: true })).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/booking-list.png', fullPage: true });

    await page.locator('.mantine-MultiSelect-input').click();
    await expect(page.getByRole('option', { name: /Kilimanjaro Summit Trek/ })).toContainText('Press enter to select');
    await page.getByRole('option', { name: /Kilimanjaro Summit Trek/ }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.locator('tbody tr');
    await expect(rows.first()).toContainText('Kilimanjaro Summit Trek');
    const tripCells = await rows.locator('td:nth-child(5)').allInnerTexts();
    expect(new Set(tripCells)).toEqual(new Set([tripCells[0]]));

    await page.getByRole('button', { name: /^Traveller Name/ }).click();
    await expect(page.getByRole('columnheader', { name: /Traveller Name/ })).toHaveAttribute('aria-sort', 'descending');
    await page.getByRole('button', { name: /^Traveller Name/ }).click();
    await expect(page.getByRole('columnheader', { name: /Traveller Name/ })).toHaveAttribute('aria-sort', 'ascending');

    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('menuitem', { name: 'Email' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('columnheader', { name: 'Email' })).toBeVisible();

    // leave and come back: filters, sort and columns are as they were
    await page.getByRole('link', { name: 'Trips', exact: true }).click();
    await page.getByRole('link', { name: 'Bookings', exact: true }).click();
    await expect(page.getByRole('columnheader', { name: 'Email' })).toBeVisible();
    await expect(page.getByRole('columnheader', { name: /Traveller Name/ })).toHaveAttribute('aria-sort', 'ascending');
    await expect(rows.first()).toContainText('Kilimanjaro Summit Trek');

    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(page.getByRole('navigation', { name: 'Pages' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Page 2' }).click();
    await expect(page.getByText(/^Showing 26 to 50 of \d+ bookings$/)).toBeVisible();
  });

  test('the trip list’s List link opens that trip’s bookings, and a booking opens with every group', async ({
    page,
  }) => {
    await signIn(page, 'admin', '/trips');
    await page.getByRole('button', { name: /^Bookings menu for Petra & Wadi Rum Trek/ }).click();
    await page.getByRole('menuitem', { name: 'List' }).click();
    await expect(page).toHaveURL(/\/bookings\?timing=all&trip_id=\d+$/);
    await expect(page.getByLabel('Timing')).toHaveValue('all');
    await expect(page.getByText('Showing one trip.')).toBeVisible();
    const first = page.locator('tbody tr').first();
    await expect(first).toContainText('Petra & Wadi Rum Trek');
    await first.getByRole('link', { name: /^View booking/ }).click();

    await expect(page).toHaveURL(/\/bookings\/\d+$/);
    for (const group of [
      'Traveller',
      'Booking, trip and room',
      'Passport',
      'Insurance',
      'Next of kin',
      'Medical and dietary',
      'Add-ons',
      'Trip questions',
    ]) {
      await expect(page.getByRole('heading', { name: group, exact: true })).toBeVisible();
    }
    await expect(page.getByText(/\d{1,2}(st|nd|rd|th) [A-Z][a-z]{2} \d{4}/).first()).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/booking-page.png', fullPage: true });

    await page.getByRole('button', { name: 'Edit Booking' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Booking' });
    await dialog.getByLabel('Room Ref').fill('R42');
    await dialog.getByLabel('Email').fill('not an email');
    await dialog.getByRole('button', { name: 'Save Booking' }).click();
    await expect(dialog.getByText('The email must be a valid email address.')).toBeVisible();
    await dialog.getByLabel('Email').fill('changed.traveller@example.test');
    await dialog.getByLabel('Status').selectOption('cancelled');
    await dialog.getByRole('button', { name: 'Save Booking' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('R42')).toBeVisible();
    await expect(page.getByText('changed.traveller@example.test')).toBeVisible();
  });
});

test.describe('booking downloads', () => {
  test('downloads a spreadsheet of the search, then the passport zip two seconds later', async ({ page }) => {
    await signIn(page, 'admin', '/bookings');
    await page.getByRole('button', { name: 'Download' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download bookings' });
    for (const label of ['Date Received', 'ID', 'Status', 'Trip'])
      await expect(dialog.getByLabel(label, { exact: true })).toBeChecked();
    await expect(dialog.getByLabel('Email', { exact: true })).not.toBeChecked();
    await expectAccessible(page);
    await dialog.getByLabel('Email', { exact: true }).check();
    await dialog.getByLabel(/passport images/).check();
    const first = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    const sheet = await first;
    const sheetAt = Date.now();
    expect(sheet.suggestedFilename()).toMatch(/^bookings-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const zip = await page.waitForEvent('download', { timeout: 10_000 });
    expect(Date.now() - sheetAt).toBeGreaterThan(1500);
    expect(zip.suggestedFilename()).toMatch(/^passports-\d{4}-\d{2}-\d{2}\.zip$/);
    const url = new URL(sheet.url());
    expect(url.pathname).toBe('/bookings/export');
    expect(url.searchParams.get('format')).toBe('xls');
    expect(url.searchParams.get('perPage')).toBe('5000');
    expect(JSON.parse(url.searchParams.get('columns')!)).toEqual(['date', 'id', 'status', 'trip_name', 'email']);
    expect(url.searchParams.get('timing')).toBe('future');
  });
});
