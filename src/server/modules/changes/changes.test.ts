import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import {
  auditEvents,
  bookings,
  invoices,
  moneyOwed,
  refundsOwed,
  scheduleRows,
  users,
} from '../../../db/schema/index.ts';
import { smtpSink } from '../../../../tests/support/smtp.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { systemClock, type Clock } from '../../clock.ts';
import { buildDigest } from '../schedules/digest.ts';

let sink: Awaited<ReturnType<typeof smtpSink>>;
let t: TestApp;
let admin: TestClient;
// the app's clock: moved on to see a refund owed fall overdue
let shift = 0;
const clock: Clock = { ...systemClock, now: () => Date.now() + shift };
const today = () => ukToday(new Date(clock.now()));

beforeAll(async () => {
  sink = await smtpSink();
  t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${sink.port}` }, { appClock: clock });
  admin = await t.signedIn(1);
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});
beforeEach(() => {
  shift = 0;
});

let n = 0;
/** A booking made by the office on a trip departing this many days from today (£1,895, deposit £250). */
async function booked(daysAway: number, over: Record<string, unknown> = {}) {
  n += 1;
  const departure = addDays(today(), daysAway);
  const trip = await insertTrip(t.db, {
    name: `Cancel Trek ${n}`,
    departureDate: departure,
    returnDate: addDays(departure, 7),
  });
  const res = await admin.post('/api/bookings', {
    trip_id: trip.id,
    title: 'Ms',
    first_name: 'Cara',
    preferred_name: 'Cara',
    last_name: `Leaver${n}`,
    email: `cara.leaver${n}@example.test`,
    mobile: '07700 900123',
    as_on_passport: true,
    terms_accepted: true,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { trip, booking: res.json() as { id: number; ref: string } };
}

async function deposit(bookingId: number): Promise<number> {
  const res = await admin.post(`/api/bookings/${bookingId}/invoices`, { invoice_type: 'deposit' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function pay(bookingId: number, invoiceId: number, amount: number, type: 'payment' | 'refund' = 'payment') {
  const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, invoiceId));
  const res = await admin.post('/api/transactions', {
    booking_id: bookingId,
    invoice_id: invoiceId,
    invoice_type: inv!.type,
    amount,
    type,
    processor: 'BACS',
    date: today(),
  });
  expect(res.statusCode, res.body).toBe(201);
}

const preview = async (id: number, waived = false) => {
  const res = await admin.get(`/api/bookings/${id}/cancel/preview${waived ? '?fee_waived=1' : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const cancel = (id: number, body: Record<string, unknown> = {}) =>
  admin.post(`/api/bookings/${id}/cancel`, { reason: 'The traveller can no longer travel', notify: false, ...body });

describe('cancelling a booking', () => {
  it('keeps the deposit 57 days out: the unpaid deposit invoice goes, the instalments are waived and the fee is invoiced', async () => {
    const { booking } = await booked(57);
    const depositId = await deposit(booking.id);
    const before = await preview(booking.id);
    expect(before).toMatchObject({
      cancellable: true,
      days_before_departure: 57,
      band: { from_days: 57, keep: 'deposit', label: '57 days or more before departure: the deposit is kept' },
      fee: 250,
      paid: 0,
      refund_owed: 0,
      still_owed: 250,
      invoices_deleted: [{ id: depositId, total: 250 }],
      invoices_kept: [],
    });
    expect(before.rows_waived.map((r: { amount: number }) => r.amount)).toEqual([250, 1645]);

    const res = await cancel(booking.id);
    expect(res.statusCode, res.body).toBe(200);
    const done = res.json();
    // the preview said exactly what was done
    const { message, cancellation_invoice_id, refund_owed_id, emailed, cancellable, refused, ...figures } = done;
    expect(figures).toEqual(Object.fromEntries(Object.entries(before).filter(([k]) => k in figures)));
    expect(message).toBe(`Booking ${booking.ref} is cancelled.`);
    expect([cancellable, refused, refund_owed_id, emailed]).toEqual([false, null, null, false]);

    const [b] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(b!.status).toBe('cancelled');
    const left = await t.db.select().from(invoices).where(eq(invoices.bookingId, booking.id));
    expect(left.map((i) => [i.id, i.type, i.dueDate])).toEqual([
      [cancellation_invoice_id, 'cancellation', addDays(today(), 14)],
    ]);
    const rows = await t.db.select().from(scheduleRows).where(eq(scheduleRows.bookingId, booking.id));
    expect(rows.every((r) => r.waived || r.invoiceId !== null)).toBe(true);
    // the fee is money owed: it shows in money due though the booking is cancelled
    const owed = await t.db.select().from(moneyOwed).where(eq(moneyOwed.bookingId, booking.id));
    expect(owed.map((o) => [o.kind, o.id, Number(o.outstandingPence)])).toEqual([
      ['invoice', cancellation_invoice_id, 25_000],
    ]);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, booking.id), eq(auditEvents.action, 'booking.cancelled')));
    expect(event!.details).toMatchObject({ fee: 250, paid: 0, still_owed: 250, refund_owed: 0 });
    expect(event!.changes).toEqual({ status: ['provisional', 'cancelled'] });

    // once only
    expect((await cancel(booking.id)).statusCode).toBe(409);
    expect(await preview(booking.id)).toMatchObject({
      cancellable: false,
      refused: 'This booking is already cancelled.',
    });
  });

  it('keeps half the trip cost 56 days out, less what was paid; a part-paid invoice stays as it is', async () => {
    const { booking } = await booked(56);
    const depositId = await deposit(booking.id);
    await pay(booking.id, depositId, 100);
    const before = await preview(booking.id);
    expect(before).toMatchObject({
      days_before_departure: 56,
      band: { from_days: 29, keep: 'percent', percent: 50 },
      fee: 947.5,
      paid: 100,
      still_owed: 847.5,
      refund_owed: 0,
      invoices_deleted: [],
      invoices_kept: [{ id: depositId, total: 250, paid: 100, outstanding: 150 }],
    });
    const done = (await cancel(booking.id)).json();
    expect(done.still_owed).toBe(847.5);
    const [fee] = await t.db.select().from(invoices).where(eq(invoices.id, done.cancellation_invoice_id));
    expect(fee!.type).toBe('cancellation');
    const inv = (await admin.get(`/api/invoices/${done.cancellation_invoice_id}`)).json();
    expect(inv.invoice.items).toEqual([{ description: 'Cancellation fee £947.50, less £100.00 paid', amount: 847.5 }]);
  });

  it('keeps everything 28 days out', async () => {
    const { booking } = await booked(28);
    expect(await preview(booking.id)).toMatchObject({
      band: { from_days: 0, keep: 'all' },
      fee: 1895,
      still_owed: 1895,
    });
  });

  it('owes back what was paid beyond the fee within 14 days, settled once the refund is recorded (in two parts)', async () => {
    const { booking } = await booked(120);
    const depositId = await deposit(booking.id);
    await pay(booking.id, depositId, 250);
    const balance = await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'balance' });
    expect(balance.statusCode, balance.body).toBe(201);
    await pay(booking.id, balance.json().id, 400);
    const done = (await cancel(booking.id)).json();
    expect(done).toMatchObject({
      fee: 250,
      paid: 650,
      refund_owed: 400,
      refund_due_on: addDays(today(), 14),
      still_owed: 0,
      cancellation_invoice_id: null,
    });
    // the rest of the unpaid balance is not owed: the booking is cancelled
    expect(await t.db.select().from(moneyOwed).where(eq(moneyOwed.bookingId, booking.id))).toEqual([]);

    const list = (await admin.get(`/api/refunds-owed?booking_id=${booking.id}`)).json();
    expect(list.data).toEqual([
      expect.objectContaining({
        id: done.refund_owed_id,
        booking_ref: booking.ref,
        amount: 400,
        due_on: addDays(today(), 14),
        days_left: 14,
        overdue: false,
        state: 'open',
      }),
    ]);
    // the dashboard counts it once it falls due within 3 days
    const refundsCard = async () =>
      (
        (await admin.get('/api/dashboard')).json() as { attention: Array<{ key: string; count: number }> }
      ).attention.find((a) => a.key === 'refunds')!.count;
    const now = await refundsCard();
    shift = 11 * 86_400_000;
    expect(await refundsCard()).toBe(now + 1);
    // and the office's digest lists it then, and as late after its day
    const inDigest = async (day: string) => (await buildDigest(t.db, day)).owed.find((o) => o.ref === booking.ref);
    expect(await inDigest(addDays(done.refund_due_on, -14))).toBeUndefined();
    expect(await inDigest(addDays(done.refund_due_on, -3))).toMatchObject({ amount: '£400.00', late: false });
    expect(await inDigest(addDays(done.refund_due_on, 1))).toMatchObject({ late: true });
    // fifteen days on, it is late
    shift = 15 * 86_400_000;
    const late = (await admin.get(`/api/refunds-owed?overdue=1`)).json();
    expect(late.data.find((r: { id: number }) => r.id === done.refund_owed_id)).toMatchObject({
      days_left: -1,
      overdue: true,
    });
    shift = 0;

    await pay(booking.id, balance.json().id, 150, 'refund');
    expect((await admin.get(`/api/refunds-owed?booking_id=${booking.id}`)).json().data[0].state).toBe('open');
    await pay(booking.id, depositId, 250, 'refund');
    const [settled] = await t.db.select().from(refundsOwed).where(eq(refundsOwed.id, done.refund_owed_id));
    expect(settled).toMatchObject({ state: 'settled' });
    expect(settled!.settledAt).not.toBeNull();
    expect(
      (await admin.get('/api/refunds-owed?state=open')).json().data.map((r: { id: number }) => r.id),
    ).not.toContain(done.refund_owed_id);
  });

  it('waives the fee only with a reason, and then owes back all that was paid', async () => {
    const { booking } = await booked(20);
    const depositId = await deposit(booking.id);
    await pay(booking.id, depositId, 250);
    const refused = await cancel(booking.id, { fee_waived: true });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toHaveProperty('waived_reason');
    const [still] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(still!.status).not.toBe('cancelled');

    expect(await preview(booking.id, true)).toMatchObject({
      fee_waived: true,
      scale_fee: 1895,
      fee: 0,
      refund_owed: 250,
    });
    const done = await cancel(booking.id, { fee_waived: true, waived_reason: 'The trek was closed by a landslide' });
    expect(done.json()).toMatchObject({ fee: 0, refund_owed: 250, still_owed: 0 });
  });

  it('refuses a missing reason and an unknown booking, changing nothing', async () => {
    const { booking } = await booked(90);
    const res = await admin.post(`/api/bookings/${booking.id}/cancel`, { reason: '  ' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('reason');
    expect((await admin.post('/api/bookings/999999/cancel', { reason: 'x' })).statusCode).toBe(404);
    expect((await admin.get('/api/bookings/999999/cancel/preview')).statusCode).toBe(404);
    const [b] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(b!.status).toBe('provisional');
  });

  it('emails the traveller what was decided when asked', async () => {
    const { booking } = await booked(70, { email: 'cara.notified@example.test' });
    const mails = sink.received.length;
    const done = (await cancel(booking.id, { notify: true, reason: 'Asked by phone' })).json();
    expect(done.emailed).toBe(true);
    expect(done.message).toBe(`Booking ${booking.ref} is cancelled. The traveller has been emailed.`);
    const mail = sink.received.slice(mails).find((m) => m.to.includes('cara.notified@example.test'));
    expect(mail?.raw).toContain(booking.ref);
    expect(mail?.raw).toContain('The cancellation fee is =C2=A3250.00');
  });
});

