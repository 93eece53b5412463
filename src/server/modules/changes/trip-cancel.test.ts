import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimumDeadline, minimumNoticeDays } from '../../../contract/change-constants.ts';
import { addDays, toDdMmYyyy, ukToday } from '../../../contract/dates.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, bookings, invoices, refundsOwed, trips } from '../../../db/schema/index.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

let sink: Awaited<ReturnType<typeof smtpSink>>;
let t: TestApp;
let admin: TestClient;
const today = () => ukToday(new Date());

beforeAll(async () => {
  sink = await smtpSink();
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${sink.port}` });
  admin = await t.signedIn(1);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

async function pay(bookingId: number, invoiceId: number, amount: number) {
  const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, invoiceId));
  const res = await admin.post('/api/transactions', {
    booking_id: bookingId,
    invoice_id: invoiceId,
    invoice_type: inv!.type,
    amount,
    type: 'payment',
    processor: 'BACS',
    date: today(),
  });
  expect(res.statusCode, res.body).toBe(201);
}

describe('the reg 13 deadline', () => {
  it('is 20 days before a trip of more than 6 days, 7 before one of 2 to 6, 2 before a shorter one', () => {
    expect(minimumNoticeDays('2027-05-01', '2027-05-07')).toBe(20); // 7 days
    expect(minimumNoticeDays('2027-05-01', '2027-05-06')).toBe(7); // 6 days
    expect(minimumNoticeDays('2027-05-01', '2027-05-02')).toBe(7); // 2 days
    expect(minimumNoticeDays('2027-05-01', '2027-05-01')).toBe(2); // a day
    expect(minimumDeadline('2027-05-01', '2027-05-10')).toBe('2027-04-11');
    expect(minimumDeadline('2027-03-02', '2027-03-02')).toBe('2027-02-28');
  });

  it('comes with the trip, its minimum set and refused above its capacity', async () => {
    // ten days long, 200 days away: the deadline is 20 days before it
    const departure = addDays(today(), 200);
    const trip = await insertTrip(t.db, { departureDate: departure, returnDate: addDays(departure, 9) });
    const base = {
      name: trip.name,
      country_id: 834,
      departure: toDdMmYyyy(departure),
      return: toDdMmYyyy(addDays(departure, 9)),
      type: 'charity',
      level: 2,
      status: 'open',
      deposit: 250,
      cost: 1895,
      require_passport: true,
      funding: 'both',
    };
    const set = await admin.patch(`/api/trips/${trip.id}`, { ...base, capacity: 30, minimum: '12' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ minimum: 12, minimum_deadline: addDays(departure, -20) });
    const over = await admin.patch(`/api/trips/${trip.id}`, { ...base, capacity: 10, minimum: 12 });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.minimum).toEqual(['The minimum numbers must not be more than the capacity.']);
    const cleared = await admin.patch(`/api/trips/${trip.id}`, { ...base, minimum: '' });
    expect(cleared.json()).toMatchObject({ minimum: null, minimum_deadline: null, capacity: 30 });
  });
});

describe('the operator cancelling a departure', () => {
  it('cancels 40 bookings in one transaction with no fee, owes back all that was paid, cancels the trip and emails each traveller', async () => {
    const departure = addDays(today(), 30);
    const trip = await insertTrip(t.db, { departureDate: departure, returnDate: addDays(departure, 9), minimum: 50 });
    const made: Array<{ id: number }> = [];
    for (let i = 0; i < 40; i += 1)
      made.push(await insertBooking(t.db, trip.id, { email: `called.off${i}@example.test` }));
    const gone = await insertBooking(t.db, trip.id, { status: 'cancelled' });
    // two paid their deposits; one has an unpaid invoice
    const paidIds: number[] = [];
    for (const b of made.slice(0, 3)) {
      const res = await admin.post(`/api/bookings/${b.id}/invoices`, { invoice_type: 'deposit' });
      expect(res.statusCode, res.body).toBe(201);
      paidIds.push(res.json().id);
    }
    await pay(made[0]!.id, paidIds[0]!, 250);
    await pay(made[1]!.id, paidIds[1]!, 250);

    const pre = await admin.get(`/api/trips/${trip.id}/cancel/preview`);
    expect(pre.statusCode, pre.body).toBe(200);
    const preview = pre.json();
    expect(preview).toMatchObject({
      cancellable: true,
      booked: 40,
      minimum: 50,
      below_minimum: true,
      minimum_deadline: addDays(departure, -20),
      refund_owed: 500,
      refund_due_on: addDays(today(), 14),
    });
    expect(preview.bookings).toHaveLength(40);
    expect(preview.bookings.map((b: { booking_id: number }) => b.booking_id)).not.toContain(gone.id);
    expect(preview.bookings[2]).toMatchObject({ paid: 0, refund_owed: 0, invoices_deleted: 1 });

    const missing = await admin.post(`/api/trips/${trip.id}/cancel`, { notify: false });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.reason).toEqual(['Give the reason for cancelling the departure.']);

    const res = await admin.post(`/api/trips/${trip.id}/cancel`, { reason: 'Too few travellers', notify: true });
    expect(res.statusCode, res.body).toBe(200);
    const done = res.json();
    expect(done.message).toBe(`${trip.name} is cancelled, with its 40 bookings. Every traveller has been emailed.`);
    expect(done.emailed).toBe(40);
    const { message, emailed, cancellable, refused, ...figures } = done;
    expect(figures).toEqual(Object.fromEntries(Object.entries(preview).filter(([k]) => k in figures)));
    expect([cancellable, refused, message.length > 0, emailed]).toEqual([false, null, true, 40]);

    const [after] = await t.db.select().from(trips).where(eq(trips.id, trip.id));
    expect(after!.status).toBe('cancelled');
    const states = await t.db
      .select({ status: bookings.status })
      .from(bookings)
      .where(
        inArray(
          bookings.id,
          made.map((b) => b.id),
        ),
      );
    expect(new Set(states.map((s) => s.status))).toEqual(new Set(['cancelled']));
    // no fee: no cancellation invoice; the unpaid invoice is gone; all paid is owed back
    const left = await t.db
      .select({ type: invoices.type })
      .from(invoices)
      .where(
        inArray(
          invoices.bookingId,
          made.map((b) => b.id),
        ),
      );
    expect(left.map((i) => i.type).sort()).toEqual(['deposit', 'deposit']);
    const owed = await t.db
      .select({ amount: refundsOwed.amountPence })
      .from(refundsOwed)
      .where(
        inArray(
          refundsOwed.bookingId,
          made.map((b) => b.id),
        ),
      );
    expect(owed.map((o) => o.amount)).toEqual([25_000, 25_000]);
    const events = await t.db
      .select({ action: auditEvents.action, details: auditEvents.details })
      .from(auditEvents)
      .where(eq(auditEvents.tripId, trip.id));
    expect(events.filter((e) => e.action === 'booking.cancelled')).toHaveLength(40);
    expect(events.find((e) => e.action === 'trip.cancelled')!.details).toMatchObject({
      reason: 'Too few travellers',
      refund_owed: 500,
    });
    expect(events.filter((e) => e.action === 'booking.cancelled')[0]!.details).toMatchObject({
      fee_waived: true,
      fee: 0,
    });
    // sent before the reply, each to its own traveller
    for (const i of [0, 39]) {
      const mail = sink.received.find((m) => m.to.includes(`called.off${i}@example.test`));
      expect(mail?.raw).toMatch(/cancel/i);
    }

    // once only
    const again = await admin.post(`/api/trips/${trip.id}/cancel`, { reason: 'Again', notify: false });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This departure is already cancelled.');
  });

  it('changes nothing when one booking cannot be cancelled: all or none', async () => {
    const trip = await insertTrip(t.db, {});
    const a = await insertBooking(t.db, trip.id);
    const b = await insertBooking(t.db, trip.id);
    // the second booking refuses to be cancelled: the first, cancelled in the same transaction, must stay as it was
    await t.db.execute(
      `alter table bookings add constraint td_not_cancelled check (id <> ${b.id} or status <> 'cancelled') not valid`,
    );
    try {
      const res = await admin.post(`/api/trips/${trip.id}/cancel`, { reason: 'Weather', notify: false });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.db.execute('alter table bookings drop constraint td_not_cancelled');
    }
    const rows = await t.db
      .select({ status: bookings.status })
      .from(bookings)
      .where(inArray(bookings.id, [a.id, b.id]));
    expect(rows.map((r) => r.status)).not.toContain('cancelled');
    const [still] = await t.db.select().from(trips).where(eq(trips.id, trip.id));
    expect(still!.status).toBe('open');
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tripId, trip.id), eq(auditEvents.action, 'booking.cancelled')));
    expect(events).toEqual([]);
  });
});
