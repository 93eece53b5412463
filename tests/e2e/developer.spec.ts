import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from './fixtures.ts';

const SHOTS = 'scratch';
mkdirSync(SHOTS, { recursive: true });

const panel = (page: Page, name: string) => page.getByRole('region', { name });

test.describe('developer area', () => {
  test('OAuth clients: create (errors first), edit, delete — for a Charity user too', async ({ page }) => {
    await signIn(page, 'charity', '/developer');
    await expect(page.getByRole('heading', { level: 1, name: 'Developer' })).toBeVisible();
    const clients = panel(page, 'OAuth Clients');
    await expect(clients.getByText('You have not created any OAuth clients.')).toBeVisible();
    await expect(
      panel(page, 'Personal Access Tokens').getByText('You have not created any personal access tokens.'),
    ).toBeVisible();

    await clients.getByRole('button', { name: 'Create New Client' }).click();
    const create = page.getByRole('dialog', { name: 'Create Client' });
    await expect(create.getByLabel('Name')).toBeFocused();
    await expect(create.getByText('Something your users will recognize and trust.')).toBeVisible();
    await expect(create.getByText("Your application's authorization callback URL.")).toBeVisible();
    await create.getByRole('button', { name: 'Create' }).click();
    const whoops = create.getByRole('alert');
    await expect(whoops).toContainText('Whoops! Something went wrong!');
    await expect(whoops.getByRole('listitem')).toHaveText([
      'The name field is required.',
      'The redirect field is required.',
    ]);
    await page.screenshot({ path: `${SHOTS}/developer-create-client-errors.png` });

    await create.getByLabel('Name').fill('Charity Fundraising Sync');
    await create.getByLabel('Redirect URL').fill('https://fundraising.example/oauth/callback');
    // Enter in a field submits
    await create.getByLabel('Redirect URL').press('Enter');
    await expect(create).toBeHidden();
    const row = clients.getByRole('row', { name: /Charity Fundraising Sync/ });
    await expect(row).toBeVisible();
    await expect(clients.getByRole('columnheader')).toHaveText(['Client ID', 'Name', 'Secret', 'Edit', 'Delete']);
    await expect(row.locator('code').first()).toHaveText(/^[0-9a-f-]{36}$/);
    await page.screenshot({ path: `${SHOTS}/developer-clients.png`, fullPage: true });

    await row.getByRole('button', { name: 'Edit Charity Fundraising Sync' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Client' });
    await expect(edit.getByLabel('Name')).toBeFocused();
    await expect(edit.getByLabel('Redirect URL')).toHaveValue('https://fundraising.example/oauth/callback');
    await edit.getByLabel('Redirect URL').fill('http://not-local.example/cb');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(edit.getByRole('alert').getByRole('listitem')).toHaveText([
      'The redirect must start with https:// (http:// is accepted for localhost only).',
    ]);
    await edit.getByLabel('Redirect URL').fill('https://fundraising.example/v2/callback');
    await edit.getByLabel('Name').fill('Fundraising Sync v2');
    await edit.getByLabel('Name').press('Enter');
    await expect(edit).toBeHidden();
    await expect(clients.getByRole('row', { name: /Fundraising Sync v2/ })).toContainText(
      'https://fundraising.example/v2/callback',
    );

    // after a save the create form is empty again, with no errors left over
    await clients.getByRole('button', { name: 'Create New Client' }).click();
    await expect(create.getByLabel('Name')).toHaveValue('');
    await expect(create.getByRole('alert')).toHaveCount(0);
    await create.getByRole('button', { name: 'Close' }).first().click();
    await expect(create).toBeHidden();

    // no confirmation (spec §5)
    await clients.getByRole('button', { name: 'Delete Fundraising Sync v2' }).click();
    await expect(clients.getByText('You have not created any OAuth clients.')).toBeVisible();
  });

  test('personal access tokens: create with scopes, read it once, call the API with it, delete it', async ({
    page,
    baseURL,
  }) => {
    await signIn(page, 'admin', '/developer');
    const tokens = panel(page, 'Personal Access Tokens');
    await tokens.getByRole('button', { name: 'Create New Token' }).click();
    const create = page.getByRole('dialog', { name: 'Create Token' });
    await expect(create.getByLabel('Name')).toBeFocused();
    await expect(create.getByRole('checkbox')).toHaveCount(7);
    await create.getByLabel('Name').fill('Monthly report');
    await create.getByRole('checkbox', { name: 'bookings:read' }).check();
    await create.getByRole('checkbox', { name: 'trips:read' }).check();
    await create.getByRole('checkbox', { name: 'trips:read' }).uncheck();
    await page.screenshot({ path: `${SHOTS}/developer-create-token.png` });
    await create.getByRole('button', { name: 'Create' }).click();

    const shown = page.getByRole('dialog', { name: 'Personal Access Token' });
    await expect(shown).toContainText(
      "Here is your new personal access token. This is the only time it will be shown so don't lose it! You may now use this token to make API requests.",
    );
    const box = shown.getByLabel('Token');
    await expect(box).toHaveAttribute('readonly', '');
    const token = await box.inputValue();
    expect(token).toMatch(/^tdp_[A-Za-z0-9_-]{43}$/);
    await page.screenshot({ path: `${SHOTS}/developer-token-shown.png` });
    await expectAccessible(page);
    await shown.getByRole('button', { name: 'Close' }).last().click();
    await expect(create).toBeHidden();

    const row = tokens.getByRole('row', { name: /Monthly report/ });
    await expect(row).toContainText('bookings:read');
    await expect(row).not.toContainText('trips:read');
    await expect(row).toContainText('Never');

    // the token alone: no cookie, no CSRF token
    const call = (path: string) => fetch(`${baseURL}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    const bookings = await call('/api/bookings?timing=all');
    expect(bookings.status).toBe(200);
    expect((await bookings.json()).total).toBeGreaterThan(0);
    expect((await call('/api/users')).status).toBe(403);

    await page.reload();
    await expect(tokens.getByRole('row', { name: /Monthly report/ })).not.toContainText('Never');
    await page.screenshot({ path: `${SHOTS}/developer-tokens.png`, fullPage: true });

    await tokens.getByRole('button', { name: 'Delete Monthly report' }).click();
    await expect(tokens.getByRole('row', { name: /Monthly report/ })).toHaveCount(0);
    const after = await call('/api/bookings');
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  test('authorize an application on the consent page, then revoke it', async ({ page, baseURL }) => {
    await signIn(page, 'admin', '/developer');
    const redirect = `${baseURL}/e2e-callback`;
    const client = await page.evaluate(async (redirect) => {
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const res = await fetch('/oauth/clients', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-TOKEN': csrf, 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ name: 'Trail Planner', redirect }),
      });
      return (await res.json()) as { id: string; secret: string };
    }, redirect);

    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.id,
      redirect_uri: redirect,
      scope: 'bookings:read trips:read',
      state: 'e2e-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    await page.goto(`/oauth/authorize?${query}`);
    await expect(page.getByText('Trail Planner is requesting permission to access your account.')).toBeVisible();
    await expect(page.getByRole('listitem')).toHaveText([/Read bookings and travellers/, /Read trips/]);
    await page.screenshot({ path: `${SHOTS}/developer-consent.png`, fullPage: true });
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Authorize' }).click();
    // the callback is not a page of ours (the app shows its not-found page); its address is what counts
    await page.waitForURL(/\/e2e-callback\?/);
    const callback = new URL(page.url());
    expect(callback.searchParams.get('state')).toBe('e2e-state');
    const code = callback.searchParams.get('code')!;

    const res = await fetch(`${baseURL}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirect,
        code_verifier: verifier,
        client_id: client.id,
        client_secret: client.secret,
      }),
    });
    expect(res.status).toBe(200);
    const { access_token: accessToken } = (await res.json()) as { access_token: string };
    const call = () => fetch(`${baseURL}/api/trips`, { headers: { Authorization: `Bearer ${accessToken}` } });
    expect((await call()).status).toBe(200);

    await page.goto('/developer');
    const apps = panel(page, 'Authorized Applications');
    const row = apps.getByRole('row', { name: /Trail Planner/ });
    await expect(row).toContainText('bookings:read');
    await expect(row).toContainText('trips:read');
    await page.screenshot({ path: `${SHOTS}/developer-authorized.png`, fullPage: true });
    await row.getByRole('button', { name: 'Revoke Trail Planner' }).click();
    await expect(apps.getByText('You have not authorized any applications to use your account.')).toBeVisible();
    expect((await call()).status).toBe(401);
  });
});