describe('passing a booking to another traveller', () => {
  const newcomer = (over: Record<string, unknown> = {}) => ({
    title: 'Mr',
    first_name: 'Nico',
    last_name: 'Newcomer',
    preferred_name: 'Nico',
    email: `nico.newcomer${++n}@example.test`,
    mobile: '07700 900999',
    notify: false,
    ...over,
  });

  it('keeps the reference, money and history, replaces the traveller, erases the old one’s details and invoices the fee', async () => {
    const { booking } = await booked(60, { email: 'olive.old@example.test' });
    const depositId = await deposit(booking.id);
    await pay(booking.id, depositId, 250);
    await t.db
      .update(bookings)
      .set({
        passportNumber: '123456789',
        nationality: 'British',
        medicalConditions: true,
        medicalDetail: 'Asthma, inhaler',
        nokName: 'Oscar Old',
        dateOfBirth: '1990-04-01',
        address1: '1 Old Road',
      })
      .where(eq(bookings.id, booking.id));
    const before = (await admin.get(`/api/bookings/${booking.id}/transfer/preview`)).json();
    expect(before).toMatchObject({
      transferable: true,
      needs_override: false,
      fee: 25,
      from: { email: 'olive.old@example.test' },
    });
    expect(before.erased).toEqual(
      expect.arrayContaining([
        'passport number',
        'medical conditions',
        'medical details',
        'next of kin',
        'date of birth',
      ]),
    );
    const mails = sink.received.length;
    const res = await admin.post(
      `/api/bookings/${booking.id}/transfer`,
      newcomer({ notify: true, email: 'nico.new@example.test' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const done = res.json();
    expect(done).toMatchObject({ fee: 25, emailed: 2 });
    expect(done.message).toBe(`Booking ${booking.ref} has passed to Nico Newcomer. Both travellers have been emailed.`);

    const [b] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(b).toMatchObject({
      ref: booking.ref,
      firstName: 'Nico',
      email: 'nico.new@example.test',
      passportNumber: null,
      nationality: null,
      medicalConditions: false,
      medicalDetail: null,
      nokName: null,
      dateOfBirth: null,
      address1: null,
    });
    const [user] = await t.db.select().from(users).where(eq(users.id, b!.userId!));
    expect(user).toMatchObject({ email: 'nico.new@example.test', userRoleId: 3 });
    // the payment stays with the booking; the fee is a new invoice
    const list = (await admin.get(`/api/invoices?booking_id=${booking.id}`)).json() as Array<{
      id: number;
      payment_received: number;
      total: number;
      description: string;
    }>;
    expect(list.find((i) => i.id === depositId)!.payment_received).toBe(250);
    expect(list.find((i) => i.id === done.fee_invoice_id)).toMatchObject({
      total: 25,
      description: `Transfer of booking ${booking.ref} to Nico Newcomer`,
    });
    // the history no longer quotes the old traveller's medical detail
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.bookingId, booking.id));
    expect(JSON.stringify(events)).not.toContain('Asthma, inhaler');
    expect(events.some((e) => e.action === 'booking.transferred')).toBe(true);
    // both travellers told
    await expect
      .poll(() =>
        sink.received
          .slice(mails)
          .map((m) => m.to)
          .flat(),
      )
      .toEqual(expect.arrayContaining(['olive.old@example.test', 'nico.new@example.test']));
  });

  it('needs an Administrator’s reason within 7 days of departure, and refuses a cancelled booking', async () => {
    const { booking } = await booked(6);
    const preview = (await admin.get(`/api/bookings/${booking.id}/transfer/preview?fee_waived=1`)).json();
    expect(preview).toMatchObject({ needs_override: true, fee: 0, fee_waived: true });
    const refused = await admin.post(`/api/bookings/${booking.id}/transfer`, newcomer());
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.override_reason).toEqual([
      'The trip departs in 6 days: say why the place may pass so late.',
    ]);
    const [still] = await t.db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(still!.firstName).toBe('Cara');
    const ok = await admin.post(
      `/api/bookings/${booking.id}/transfer`,
      newcomer({ override_reason: 'Her friend takes her place; the airline allows the name change', fee_waived: true }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ fee: 0, fee_invoice_id: null });

    const gone = await booked(60);
    expect((await cancel(gone.booking.id)).statusCode).toBe(200);
    expect((await admin.post(`/api/bookings/${gone.booking.id}/transfer`, newcomer())).statusCode).toBe(409);
    const bad = await admin.post(`/api/bookings/${gone.booking.id}/transfer`, { first_name: '', email: 'nope' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['first_name', 'email', 'last_name']));
  });
});

