import { expect, expectAccessible, signIn, test } from './fixtures.ts';
import { E2E_USERS } from './users.ts';

test.describe('sign-in', () => {
  test('a visitor is sent to sign in, a wrong password is refused, the right one lands in the shell with the demo office', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/charities');
    await expect(page).toHaveURL(/\/login\?next=%2Fcharities$/);
    await expect(page.getByRole('heading', { name: 'Tripdesk' })).toBeVisible();
    await expectAccessible(page);

    await page.getByLabel('Email').fill(E2E_USERS.admin.email);
    await page.locator('input[name=password]').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('These credentials do not match our records.')).toBeVisible();
    await expect(page).toHaveURL(/\/login/);

    await page.locator('input[name=password]').fill(E2E_USERS.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/charities$/);
    await page.getByRole('link', { name: 'Tripdesk', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Needs attention today' })).toBeVisible();
    await expectAccessible(page);
    expect(consoleErrors).toEqual([]);
  });

  test('the page carries a CSRF token and every call sends it with the XMLHttpRequest marker', async ({ page }) => {
    await signIn(page);
    const token = await page.locator('meta[name="csrf-token"]').getAttribute('content');
    expect(token).toBeTruthy();
    const request = page.waitForRequest((r) => r.url().includes('/api/dashboard'));
    await page.reload();
    const headers = (await request).headers();
    expect(headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(headers['x-csrf-token']).toBeTruthy();
  });

  test('signing out ends the session and says so once', async ({ page }) => {
    await signIn(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('You have been signed out.')).toBeVisible();
    await page.reload();
    await expect(page.getByText('You have been signed out.')).toHaveCount(0);
    await page.goto('/');
    await expect(page).toHaveURL(/\/login\?next=%2F$/);
  });
});

test.describe('the shell', () => {
  test('the expand button toggles full width and the choice is remembered', async ({ page }) => {
    await signIn(page);
    const container = page.locator('.main-container');
    const fixed = (await container.boundingBox())!.width;
    await page.setViewportSize({ width: 1600, height: 900 });
    const fixedWide = (await container.boundingBox())!.width;
    expect(fixedWide).toBeLessThan(1400);
    await page.locator('button.expand').click();
    await expect(container).toHaveAttribute('data-full-width', 'true');
    const full = (await container.boundingBox())!.width;
    expect(full).toBeGreaterThan(1500);
    await page.reload();
    await expect(page.locator('.main-container')).toHaveAttribute('data-full-width', 'true');
    await page.locator('button.expand').click();
    await expect(container).toHaveAttribute('data-full-width', 'false');
    expect(fixed).toBeGreaterThan(0);
  });

  test('flash messages show as info alerts on the next screen, once', async ({ page }) => {
    await signIn(page);
    await page.evaluate(() =>
      sessionStorage.setItem('tripdesk.flash', JSON.stringify(['Charity record has been added'])),
    );
    await page.getByRole('link', { name: 'Charities' }).click();
    const alert = page.getByRole('status').filter({ hasText: 'Charity record has been added' });
    await expect(alert).toBeVisible();
    await expect(alert).toHaveClass(/alert-info/);
    await page.getByRole('link', { name: 'Discounts' }).click();
    await expect(page.getByText('Charity record has been added')).toHaveCount(0);
  });

  test('an unknown address shows the not-found page', async ({ page }) => {
    await signIn(page);
    const response = await page.goto('/no-such-screen');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expectAccessible(page);
  });

  test('every section in the navigation opens', async ({ page }) => {
    await signIn(page);
    for (const name of ['Bookings', 'Trips', 'Charities', 'Discounts', 'Users', 'Developer']) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectAccessible(page);
    }
  });
});

test.describe('roles', () => {
  for (const who of ['charity', 'endUser'] as const) {
    test(`a ${who} account is told the back office is for staff and offered the developer area`, async ({ page }) => {
      // (a Charity user linked to a charity, as charity-link.spec.ts may have made this one, has the portal too)
      await signIn(page, who, '/bookings');
      await expect(page.getByRole('heading', { name: 'This back office is for staff' })).toBeVisible();
      const links = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts();
      expect(links.filter((l) => l !== 'Fundraisers')).toEqual(['Developer']);
      await expectAccessible(page);
      const status = await page.evaluate(
        async () => (await fetch('/api/overview', { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).status,
      );
      expect(status).toBe(403);
      await page.getByRole('link', { name: 'Go to the developer area' }).click();
      await expect(page).toHaveURL(/\/developer$/);
      if (who === 'charity') await page.screenshot({ path: 'test-results/screens/staff-only.png' });
    });
  }
});
