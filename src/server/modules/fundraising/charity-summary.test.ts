import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, charities, fundraisingEntries, users } from '../../../db/schema/index.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { createMailer } from '../../mail/transport.ts';
import { ukHour } from '../../common/sending-hours.ts';
import { CharitySummary } from './charity-summary.ts';

// The monthly summary to each charity's portal users, with the clock moved: one per user and
// month, listing the charity's fundraisers; none for a charity with none, none out of hours.

let t: TestApp;
let sink: Awaited<ReturnType<typeof smtpSink>>;
const today = ukToday();
beforeAll(async () => {
  sink = await smtpSink();
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${sink.port}` });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const at = (day: number, hour: number) => {
  const base = new Date(`${addDays(today, day)}T12:00:00Z`);
  return { now: () => base.getTime() + (hour - ukHour(base)) * 3_600_000 };
};
const run = (day: number, hour = 10) =>
  new CharitySummary(
    t.db,
    createMailer(t.config),
    { name: 'Tripdesk Test', address: [] },
    t.config.fundraisingDefaults,
    at(day, hour),
  ).run();
const to = (address: string) => sink.received.filter((m) => m.to.includes(address));

describe('the monthly fundraising summary', () => {
  it('goes once a month to each portal user of a charity with fundraisers, listing them', async () => {
    const [aid] = await t.db.insert(charities).values({ name: 'Summit Aid' }).returning();
    const [quiet] = await t.db.insert(charities).values({ name: 'Quiet Cause' }).returning();
    await t.db.insert(users).values([
      { firstName: 'Grace', lastName: 'Portal', email: 'grace.portal@example.test', userRoleId: 2, charityId: aid!.id },
      { firstName: 'Ravi', lastName: 'Portal', email: 'ravi.portal@example.test', userRoleId: 2, charityId: aid!.id },
      { firstName: 'Quinn', lastName: 'Quiet', email: 'quinn.quiet@example.test', userRoleId: 2, charityId: quiet!.id },
      { firstName: 'Ed', lastName: 'Enduser', email: 'ed.enduser@example.test', userRoleId: 3, charityId: aid!.id },
    ]);
    const trip = (
      await insertTrip(t.db, {
        name: 'Summit Trek',
        departureDate: addDays(today, 200),
        returnDate: addDays(today, 210),
      })
    ).id;
    const ann = (
      await insertBooking(t.db, trip, {
        fundingType: 'fundraise',
        status: 'confirmed',
        charityId: aid!.id,
        firstName: 'Ann',
        lastName: 'Raiser',
      })
    ).id;
    await insertBooking(t.db, trip, {
      fundingType: 'flexi',
      status: 'provisional',
      charityId: aid!.id,
      firstName: 'Ben',
      lastName: 'Flexi',
    });
    await t.db
      .insert(fundraisingEntries)
      .values({ bookingId: ann, amountPence: 60_000, entryDate: today, source: 'page_total' });

    expect(await run(0, 7)).toEqual({ sent: 0, failed: 0, skipped: 0 });
    expect(await run(0)).toEqual({ sent: 2, failed: 0, skipped: 0 });
    expect(await run(0, 15)).toEqual({ sent: 0, failed: 0, skipped: 0 });
    expect(to('quinn.quiet@example.test')).toEqual([]);
    expect(to('ed.enduser@example.test')).toEqual([]);
    const mail = to('grace.portal@example.test')[0]!.raw.replace(/=\r?\n/g, '');
    expect(mail).toMatch(/Subject: Summit Aid: your fundraisers in \w+ \d{4}/);
    expect(mail).toContain('Dear Grace,');
    expect(mail).toContain('Ann Raiser, Summit Trek');
    expect(mail).toContain('Ben Flexi, Summit Trek');
    // the same month again: nothing; the next month: again
    const [y, m] = today.split('-').map(Number) as [number, number];
    const firstOfNext = Math.round((Date.UTC(y, m, 1) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
    expect(await run(firstOfNext - 1)).toEqual({ sent: 0, failed: 0, skipped: 0 });
    expect(await run(firstOfNext)).toEqual({ sent: 2, failed: 0, skipped: 0 });
    expect(to('grace.portal@example.test')).toHaveLength(2);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.subjectType, 'charity'));
    expect(events.filter((e) => e.action === 'email.sent')).toHaveLength(4);
  });
});