describe('the office’s fee scale', () => {
  it('starts at the defaults, refuses a scale that leaves days without a fee, and applies what is saved', async () => {
    expect((await admin.get('/api/settings/changes')).json()).toMatchObject({
      saved: false,
      transfer_fee: 25,
      move_fee: 100,
      bands: [{ from_days: 57 }, { from_days: 29 }, { from_days: 0 }],
    });
    const bad = await admin.put('/api/settings/changes', {
      bands: [{ from_days: 30, keep: 'percent' }],
      transfer_fee: -1,
      move_fee: 'lots',
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['bands.0.percent', 'move_fee', 'transfer_fee']);
    const blank = await admin.put('/api/settings/changes', {
      bands: [{ from_days: ' ', keep: 'all' }],
      transfer_fee: 25,
      move_fee: 100,
    });
    expect(blank.json().errors['bands.0.from_days']).toEqual(['Give the days before departure the band starts from.']);
    const gap = await admin.put('/api/settings/changes', {
      bands: [{ from_days: 30, keep: 'deposit' }],
      transfer_fee: 25,
      move_fee: 100,
    });
    expect(gap.statusCode).toBe(422);
    expect(gap.json().errors.bands).toEqual([
      'One band for every booking must start at 0 days, so that a cancellation on any day has a fee.',
    ]);
    expect((await admin.get('/api/settings/changes')).json().saved).toBe(false);

    const saved = await admin.put('/api/settings/changes', {
      bands: [
        { from_days: 0, keep: 'all' },
        { from_days: 100, keep: 'deposit' },
        { from_days: 0, keep: 'all', funding_type: 'fundraise' },
      ],
      transfer_fee: '30',
      move_fee: 150,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ saved: true, transfer_fee: 30, move_fee: 150 });

    const self = await booked(120);
    const fundraiser = await booked(120);
    await t.db.update(bookings).set({ fundingType: 'fundraise' }).where(eq(bookings.id, fundraiser.booking.id));
    expect((await preview(self.booking.id)).fee).toBe(250);
    expect((await preview(fundraiser.booking.id)).fee).toBe(1895);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'settings.changes_saved'));
    expect(events).toHaveLength(1);
  });
});

