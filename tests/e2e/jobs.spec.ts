import { expect, expectAccessible, signIn, test } from './fixtures.ts';

// the e2e server runs the queue without Tripdesk's workers, and one queue of its own whose first job fails
test.describe('jobs', () => {
  test('Administrators see each queue with its counts and schedule, a failed job with its error, and Retry runs it again', async ({
    page,
    consoleErrors,
  }) => {
    await signIn(page, 'admin', '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' }).click();
    await expect(page).toHaveURL(/\/admin\/jobs$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();

    const queues = page.getByRole('region', { name: 'Queues' });
    await expect(queues.getByRole('row', { name: /^housekeeping/ })).toContainText('hourly at :17');
    await expect(queues.getByRole('row', { name: /^money-digest/ })).toContainText('daily at 18:00');
    await expect(queues.getByRole('row', { name: /^money / })).toContainText('hourly at :05');
    await expect(queues.getByRole('row', { name: /^schedule-backfill/ })).toContainText('When sent');

    const failed = page.getByRole('region', { name: 'Failed jobs' });
    const row = failed.getByRole('row', { name: /^e2e-flaky/ });
    // the job fails a moment after the server starts
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(row).toContainText('The mail server refused the connection', { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(
      queues
        .getByRole('row', { name: /^e2e-flaky/ })
        .getByRole('cell')
        .nth(4),
    ).toHaveText('1');
    await expectAccessible(page);
    await page.screenshot({ path: 'test-results/screens/jobs.png', fullPage: true });

    // Retry, from the keyboard
    await row.getByRole('button', { name: /^Retry the e2e-flaky job that failed at/ }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'The job will run again shortly.' })).toBeVisible();
    // it runs again, and this time it does its work
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(failed).toContainText('No job has failed.', { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(
      queues
        .getByRole('row', { name: /^e2e-flaky/ })
        .getByRole('cell')
        .nth(4),
    ).toHaveText('0');
    expect(consoleErrors).toEqual([]);
  });

  test('the jobs page is not open to a Charity account', async ({ page }) => {
    await signIn(page, 'charity', '/admin/jobs');
    await expect(page.getByRole('heading', { name: 'This back office is for staff' })).toBeVisible();
  });
});
