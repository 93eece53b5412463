import { expect, expectAccessible, signIn, test } from './fixtures.ts';

test.describe('the office’s header', () => {
  test('on a phone the sections are behind Menu, headed by who is signed in; on a laptop they sit in the header, none cut off', async ({
    page,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, 'admin', '/');
    const main = page.getByRole('navigation', { name: 'Main' });
    await expect(main).toBeHidden();
    const menu = page.getByText('Menu', { exact: true });
    await menu.click();
    await expect(main.getByRole('link')).toHaveText([
      'Bookings',
      'Trips',
      'Money',
      'Reports',
      'Charities',
      'Discounts',
      'Users',
      'History',
      'Jobs',
      'Settings',
      'Developer',
    ]);
    await expect(page.getByText(/^Signed in as .+ \(Administrator/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Full width' })).toBeHidden();
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/header-phone-menu.png' });
    // a section chosen: there, and the menu closed
    await main.getByRole('link', { name: 'Trips' }).click();
    await expect(page).toHaveURL(/\/trips$/);
    await expect(main).toBeHidden();
    // by keyboard: Enter opens it, Escape closes it and gives the focus back
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(main).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(main).toBeHidden();
    await expect(menu).toBeFocused();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);

    for (const width of [1100, 1280, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await expect(menu).toBeHidden();
      await expect(main).toBeVisible();
      // every section in view: none scrolled out of the header
      expect(await main.evaluate((nav) => nav.scrollWidth <= nav.clientWidth + 1)).toBe(true);
    }
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveAttribute('title', /^Signed in as /);
    expect(consoleErrors).toEqual([]);
  });
});
