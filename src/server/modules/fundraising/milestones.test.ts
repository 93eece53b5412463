import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, charities, fundraisingEntries } from '../../../db/schema/index.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { createTestApp, type TestApp } from '../../../../tests/support/test-app.ts';
import { createMailer } from '../../mail/transport.ts';
import { ukHour } from '../../common/sending-hours.ts';
import { MilestoneChaser } from './milestones.ts';

// The fundraising milestone chaser with the clock moved day by day: one email in the week before
// each milestone not yet reached, none once it is, none with chasers off (a skip in the History),
// none out of sending hours, through a real SMTP exchange.

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
  new MilestoneChaser(
    t.db,
    createMailer(t.config),
    { name: 'Tripdesk Test', address: [] },
    t.config.fundraisingDefaults,
    at(day, hour),
  ).run();
const subjectsTo = (address: string) =>
  sink.received.filter((m) => m.to.includes(address)).map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1] ?? '');

describe('the fundraising milestone chaser', () => {
  it('emails in the week before each milestone not reached, once; none when reached, none with chasers off', async () => {
    // departs in 120 days: 50% by 16 weeks (day 8), 80% by 12 weeks (day 36), 100% by 4 weeks (day 92)
    const trip = (
      await insertTrip(t.db, {
        name: 'Milestone Trek',
        departureDate: addDays(today, 120),
        returnDate: addDays(today, 130),
      })
    ).id;
    const [charity] = await t.db.insert(charities).values({ name: 'Peak Aid' }).returning();
    const base = { status: 'confirmed', fundingType: 'fundraise', charityId: charity!.id } as const;
    const nothing = (await insertBooking(t.db, trip, { ...base, email: 'nia.nothing@example.test', firstName: 'Nia' }))
      .id;
    const half = (await insertBooking(t.db, trip, { ...base, email: 'hal.half@example.test' })).id;
    const quiet = (
      await insertBooking(t.db, trip, {
        ...base,
        email: 'qi.quiet@example.test',
        chasersOff: true,
        chasersOffReason: 'Asked us not to',
      })
    ).id;
    await insertBooking(t.db, trip, { status: 'confirmed', fundingType: 'self', email: 'sam.self@example.test' });
    await t.db
      .insert(fundraisingEntries)
      .values({ bookingId: half, amountPence: 130_000, entryDate: today, source: 'page_total' });

    expect(await run(1, 7)).toEqual({ sent: 0, failed: 0, skipped: 0 });
    const days: Record<string, number[]> = {};
    for (let day = 0; day <= 40; day++) {
      const before = sink.received.length;
      await run(day);
      await run(day, 15);
      for (const m of sink.received.slice(before)) for (const to of m.to) (days[to] ??= []).push(day);
    }
    expect(days['nia.nothing@example.test']).toEqual([1, 29]);
    expect(days['hal.half@example.test']).toEqual([29]);
    expect(days['qi.quiet@example.test']).toBeUndefined();
    expect(days['sam.self@example.test']).toBeUndefined();
    const [first, second] = subjectsTo('nia.nothing@example.test');
    expect(first).toBe(
      `Your fundraising for Milestone Trek: 50% by ${new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${addDays(today, 8)}T00:00:00Z`))}`,
    );
    expect(second).toMatch(/: 80% by /);
    const mail = sink.received.find((m) => m.to.includes('hal.half@example.test'))!.raw.replace(/=\r?\n/g, '');
    expect(mail).toContain('You have raised =C2=A31,300.00 of your =C2=A32,500.00 target');
    expect(mail).toContain('Peak Aid');

    const skipped = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, quiet), eq(auditEvents.action, 'chaser.skipped')));
    expect(skipped.map((e) => e.summary)).toEqual([
      'System did not send the fundraising milestone chaser to qi.quiet@example.test: automatic chasers are off for this booking (Asked us not to)',
      'System did not send the fundraising milestone chaser to qi.quiet@example.test: automatic chasers are off for this booking (Asked us not to)',
    ]);
    expect(
      await t.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.bookingId, nothing), eq(auditEvents.action, 'email.sent'))),
    ).toHaveLength(2);
  });
});
