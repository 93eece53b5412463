import { expect, expectAccessible, signIn, test } from './fixtures.ts';
import { E2E_USERS } from './users.ts';

type Fundraisers = { fundraisers: Array<{ booking_id: number; traveller: string; acknowledged_at: string | null }> };

test('the charity portal: an Administrator links a Charity user, who sees only their fundraisers, acknowledges one and records an amount; staff see both on the booking', async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(90_000);
  // ---- staff: link the partner to the charity with the most fundraisers ----
  await signIn(page, 'admin', '/users');
  const charities = (await (await page.request.get('/api/charities')).json()) as Array<{ id: number; name: string }>;
  const lists = await Promise.all(
    charities.map(async (c) => ({
      charity: c,
      list: (await (await page.request.get(`/api/charities/${c.id}/fundraisers`)).json()) as Fundraisers,
    })),
  );
  lists.sort((a, b) => b.list.fundraisers.length - a.list.fundraisers.length);
  const ours = lists[0]!;
  const theirs = lists.find((l) => l !== ours && l.list.fundraisers.length > 0);
  expect(
    ours.list.fundraisers.filter((f) => !f.acknowledged_at).length,
    'a demo charity with fundraisers to acknowledge',
  ).toBeGreaterThan(0);
  const found = (await (
    await page.request.get(`/api/users?search=${encodeURIComponent(E2E_USERS.partner.email)}`)
  ).json()) as { data: Array<{ id: number }> };
  await page.goto(`/users/${found.data[0]!.id}/edit`);
  await page.getByLabel('Charity', { exact: true }).selectOption({ label: ours.charity.name });
  await page.getByRole('button', { name: 'Save User' }).click();
  await expect(page.getByText('User record updated')).toBeVisible();

  // ---- the partner: lands on their portal, sees their charity's fundraisers and no one else's ----
  await page.context().clearCookies();
  await signIn(page, 'partner', '/charity');
  await page.goto('/');
  await expect(page).toHaveURL(/\/charity$/);
  await expect(page.getByRole('heading', { name: 'Fundraisers', level: 1 })).toBeVisible();
  await expect(page.getByText(`The travellers fundraising for ${ours.charity.name}`)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
    'Fundraisers',
    'Developer',
  ]);
  const table = page.getByRole('table', { name: /Each traveller fundraising for your charity/ });
  await expect(table.locator('tbody tr')).toHaveCount(ours.list.fundraisers.length);
  if (theirs)
    for (const f of theirs.list.fundraisers.slice(0, 3))
      await expect(table.getByText(f.traveller, { exact: true })).toHaveCount(
        ours.list.fundraisers.some((o) => o.traveller === f.traveller) ? 1 : 0,
      );
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/screens/charity-portal.png', fullPage: true });

  // the state filter is kept in the address
  await page.getByLabel('State').selectOption('behind');
  await expect(page).toHaveURL(/state=behind/);
  await page.getByLabel('State').selectOption('');

  // acknowledge one
  const pick = ours.list.fundraisers.find((f) => !f.acknowledged_at)!;
  await page
    .getByRole('button', { name: `Acknowledge ${pick.traveller}` })
    .first()
    .click();
  await expect(page.getByRole('status')).toContainText(`${pick.traveller} has been acknowledged.`);
  await expect(page.getByRole('button', { name: `Acknowledge ${pick.traveller}` })).toHaveCount(0);

  // record an amount the charity confirms, and send the office a note
  await page
    .getByRole('button', { name: `Show the details of ${pick.traveller}` })
    .first()
    .click();
  const details = page.getByRole('region', { name: `Details of ${pick.traveller}` });
  await details.getByRole('button', { name: 'Record amount raised…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record amount raised' });
  await dialog.getByRole('button', { name: 'Record Amount' }).click();
  await expect(dialog.getByText('The amount field is required.')).toBeVisible();
  await dialog.getByLabel('Amount (£)').fill('75');
  await dialog.getByLabel('Note').fill('Confirmed by our finance team');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Record Amount' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status')).toContainText(`Recorded for ${pick.traveller}`);
  const entry = details.getByRole('row').filter({ hasText: 'Confirmed by our finance team' });
  await expect(entry).toContainText('£75.00');
  await expect(entry).toContainText('Charity confirmed');
  await details.getByRole('button', { name: 'Send a note to the office…' }).click();
  const note = page.getByRole('dialog', { name: `Note to the office about ${pick.traveller}` });
  await note.getByLabel('Note').fill('Cheque for £75 <received> at our office.');
  await note.getByRole('button', { name: 'Send Note' }).click();
  await expect(note).toHaveCount(0);
  await expect(details).toContainText('Cheque for £75 <received> at our office.');
  await page.screenshot({ path: 'test-results/screens/charity-portal-details.png', fullPage: true });

  // the download
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download .xlsx' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^fundraisers-.+\.xlsx$/);

  // the back office stays closed
  await page.goto('/bookings');
  await expect(page.getByRole('heading', { name: 'This back office is for staff' })).toBeVisible();

  // ---- staff see the acknowledgement, the entry and the note on the booking, and in its History ----
  await page.context().clearCookies();
  await signIn(page, 'admin', `/bookings/${pick.booking_id}`);
  const panel = page.getByRole('region', { name: 'Fundraising' });
  await expect(panel).toContainText('Pat Partner on');
  const row = panel.getByRole('row').filter({ hasText: 'Confirmed by our finance team' });
  await expect(row).toContainText('Charity confirmed');
  await expect(row).toContainText('Pat Partner');
  await expect(page.getByText('Cheque for £75 <received> at our office.')).toBeVisible();
  const history = page.getByRole('region', { name: 'History' });
  await expect(history).toContainText(`Pat Partner acknowledged ${pick.traveller}`);
  await expect(history).toContainText('Pat Partner recorded £75.00 raised (charity confirmed)');
  expect(consoleErrors).toEqual([]);
});
