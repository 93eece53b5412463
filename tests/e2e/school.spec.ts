import { addDays, ukToday } from '../../src/contract/dates.ts';
import { expect, expectAccessible, freshBooking, freshTrip, signIn, test, travellerOnPhone } from './fixtures.ts';

const control = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`;

test.describe('school trips', () => {
  test('a parent gives consent on a phone, the board turns green for the pupil, and a withdrawal turns it red', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const tripId = await freshTrip(page, `Year 8 Snowdonia ${Date.now()}`, addDays(ukToday(), 90));
    const id = await freshBooking(page, tripId, 'Pupil');
    // the trip's own wording, set on its page
    await page.goto(`/trips/${tripId}/edit`);
    await page.getByLabel('Parent’s consent').fill('I agree to my child joining the Snowdonia trip.');
    await page.getByRole('button', { name: 'Save Trip' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Trip details updated' })).toBeVisible();

    const { traveller, phone } = await travellerOnPhone(page, browser, id);
    try {
      const section = traveller.getByRole('region', { name: 'Parent’s consent' });
      await expect(section.getByLabel('What you agree to')).toHaveText(
        'I agree to my child joining the Snowdonia trip.',
      );
      await expect(traveller.getByText('A parent’s consent')).toBeVisible();
      await section.getByRole('button', { name: 'I Give My Consent' }).click();
      await expect(section.getByText('Type your full name to give your consent.')).toBeVisible();
      await section.screenshot({ path: 'test-results/screens/consent-asked-phone.png' });
      await section.getByLabel('Your full name').fill('Mo Parent');
      await section.getByRole('button', { name: 'I Give My Consent' }).click();
      await expect(section.getByRole('status')).toHaveText('Thank you: your consent is recorded.');
      await expect(section).toContainText('Consent given by Mo Parent');
      await expect(traveller.getByText('A parent’s consent')).toHaveCount(0);
      expect(await traveller.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expectAccessible(traveller);
      await section.screenshot({ path: 'test-results/screens/consent-given-phone.png' });

      await page.goto(`/trips/${tripId}/readiness`);
      const consent = page.getByRole('img', { name: /^Consent: Ready\. Consent given by Mo Parent/ });
      await expect(consent).toBeVisible();

      await section.getByRole('button', { name: 'Withdraw Consent' }).click();
      await section.screenshot({ path: 'test-results/screens/consent-withdraw-phone.png' });
      await section.getByRole('button', { name: 'Yes, Withdraw My Consent' }).click();
      await expect(section.getByRole('status')).toHaveText('Your consent is withdrawn, and the office has been told.');
      await expect(section.getByLabel('Your full name')).toBeVisible();
      await page.reload();
      await expect(
        page.getByRole('img', { name: /^Consent: Problem\. The parent’s consent was withdrawn/ }),
      ).toBeVisible();
      await page.screenshot({ path: 'test-results/screens/consent-board.png', fullPage: true });
      await page.goto(`/bookings/${id}`);
      await expect(page.getByRole('table', { name: 'Readiness checks' })).toContainText('Consent');
    } finally {
      await phone.close();
    }
  });

  test('the office adds a school group with its leader and changes who pays (390 px)', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, 'admin', '/bookings');
    const tripId = await freshTrip(page, `Year 10 Berlin ${Date.now()}`, addDays(ukToday(), 150));
    await page.goto(`/trips/${tripId}/edit`);
    const panel = page.getByRole('region', { name: 'School groups' });
    await expect(panel).toContainText('This trip has no groups yet');
    const form = panel.getByRole('form', { name: 'Add a group' });
    await form.getByRole('button', { name: 'Add Group' }).click();
    await expect(form.getByText('The school field is required.')).toBeVisible();
    await form
      .getByLabel(/^School/)
      .first()
      .fill('Hillside Academy');
    await form.getByLabel('Group leader').fill('Lee Leader');
    await form.getByLabel('Leader’s email').fill(`lee.${Date.now()}@hillside.test`);
    await form.getByLabel('Places').fill('30');
    await form.getByRole('button', { name: 'Add Group' }).click();
    await expect(panel.getByRole('cell', { name: /^Hillside Academy/ })).toBeVisible();
    await expect(panel.getByRole('cell', { name: '0 of 30' })).toBeVisible();

    await panel.getByRole('button', { name: 'Edit the group of Hillside Academy' }).click();
    const change = panel.getByRole('form', { name: 'Change the group' });
    await change.getByLabel('Who pays').selectOption('split');
    await change.getByRole('button', { name: 'Save Group' }).click();
    await expect(change.getByText('The school’s share per pupil field is required.')).toBeVisible();
    await change.getByLabel('School pays per pupil').fill('150');
    await change.getByRole('button', { name: 'Save Group' }).click();
    await expect(panel.getByRole('cell', { name: 'Split: the school £150.00 per pupil' })).toBeVisible();
    // the panel fits the phone (the back office's other trip panels are wider)
    expect((await panel.boundingBox())!.width).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await panel.screenshot({ path: 'test-results/screens/school-groups-phone.png' });
  });

  test('a group leader signs in on a phone, imports a list, and sees a parent’s consent come in', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const tripId = await freshTrip(page, `Year 11 Rome ${Date.now()}`, addDays(ukToday(), 120));
    const email = `leader.${Date.now()}@school.test`;
    await page.evaluate(
      async ([tripId, email]) => {
        const res = await fetch(`/api/trips/${tripId}/groups`, {
          method: 'POST',
          headers: {
            Accept: 'application/json',
            'Content-Type': 'application/json',
            'X-Requested-With': 'XMLHttpRequest',
            'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
          },
          body: JSON.stringify({
            school: 'St Anne’s School',
            leader_name: 'Lou Leader',
            leader_email: email,
            places: 24,
            payer: 'parents',
          }),
        });
        if (res.status !== 201) throw new Error(`POST groups: ${res.status}`);
      },
      [tripId, email] as const,
    );
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });
    try {
      const leader = await phone.newPage();
      await leader.goto('/my/sign-in');
      await leader.getByLabel('Your email address').fill(email);
      await leader.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await expect(leader.getByRole('status')).toHaveText(/If we know that address, we have sent it a link/);
      // the link is emailed just after the answer: wait for it
      let mail = '';
      await expect
        .poll(async () => {
          mail = (await (await page.request.get(`${control}/mail?to=${encodeURIComponent(email)}`)).text()).replace(
            /=\r?\n/g,
            '',
          );
          return mail.includes('/my/sign-in/');
        })
        .toBe(true);
      const link = /https?:\/\/\S+?(\/my\/sign-in\/\S+?)(?:\s|$)/.exec(mail)![1]!;
      await leader.goto(link);
      await leader.waitForURL('**/my');
      const groups = leader.getByRole('region', { name: 'Groups you lead' });
      await expect(groups).toContainText('St Anne’s School');
      await groups.getByRole('link', { name: 'Open this group' }).click();
      await leader.waitForURL('**/my/groups/*');
      await expect(leader.getByRole('heading', { level: 1, name: 'St Anne’s School' })).toBeVisible();
      await expect(leader.getByText('No pupils have joined the group yet.')).toBeVisible();
      await expect(leader.getByRole('region', { name: 'Your group at a glance' })).toContainText('0 of 24');
      expect(await leader.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expectAccessible(leader);
      await leader.screenshot({ path: 'test-results/screens/leader-group-phone.png', fullPage: true });

      // a list with a bad row: each error named, nothing saved
      const stamp = Date.now();
      const parent = `pat.${stamp}@home.test`;
      const heading = 'First name,Last name,Date of birth,Parent’s name,Parent’s email';
      const importer = leader.getByRole('region', { name: 'Import a list' });
      await leader.locator('input[type=file]').setInputFiles({
        name: 'pupils.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `${heading}\nPip,Parker,31/02/2012,Pat Parker,${parent}\nQuinn,Quay,2012-05-06,Kim Quay,kim\n`,
        ),
      });
      await importer.getByRole('button', { name: 'Import List' }).click();
      await expect(importer.getByRole('alert')).toContainText('2 rows of the list have errors, so no pupil was added.');
      await expect(importer.getByRole('alert')).toContainText(
        'Row 2, Date of birth: The date of birth must be a date, as 31/12/2012 or 2012-12-31.',
      );
      await importer.screenshot({ path: 'test-results/screens/leader-import-refused-phone.png' });
      await expect(leader.getByRole('region', { name: 'Your group at a glance' })).toContainText('0 of 24');
      await leader.locator('input[type=file]').setInputFiles({
        name: 'pupils.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `${heading}\nPip,Parker,28/02/2012,Pat Parker,${parent}\nQuinn,Quay,2012-05-06,Kim Quay,kim.${stamp}@home.test\n`,
        ),
      });
      await importer.getByRole('button', { name: 'Import List' }).click();
      await expect(importer.getByRole('status')).toHaveText(
        '2 pupils are in the group. We have emailed each parent an invitation to their child’s page.',
      );
      await expect(leader.getByRole('region', { name: 'Your group at a glance' })).toContainText('2 of 24');
      const pip = leader.getByRole('article', { name: 'Pip Parker' });
      await expect(pip).toContainText('No consent yet');

      // Pip's parent opens the invitation on their phone and consents
      let invitation = '';
      await expect
        .poll(async () => {
          invitation = (
            await (await page.request.get(`${control}/mail?to=${encodeURIComponent(parent)}`)).text()
          ).replace(/=\r?\n/g, '');
          return invitation.includes('/my/sign-in/');
        })
        .toBe(true);
      expect(invitation).toContain('has added Pip Parker to the school');
      const parentPhone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });
      try {
        const parentPage = await parentPhone.newPage();
        await parentPage.goto(/https?:\/\/\S+?(\/my\/sign-in\/\S+?)(?:\s|$)/.exec(invitation)![1]!);
        await parentPage.waitForURL('**/my/bookings/*');
        const consent = parentPage.getByRole('region', { name: 'Parent’s consent' });
        await consent.getByLabel('Your full name').fill('Pat Parker');
        await consent.getByRole('button', { name: 'I Give My Consent' }).click();
        await expect(consent.getByRole('status')).toHaveText('Thank you: your consent is recorded.');
      } finally {
        await parentPhone.close();
      }
      await leader.reload();
      await expect(leader.getByRole('article', { name: 'Pip Parker' })).toContainText('Consent given');
      await expect(leader.getByRole('article', { name: 'Quinn Quay' })).toContainText('No consent yet');
      await expect(leader.getByRole('region', { name: 'Your group at a glance' })).toContainText('Without consent1');
      expect(await leader.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expectAccessible(leader);
      await leader.screenshot({ path: 'test-results/screens/leader-group-pupils-phone.png', fullPage: true });

      // the office's screens are not theirs
      await leader.goto('/trips');
      await expect(leader).toHaveURL(/\/my|\/login|\/trips/);
      expect((await leader.request.get(`/api/trips/${tripId}/groups`)).status()).toBe(403);
    } finally {
      await phone.close();
    }
  });
  test('a school pays its group invoice by card from the leader’s phone, and the office sees it split to the pupils', async ({
    page,
    browser,
  }) => {
    await signIn(page, 'admin', '/bookings');
    const email = `head.${Date.now()}@school.test`;
    const departure = addDays(ukToday(), 150);
    const tripId = await freshTrip(page, `Year 8 Madrid ${Date.now()}`, departure, { deposit: '100', cost: '950' });
    const groupId = await page.evaluate(
      async ([email, tripId]) => {
        const res = await fetch(`/api/trips/${tripId}/groups`, {
          method: 'POST',
          headers: {
            Accept: 'application/json',
            'Content-Type': 'application/json',
            'X-Requested-With': 'XMLHttpRequest',
            'X-CSRF-TOKEN': document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content,
          },
          body: JSON.stringify({
            school: 'Hillside Academy',
            leader_name: 'Hal Head',
            leader_email: email,
            places: 30,
            payer: 'split',
            school_share: '300',
          }),
        });
        if (res.status !== 201) throw new Error(`POST groups: ${res.status}`);
        return ((await res.json()) as { id: number }).id;
      },
      [email, tripId] as const,
    );
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', bypassCSP: true });
    try {
      const leader = await phone.newPage();
      await leader.goto('/my/sign-in');
      await leader.getByLabel('Your email address').fill(email);
      await leader.getByRole('button', { name: 'Email me a sign-in link' }).click();
      let mail = '';
      await expect
        .poll(async () => {
          mail = (await (await page.request.get(`${control}/mail?to=${encodeURIComponent(email)}`)).text()).replace(
            /=\r?\n/g,
            '',
          );
          return mail.includes('/my/sign-in/');
        })
        .toBe(true);
      await leader.goto(/https?:\/\/\S+?(\/my\/sign-in\/\S+?)(?:\s|$)/.exec(mail)![1]!);
      await leader.waitForURL('**/my');
      await leader.goto(`/my/groups/${groupId}`);
      // two pupils, each adding a £300 line to the school's invoice
      const add = leader.getByRole('region', { name: 'Add a pupil' });
      for (const [first, last] of [
        ['Pip', 'Parker'],
        ['Quinn', 'Quay'],
      ]) {
        await add.getByLabel('First name').fill(first!);
        await add.getByLabel('Last name').fill(last!);
        await add.getByLabel('Date of birth').fill('2012-05-03');
        await add.getByLabel('Parent’s name').fill(`Pat ${last}`);
        await add.getByLabel('Parent’s email').fill(`${first!.toLowerCase()}.${Date.now()}@home.test`);
        await add.getByRole('button', { name: 'Add Pupil' }).click();
        await expect(add.getByRole('status')).toContainText(`${first} ${last} is in the group.`);
      }
      const invoice = leader.getByRole('region', { name: 'The school’s invoice' });
      await expect(invoice).toContainText('2 pupils');
      await expect(invoice).toContainText('£600.00');
      expect(await leader.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expectAccessible(leader);
      await invoice.screenshot({ path: 'test-results/screens/leader-school-invoice-phone.png' });
      await invoice.getByRole('link', { name: 'Pay £600.00 by Card' }).click();
      await expect(leader.getByRole('heading', { level: 1 })).toHaveText(/^Pay invoice GRP-\d+$/);
      await expect(leader.getByText('Hillside Academy’s share for its pupils on')).toBeVisible();
      await leader.getByRole('button', { name: 'Pay £600.00 by card' }).click();
      await expect(leader.getByRole('heading', { name: 'Stand-in checkout' })).toBeVisible();
      await leader.getByRole('button', { name: /^Pay £/ }).click();
      await expect(leader.getByRole('heading', { level: 1 })).toHaveText('Payment received');
      await leader.goto(`/my/groups/${groupId}`);
      await expect(leader.getByRole('region', { name: 'The school’s invoice' })).toContainText('Paid');
      await expect(leader.getByRole('region', { name: 'The school’s invoice' })).not.toContainText('by Card');
    } finally {
      await phone.close();
    }
    // the office: the group invoice paid, a line per pupil
    await page.goto(`/trips/${tripId}/edit`);
    const groups = page.getByRole('region', { name: 'School groups' });
    await groups.getByRole('button', { name: 'The group invoice of Hillside Academy' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Received£600.00');
    await expect(dialog.getByRole('table', { name: 'The school’s share for each pupil' }).getByRole('row')).toHaveCount(
      3,
    );
    await expectAccessible(page);
  });
});