describe('a trip’s own fees', () => {
  it('charges a trip by its own scale and fees where it has them, the office’s elsewhere, and goes back to the office’s', async () => {
    const { trip, booking } = await booked(120);
    const other = await booked(120);
    const office = (await admin.get('/api/settings/changes')).json();
    const start = (await admin.get(`/api/trips/${trip.id}/changes`)).json();
    expect(start).toEqual({ ...office, own: false });

    const refused = await admin.put(`/api/trips/${trip.id}/changes`, {
      bands: [{ from_days: 10, keep: 'all' }],
      transfer_fee: 'free',
      move_fee: 0,
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(['transfer_fee']);
    const gap = await admin.put(`/api/trips/${trip.id}/changes`, {
      bands: [{ from_days: 10, keep: 'all' }],
      transfer_fee: 0,
      move_fee: 0,
    });
    expect(gap.json().errors.bands).toEqual([
      'One band for every booking must start at 0 days, so that a cancellation on any day has a fee.',
    ]);
    expect((await admin.get(`/api/trips/${trip.id}/changes`)).json().own).toBe(false);

    const own = await admin.put(`/api/trips/${trip.id}/changes`, {
      bands: [
        { from_days: 0, keep: 'percent', percent: 80 },
        { from_days: 90, keep: 'deposit' },
      ],
      transfer_fee: 10,
      move_fee: 40,
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ own: true, saved: true, transfer_fee: 10, move_fee: 40 });
    expect(own.json().bands.map((b: { from_days: number }) => b.from_days)).toEqual([90, 0]);
    // 120 days out: the trip's 90-day band keeps the deposit; the transfer fee is the trip's
    expect(await preview(booking.id)).toMatchObject({ band: { from_days: 90, keep: 'deposit' }, fee: 250 });
    expect((await admin.get(`/api/bookings/${booking.id}/transfer/preview`)).json().fee).toBe(10);
    expect((await admin.get(`/api/bookings/${other.booking.id}/transfer/preview`)).json().fee).toBe(
      office.transfer_fee,
    );
    const history = (await admin.get(`/api/trips/${trip.id}/history`)).json();
    expect(JSON.stringify(history)).toContain(`set ${trip.name}'s own cancellation scale (2 bands)`);

    const back = await admin.delete(`/api/trips/${trip.id}/changes`);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toEqual({ ...office, own: false });
    expect((await admin.get(`/api/bookings/${booking.id}/transfer/preview`)).json().fee).toBe(office.transfer_fee);
    const events = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'trip.changes_cleared'));
    expect(events.map((e) => e.tripId)).toEqual([trip.id]);
    expect((await admin.get('/api/trips/999999/changes')).statusCode).toBe(404);
  });
});
