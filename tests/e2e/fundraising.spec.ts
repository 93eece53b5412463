import { expect, expectAccessible, signIn, test } from './fixtures.ts';

test.describe('fundraising', () => {
  test("a fundraiser's amounts raised recorded and struck out on the booking page; the trip's minimum and milestones", async ({
    page,
    consoleErrors,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const list = (await (await page.request.get('/api/bookings?per_page=100')).json()) as {
      data: Array<{ id: number; funding_type: string; status: string; trip_id?: number }>;
    };
    const booking = list.data.find((b) => b.funding_type === 'fundraise' && b.status !== 'cancelled');
    expect(booking, 'a demo booking that fundraises').toBeTruthy();
    await page.goto(`/bookings/${booking!.id}`);

    const panel = page.getByRole('region', { name: 'Fundraising' });
    await expect(panel.getByTestId('fundraising-standing')).toBeVisible();
    const raisedBefore = (
      await panel
        .getByText(/^£[\d,.]+ of £[\d,.]+$/)
        .first()
        .innerText()
    ).split(' of ')[0]!;

    await panel.getByRole('button', { name: 'Record amount raised…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record amount raised' });
    await dialog.getByRole('button', { name: 'Record Amount' }).click();
    await expect(dialog.getByText('The amount field is required.')).toBeVisible();
    await dialog.getByLabel('Amount (£)').fill('125.50');
    await dialog.getByLabel('Source').selectOption('offline');
    await dialog.getByLabel('Note').fill('Bake sale');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Record Amount' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(panel.getByRole('status')).toContainText('Recorded.');
    const row = panel.getByRole('row').filter({ hasText: 'Bake sale' });
    await expect(row).toContainText('£125.50');
    await expect(row).toContainText('Offline');
    await panel.screenshot({ path: 'test-results/screens/booking-fundraising.png' });

    await row.getByRole('button', { name: /^Strike out £125\.50/ }).click();
    const strike = page.getByRole('dialog', { name: 'Strike out an amount raised' });
    await strike.getByLabel('Reason').fill('Recorded on the wrong traveller');
    await strike.getByRole('button', { name: 'Strike Out' }).click();
    await expect(strike).toHaveCount(0);
    await expect(row).toContainText('Struck out by Tripdesk Administrator');
    await expect(panel.getByText(new RegExp(`^${raisedBefore.replace(/[£.,]/g, '\\$&')} of £`)).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'History' })).toContainText('struck out £125.50 raised');
    expect(consoleErrors).toEqual([]);
  });

  test("the trip's fundraising: the office's defaults until saved, refused milestones explained", async ({
    page,
    consoleErrors,
  }) => {
    await signIn(page, 'admin', '/trips');
    // a trip staff can still change (not departed, not archived)
    const trips = (await (await page.request.get('/api/trips?per_page=100')).json()) as { data: Array<{ id: number }> };
    let editable: number | undefined;
    for (const t of trips.data) {
      if (((await (await page.request.get(`/api/trips/${t.id}`)).json()) as { editable: boolean }).editable) {
        editable = t.id;
        break;
      }
    }
    expect(editable, 'a demo trip that can be changed').toBeTruthy();
    await page.goto(`/trips/${editable}/edit`);
    const panel = page.getByRole('region', { name: 'Fundraising' });
    const flexi = panel.getByRole('group', { name: 'Flexi bookings' });
    await flexi.getByLabel('Minimum sponsorship (£)').fill('1500');
    // a milestone nearer departure asking for less is refused, under the milestones
    await flexi.getByRole('button', { name: 'Add a milestone' }).click();
    await flexi.getByLabel('Flexi milestone 4: percent of the target').fill('10');
    await flexi.getByLabel('Flexi milestone 4: weeks before departure').fill('1');
    await panel.getByRole('button', { name: 'Save Fundraising' }).click();
    await expect(flexi.getByRole('alert')).toHaveText(
      'Each milestone nearer departure must ask for a higher percentage than the one before it.',
    );
    await flexi.getByRole('button', { name: 'Remove Flexi milestone 4' }).click();
    await panel.getByRole('button', { name: 'Save Fundraising' }).click();
    await expect(panel.getByRole('status')).toHaveText('The fundraising has been saved.');
    await expect(flexi.getByText('Office defaults')).toHaveCount(0);
    await expectAccessible(page);
    await panel.screenshot({ path: 'test-results/screens/trip-fundraising.png' });
    expect(consoleErrors).toEqual([]);
  });
});

test("a charity's fundraisers on its page: totals, states, a filter, its portal users", async ({
  page,
  consoleErrors,
}) => {
  await signIn(page, 'admin', '/charities');
  const charities = (await (await page.request.get('/api/charities')).json()) as Array<{ id: number; name: string }>;
  let found: { id: number; n: number } | undefined;
  for (const c of charities) {
    const n = (
      (await (await page.request.get(`/api/charities/${c.id}/fundraisers`)).json()) as {
        totals: { fundraisers: number };
      }
    ).totals.fundraisers;
    if (n > 0) {
      found = { id: c.id, n };
      break;
    }
  }
  expect(found, 'a demo charity with fundraisers').toBeTruthy();
  await page.goto(`/charities/${found!.id}/edit`);
  const panel = page.getByRole('region', { name: 'Fundraisers' });
  await expect(panel.getByRole('region', { name: 'Totals' })).toContainText(`Fundraisers${found!.n}`);
  await expect(panel.locator('tbody tr')).toHaveCount(found!.n);
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/screens/charity-fundraisers.png', fullPage: true });
  await panel.getByLabel('State').selectOption('met');
  await expect(panel.locator('tbody tr').first()).toContainText(/Target met|No fundraiser is in this state\./);
  expect(consoleErrors).toEqual([]);
});
