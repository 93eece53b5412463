import { expect, expectAccessible, signIn, test } from './fixtures.ts';

// The shared trips multi-select (spec §9): the first three choices as pills, then 'and N more'
// inside the field, chosen and removed from the keyboard.
test('the trips multi-select shows three pills and "and N more" inside the field, by keyboard', async ({ page }) => {
  await signIn(page, 'admin', '/bookings');
  const field = page.locator('.mantine-MultiSelect-input');
  const input = page.getByRole('combobox', { name: 'Trips' });
  await input.focus();
  for (const trip of ['Kilimanjaro', 'Great Wall', 'Machu Picchu', 'Sahara', 'Iceland Fire']) {
    await input.fill(trip);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
  }
  await page.keyboard.press('Escape');

  await expect(field.locator('.mantine-Pill-root')).toHaveCount(3);
  await expect(field.getByText('and 2 more', { exact: true })).toBeVisible();
  // the demo trips are named by the year they depart, which follows the clock
  await expect(field.getByText('and 2 more')).toHaveAttribute(
    'title',
    /^Sahara Desert Trek \d{4}, Iceland Fire & Ice Trek \d{4}$/,
  );
  await expectAccessible(page);
  await page.locator('form[role=search]').screenshot({ path: 'scratch/multi-select-and-more.png' });

  // Backspace takes off the last choice, one of the hidden ones
  await input.focus();
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Escape');
  await expect(field.getByText('and 1 more', { exact: true })).toBeVisible();
  // a pill's own remove button still works; the next hidden choice moves up into the pills
  await field.locator('.mantine-Pill-root').first().locator('button').click();
  await expect(field.locator('.mantine-Pill-root')).toHaveCount(3);
  await expect(field.getByText(/and \d+ more/)).toHaveCount(0);

  // the search sends every choice, shown or not
  await input.focus();
  await input.fill('Iceland Fire');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect(field.getByText('and 1 more', { exact: true })).toBeVisible();
  const request = page.waitForRequest((r) => r.url().includes('/api/bookings?'));
  await page.getByRole('button', { name: 'Search' }).click();
  const url = new URL((await request).url());
  expect(url.searchParams.getAll('trips[]').length + (url.searchParams.get('trips')?.split(',').length ?? 0)).toBe(4);
});
