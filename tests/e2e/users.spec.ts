import { expect, expectAccessible, signIn, test } from './fixtures.ts';

test.describe('users', () => {
  test('add a user, sign in as them with the password from the flash, edit and delete them', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/users');
    await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
    await expect(page.getByLabel('Role')).toHaveValue('3');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Add User' }).click();
    await expect(page.getByText('The email field is required.')).toBeVisible();
    await expect(page.getByText('The first name field is required.')).toBeVisible();

    await page.getByLabel('Email').fill('robin.guide@example.test');
    await page.getByLabel('First Name').fill('Robin');
    await page.getByLabel('Last Name').fill('Guide');
    await page.getByLabel('Role').selectOption({ label: 'Charity' });
    await page.getByRole('button', { name: 'Add User' }).click();
    const flash = page.getByRole('status').filter({ hasText: 'User created. The password for the account is: ' });
    await expect(flash).toBeVisible();
    const password = (await flash.innerText()).split('The password for the account is: ')[1]!.trim();
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    await expect(page.getByLabel('Email')).toHaveValue('');
    const row = page.locator('tbody tr').filter({ hasText: 'robin.guide@example.test' });
    await expect(row).toContainText('Charity');
    await page.screenshot({ path: 'test-results/screens/user-list.png', fullPage: true });

    // the new account works, in a browser of its own
    const other = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    const theirs = await other.newPage();
    await theirs.goto('/login');
    await theirs.getByLabel('Email').fill('robin.guide@example.test');
    await theirs.locator('input[name=password]').fill(password);
    await theirs.getByRole('button', { name: 'Sign in' }).click();
    await expect(theirs.getByRole('heading', { name: 'This back office is for staff' })).toBeVisible();
    await other.close();

    // duplicate email
    await page.getByLabel('Email').fill('ROBIN.GUIDE@example.test');
    await page.getByLabel('First Name').fill('Again');
    await page.getByLabel('Last Name').fill('Again');
    await page.getByRole('button', { name: 'Add User' }).click();
    await expect(page.getByText('The email has already been taken.').first()).toBeVisible();

    await page.getByLabel('Search').fill('robin.guide');
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await expect(row.getByRole('link', { name: /View Bookings/ })).toHaveAttribute('href', /\/bookings\?user_id=\d+$/);
    await row.getByRole('link', { name: /Update User/ }).click();

    await expect(page.getByRole('heading', { name: 'Edit User: Robin Guide' })).toBeVisible();
    await expect(page.getByLabel('Stripe Customer ID')).toHaveAttribute('readonly', '');
    await expectAccessible(page);
    await page.getByLabel('New Password').fill('short');
    await page.getByLabel('Confirm Password').fill('different');
    await page.getByRole('button', { name: 'Save User' }).click();
    await expect(page.getByText('The password must be at least 12 characters.')).toBeVisible();
    await page.getByLabel('New Password').fill('a much longer passphrase');
    await page.getByRole('button', { name: 'Save User' }).click();
    await expect(page.getByText('The password confirmation does not match.')).toBeVisible();
    await page.getByLabel('Confirm Password').fill('a much longer passphrase');
    await page.getByLabel('Last Name').fill('Leader');
    await page.screenshot({ path: 'test-results/screens/user-edit.png', fullPage: true });
    await page.getByRole('button', { name: 'Save User' }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByRole('status').filter({ hasText: 'User record updated' })).toBeVisible();
    await expect(page.locator('tbody tr').filter({ hasText: 'Robin Leader' })).toBeVisible();

    await page
      .locator('tbody tr')
      .filter({ hasText: 'Robin Leader' })
      .getByRole('link', { name: /Update User/ })
      .click();
    await page.getByRole('button', { name: 'Delete User' }).click();
    await expect(
      page.getByText('Are you sure you want to delete this user? Their bookings and payments are kept.'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Yes, Delete the User' }).click();
    await expect(page).toHaveURL(/\/users$/);
    await expect(page.getByRole('status').filter({ hasText: 'User record deleted' })).toBeVisible();
    await expect(page.locator('tbody tr').filter({ hasText: 'robin.guide@example.test' })).toHaveCount(0);
  });

  test('pages through users five page links at a time', async ({ page }) => {
    await signIn(page, 'admin', '/users');
    const pages = page.getByRole('navigation', { name: 'Pages' });
    await expect(pages.getByRole('button', { name: /^Page \d+$/ })).toHaveCount(5);
    await expect(pages.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    await pages.getByRole('button', { name: 'Page 5' }).click();
    await expect(pages.getByRole('button', { name: 'Page 5' })).toHaveAttribute('aria-current', 'page');
    await expect(pages.getByRole('button', { name: /^Page \d+$/ })).toHaveText(['3', '4', '5', '6', '7']);
    await expect(page.getByText(/^Showing 101 to 125 of \d+ users$/)).toBeVisible();
  });

  test('an administrator cannot change their own role or delete themselves from their page', async ({ page }) => {
    await signIn(page, 'admin', '/users');
    await page.getByLabel('Search').fill('admin@e2e.test');
    await page
      .locator('tbody tr')
      .filter({ hasText: 'admin@e2e.test' })
      .getByRole('link', { name: /Update User/ })
      .click();
    await expect(page.getByText('You cannot change your own role.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete User' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Save User' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'User record updated' })).toBeVisible();
  });
});
