import { expect, expectAccessible, signIn, test } from './fixtures.ts';

test.describe('the dashboard', () => {
  test('what needs attention, the charts with their tables, the season in the address, a card followed to its list', async ({
    page,
    consoleErrors,
  }) => {
    await signIn(page, 'admin');
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    const attention = page.getByRole('region', { name: 'Needs attention today' });
    for (const title of [
      'Overdue payments',
      'Refunds owed',
      'Requests from travellers',
      'Travellers not ready',
      'Pupils without consent',
      'Provisional for 14 days',
      'Fundraisers behind',
      'Failed jobs and emails',
    ]) {
      await expect(attention.getByRole('article', { name: title })).toBeVisible();
    }
    // every chart drawn as an SVG
    const charts = page.getByTestId('chart');
    await expect(charts).toHaveCount(5);
    for (let i = 0; i < 5; i++) await expect(charts.nth(i).locator('svg.recharts-surface').first()).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/dashboard.png', fullPage: true });

    // the numbers behind a chart, as a table
    const byStatus = page.getByRole('region', { name: 'Bookings by status and funding' });
    await byStatus.getByRole('button', { name: 'Show as table' }).click();
    const table = byStatus.getByRole('table', { name: 'Bookings by status and funding' });
    await expect(table.getByRole('row')).toHaveCount(4);
    const api = (await (await page.request.get('/api/dashboard')).json()) as {
      bookings_by_status: Array<{ status: string; self: number }>;
      attention: Array<{ key: string; count: number }>;
    };
    await expect(
      table
        .getByRole('row', { name: /^Confirmed/ })
        .getByRole('cell')
        .nth(1),
    ).toHaveText(String(api.bookings_by_status.find((s) => s.status === 'confirmed')!.self));
    await expectAccessible(page);

    // the season, kept in the address
    const from = page.getByLabel('Departing from');
    await from.fill('2090-01-01');
    await expect(page).toHaveURL(/from=2090-01-01/);
    await page.getByLabel('Departing to').fill('2090-12-31');
    await expect(page).toHaveURL(/to=2090-12-31/);
    await expect(page.getByText('Trips departing 01/01/2090 to 31/12/2090')).toBeVisible();
    await expect(attention.getByRole('article', { name: 'Provisional for 14 days' })).toContainText('Nothing to do.');
    await page.reload();
    await expect(page.getByLabel('Departing from')).toHaveValue('2090-01-01');
    await page.getByRole('button', { name: 'Next 12 months' }).click();
    await expect(page).not.toHaveURL(/from=/);

    // a card followed to its list, filtered to those rows
    const provisional = api.attention.find((a) => a.key === 'provisional')!;
    expect(provisional.count).toBeGreaterThan(0);
    await attention.getByRole('link', { name: /Show them in Bookings: provisional for 14 days/ }).click();
    await expect(page).toHaveURL(/\/bookings\?status=provisional/);
    await expect(page.getByRole('status', { name: 'Further filters' })).toContainText('booked before');
    await expect(page.getByText(new RegExp(`of ${provisional.count} (entries|bookings|records)`))).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('the reports', () => {
  test('a report previewed with its totals, its days in the address, downloaded and recorded', async ({
    page,
    consoleErrors,
  }) => {
    await signIn(page, 'admin', '/reports');
    await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
    const section = page.getByRole('region', { name: 'Payments received' });
    await expect(section.getByRole('table')).toBeVisible();
    await page.getByLabel('From').fill('2020-01-01');
    await page.getByLabel('To').fill('2030-12-31');
    await expect(page).toHaveURL(/from=2020-01-01/);
    await expect(page).toHaveURL(/to=2030-12-31/);
    await expect(section.getByRole('status')).toContainText('Payments and refunds dated 01/01/2020 to 31/12/2030');
    const api = (await (await page.request.get('/api/reports/payments?from=2020-01-01&to=2030-12-31')).json()) as {
      totals: { net: number };
    };
    const net = `£${api.totals.net.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    await expect(section.getByRole('row', { name: /^Total/ })).toContainText(net);
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/reports.png', fullPage: true });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download .xlsx' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('payments-2020-01-01-to-2030-12-31.xlsx');

    await page.getByLabel('Report', { exact: true }).selectOption({ label: 'Aged debt' });
    await expect(page.getByRole('region', { name: 'Aged debt' })).toBeVisible();
    await expect(page.getByLabel('Aged on')).toBeVisible();
    await page.goto('/audit');
    await expect(page.getByText(/downloaded the payments received report/).first()).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});
