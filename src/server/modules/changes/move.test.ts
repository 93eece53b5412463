import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertAddon, insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, bookingAddons, bookings, invoices, refundsOwed, scheduleRows } from '../../../db/schema/index.ts';
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

let n = 0;
/** A trip departing this many days from today: £1,895, deposit £250 unless told. */
async function trip(daysAway: number, over: Parameters<typeof insertTrip>[1] = {}) {
  n += 1;
  const departure = addDays(today(), daysAway);
  return insertTrip(t.db, {
    name: `Move Trek ${n}`,
    departureDate: departure,
    returnDate: addDays(departure, 7),
    ...over,
  });
}

async function booked(tripId: number) {
  n += 1;
  const res = await admin.post('/api/bookings', {
    trip_id: tripId,
    title: 'Mr',
    first_name: 'Dev',
    preferred_name: 'Dev',
    last_name: `Ferrer${n}`,
    email: `dev.ferrer${n}@example.test`,
    as_on_passport: true,
    terms_accepted: true,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; ref: string };
}

async function invoice(bookingId: number, type: 'deposit' | 'balance'): Promise<number> {
  const res = await admin.post(`/api/bookings/${bookingId}/invoices`, { invoice_type: type });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

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

const preview = async (id: number, tripId: number, waived = false) => {
  const res = await admin.get(`/api/bookings/${id}/move/preview?trip_id=${tripId}${waived ? '&fee_waived=1' : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const schedule = (bookingId: number) =>
  t.db
    .select({
      position: scheduleRows.position,
      label: scheduleRows.label,
      amount: scheduleRows.amountPence,
      invoiced: scheduleRows.invoiceId,
      type: scheduleRows.invoiceType,
    })
    .from(scheduleRows)
    .where(eq(scheduleRows.bookingId, bookingId))
    .orderBy(asc(scheduleRows.position));

describe('moving a booking to another departure', () => {
  it('to a dearer departure: payments follow, the schedule is made again less what was billed, the move fee is invoiced, an add-on the new trip lacks is dropped', async () => {
    const from = await trip(120);
    const to = await trip(300, { costPence: 219_500 });
    const room = await insertAddon(t.db, from.id, 'Single room supplement', 25_000);
    const bag = await insertAddon(t.db, from.id, 'Kit bag', 4_000);
    const newRoom = await insertAddon(t.db, to.id, 'single room supplement', 30_000);
    const booking = await booked(from.id);
    await t.db.insert(bookingAddons).values([
      { bookingId: booking.id, addonId: room.id, pricePence: 25_000 },
      { bookingId: booking.id, addonId: bag.id, pricePence: 4_000 },
    ]);
    const depositId = await invoice(booking.id, 'deposit');
    await pay(booking.id, depositId, 250);

    const options = (await admin.get(`/api/bookings/${booking.id}/move/trips`)).json();
    expect(options.data.map((o: { trip_id: number }) => o.trip_id)).toContain(to.id);
    expect(options.data.map((o: { trip_id: number }) => o.trip_id)).not.toContain(from.id);

    const before = await preview(booking.id, to.id);
    expect(before).toMatchObject({
      movable: true,
      refused: null,
      from: { trip_id: from.id, cost: 1895 },
      to: { trip_id: to.id, cost: 2195 },
      days_before_departure: 300,
      fee: 100,
      price_difference: 300,
      billed: 250,
      paid: 250,
      refund_owed: 0,
      addons_kept: [{ name: 'Single room supplement', price: 250 }],
      addons_dropped: [{ name: 'Kit bag', price: 40 }],
      invoices_deleted: [],
      rows_removed: [{ label: 'Balance', amount: 1645 }],
      rows_new: [{ label: 'Balance', amount: 1945 }],
    });

    const res = await admin.post(`/api/bookings/${booking.id}/move`, { trip_id: to.id, reason: 'Injured knee' });
    expect(res.statusCode, res.body).toBe(200);
    const done = res.json();
    const { message, fee_invoice_id, refund_owed_id, movable, refused, emailed, ...figures } = done;
    expect(figures).toEqual(Object.fromEntries(Object.entries(before).filter(([k]) => k in figures)));
    expect(message).toBe(`Booking ${booking.ref} has moved to ${to.name}. The traveller has been emailed.`);
    expect(emailed).toBe(true);
    const mail = sink.received.find((m) => m.raw.includes(`Subject: Your booking ${booking.ref} has moved`));
    const text = mail!.raw.replace(/=\r?\n/g, '');
    expect(text).toContain(`has moved from ${from.name}`);
    expect(text).toContain('Still to pay: Balance =C2=A31,945.00');
    expect([movable, refused]).toEqual([false, null]);
    expect(refund_owed_id).toBeNull();

    const [b] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect([b!.tripId, b!.tripDeparture]).toEqual([to.id, to.departureDate]);
    expect(await schedule(booking.id)).toEqual([
      { position: 1, label: 'Deposit', amount: 25_000, invoiced: depositId, type: 'deposit' },
      { position: 2, label: 'Balance', amount: 194_500, invoiced: null, type: 'balance' },
    ]);
    const addons = await t.db.select().from(bookingAddons).where(eq(bookingAddons.bookingId, booking.id));
    expect(addons.map((a) => [a.addonId, a.pricePence])).toEqual([[newRoom.id, 25_000]]);
    const [fee] = await t.db.select().from(invoices).where(eq(invoices.id, fee_invoice_id));
    expect([fee!.type, fee!.bookingId]).toEqual(['other', booking.id]);
    // the paid deposit stays the booking's, and is still paid
    const detail = (await admin.get(`/api/invoices/${depositId}`)).json();
    expect(detail.invoice.outstanding).toBe(0);
    // one event in each trip's history
    const events = await t.db
      .select({ action: auditEvents.action, tripId: auditEvents.tripId })
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, booking.id)));
    expect(events.filter((e) => e.action === 'booking.moved' || e.action === 'booking.moved_in')).toEqual([
      { action: 'booking.moved', tripId: from.id },
      { action: 'booking.moved_in', tripId: to.id },
    ]);
  });

  it('to a cheaper departure: billed beyond its cost is owed back within 14 days; an unpaid invoice goes', async () => {
    const from = await trip(120);
    const to = await trip(200, { costPence: 150_000 });
    const booking = await booked(from.id);
    const depositId = await invoice(booking.id, 'deposit');
    await pay(booking.id, depositId, 250);
    const balanceId = await invoice(booking.id, 'balance');
    await pay(booking.id, balanceId, 1645);
    const waived = await preview(booking.id, to.id, true);
    expect(waived).toMatchObject({ fee: 0, fee_waived: true, billed: 1895, refund_owed: 395, rows_new: [] });

    const done = (
      await admin.post(`/api/bookings/${booking.id}/move`, { trip_id: to.id, fee_waived: true, notify: false })
    ).json();
    expect(done).toMatchObject({ refund_owed: 395, refund_due_on: addDays(today(), 14), fee_invoice_id: null });
    const [owed] = await t.db.select().from(refundsOwed).where(eq(refundsOwed.bookingId, booking.id));
    expect([owed!.amountPence, owed!.state, owed!.dueOn]).toEqual([39_500, 'open', addDays(today(), 14)]);

    // an unpaid deposit invoice goes, and the new schedule bills the whole new cost
    const other = await booked(from.id);
    const unpaid = await invoice(other.id, 'deposit');
    const p = await preview(other.id, to.id);
    expect(p).toMatchObject({
      billed: 0,
      invoices_deleted: [{ id: unpaid, total: 250 }],
      rows_new: [
        { label: 'Deposit', amount: 250 },
        { label: 'Balance', amount: 1250 },
      ],
    });
    expect((await admin.post(`/api/bookings/${other.id}/move`, { trip_id: to.id })).statusCode).toBe(200);
    expect(await t.db.select().from(invoices).where(eq(invoices.id, unpaid))).toEqual([]);
    expect((await schedule(other.id)).map((r) => [r.position, r.amount, r.type])).toEqual([
      [1, 25_000, 'deposit'],
      [2, 125_000, 'balance'],
    ]);
  });

  it('refuses another type of trip, a full one, a closed one and an unknown one, changing nothing', async () => {
    const from = await trip(120);
    const booking = await booked(from.id);
    const open = await trip(150, { type: 'open' });
    const full = await trip(150, { capacity: 1 });
    await booked(full.id);
    const closed = await trip(150, { status: 'closed' });
    const refusals = [
      [
        open.id,
        `A booking moves to a trip of the same type: ${open.name} is an open challenge, this booking a charity challenge.`,
      ],
      [full.id, `${full.name} has no place left.`],
      [closed.id, `${closed.name} is closed and is not taking bookings.`],
      [from.id, 'The booking is already on this departure.'],
    ] as const;
    for (const [tripId, why] of refusals) {
      expect(await preview(booking.id, tripId)).toMatchObject({ movable: false, refused: why });
      const res = await admin.post(`/api/bookings/${booking.id}/move`, { trip_id: tripId });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe(why);
    }
    const unknown = await admin.post(`/api/bookings/${booking.id}/move`, { trip_id: 999_999 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.trip_id).toEqual(['The selected trip is invalid.']);
    const missing = await admin.get(`/api/bookings/${booking.id}/move/preview`);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.trip_id).toEqual(['Choose the departure to move to.']);
    const [b] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(b!.tripId).toBe(from.id);
    expect((await schedule(booking.id)).map((r) => r.amount)).toEqual([25_000, 164_500]);
    const moved = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, booking.id), eq(auditEvents.action, 'booking.moved')));
    expect(moved).toEqual([]);
  });
});
