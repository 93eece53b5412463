import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, scheduleRows } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { ScheduleService } from './service.ts';

let t: TestApp;
let admin: TestClient;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
});
afterAll(() => t.close());

const today = () => ukToday();
const traveller = (tripId: number, n: number) => ({
  trip_id: tripId,
  title: 'Ms',
  first_name: 'Ada',
  last_name: `Plan${n}`,
  preferred_name: 'Ada',
  email: `ada.plan${n}@example.test`,
  as_on_passport: true,
  terms_accepted: true,
});
const monthly = {
  instalments: [
    { label: 'Deposit', amount_kind: 'fixed', amount: '150', due_kind: 'after_booking', due_days: 7 },
    { label: 'Instalment 1', amount_kind: 'percent', percent: 25, due_kind: 'before_departure', due_days: 150 },
    { label: 'Instalment 2', amount_kind: 'percent', percent: '25', due_kind: 'before_departure', due_days: 120 },
    { label: 'Final', amount_kind: 'rest', due_kind: 'before_departure', due_days: 60 },
  ],
};

describe('payment plans', () => {
  it('a trip has the default plan until staff set one, with the schedule a booking made today would get', async () => {
    const trip = await insertTrip(t.db, {
      costPence: 200_000,
      depositPence: 30_000,
      departureDate: addDays(today(), 200),
      returnDate: addDays(today(), 210),
    });
    const res = await admin.get(`/api/trips/${trip.id}/payment-plan`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      is_default: true,
      cost: 2000,
      deposit: 300,
      instalments: [
        { label: 'Deposit', amount_kind: 'deposit', due_kind: 'after_booking', due_days: 14 },
        { label: 'Balance', amount_kind: 'rest', due_kind: 'before_departure', due_days: 56 },
      ],
      preview: [
        { label: 'Deposit', amount: 300, due_date: addDays(today(), 14) },
        { label: 'Balance', amount: 1700, due_date: addDays(today(), 144) },
      ],
    });
  });

  it('staff set monthly instalments; the change is in the trip history; new bookings follow it', async () => {
    const trip = await insertTrip(t.db, {
      costPence: 200_000,
      depositPence: 30_000,
      departureDate: addDays(today(), 200),
      returnDate: addDays(today(), 210),
    });
    const put = await admin.put(`/api/trips/${trip.id}/payment-plan`, monthly);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().is_default).toBe(false);
    expect(put.json().preview.map((r: { amount: number }) => r.amount)).toEqual([150, 500, 500, 850]);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'trip.payment_plan_changed'));
    expect(event).toMatchObject({ tripId: trip.id });
    expect(event!.summary).toContain('changed the payment plan of');

    const booked = await admin.post('/api/bookings', traveller(trip.id, 1));
    expect(booked.statusCode, booked.body).toBe(201);
    const schedule = (await admin.get(`/api/bookings/${booked.json().id}/schedule`)).json();
    expect(
      schedule.rows.map(
        (r: { label: string; amount: number; due_date: string; state: string; invoice_type: string }) => [
          r.label,
          r.amount,
          r.due_date,
          r.state,
          r.invoice_type,
        ],
      ),
    ).toEqual([
      ['Deposit', 150, addDays(today(), 7), 'scheduled', 'deposit'],
      ['Instalment 1', 500, addDays(today(), 50), 'scheduled', 'balance'],
      ['Instalment 2', 500, addDays(today(), 80), 'scheduled', 'balance'],
      ['Final', 850, addDays(today(), 140), 'scheduled', 'balance'],
    ]);
    expect(schedule.can_rebuild).toBe(true);
  });

  it('refuses a plan that does not add up, with field errors, and changes nothing', async () => {
    const trip = await insertTrip(t.db, {});
    const bad = async (body: unknown) => {
      const res = await admin.put(`/api/trips/${trip.id}/payment-plan`, body);
      expect(res.statusCode, res.body).toBe(422);
      return res.json().errors;
    };
    expect(
      await bad({
        instalments: [{ label: 'All', amount_kind: 'fixed', amount: 100, due_kind: 'after_booking', due_days: 3 }],
      }),
    ).toEqual({ instalments: ['A plan needs exactly one instalment for the rest of the trip cost.'] });
    expect(await bad({ instalments: [] })).toEqual({ instalments: ['A plan needs at least one instalment.'] });
    expect(
      await bad({
        instalments: [
          { label: '', amount_kind: 'percent', percent: 120, due_kind: 'fixed_date', due_date: '2031-02-30' },
        ],
      }),
    ).toMatchObject({
      'instalments.0.label': ['The label field is required.'],
      'instalments.0.percent': ['The percentage must be between 0.01 and 100.'],
      'instalments.0.due_date': ['The due date must be a real date.'],
    });
    expect(
      await bad({
        instalments: [
          { label: 'X', amount_kind: 'fixed', amount: '-5', due_kind: 'after_booking', due_days: 99999 },
          { label: 'R', amount_kind: 'rest', due_kind: 'before_departure', due_days: 1 },
        ],
      }),
    ).toMatchObject({
      'instalments.0.due_days': ['The number of days must be a whole number from 0 to 3650.'],
    });
    expect((await admin.get(`/api/trips/${trip.id}/payment-plan`)).json().is_default).toBe(true);
  });
});

describe('a booking’s schedule', () => {
  it('moves a date, changes an amount, waives with a reason, each in the booking history', async () => {
    const trip = await insertTrip(t.db, {
      costPence: 100_000,
      depositPence: 20_000,
      departureDate: addDays(today(), 150),
      returnDate: addDays(today(), 160),
    });
    const id = (await admin.post('/api/bookings', traveller(trip.id, 2))).json().id;
    const [deposit, balance] = (await admin.get(`/api/bookings/${id}/schedule`)).json().rows;
    const moved = await admin.patch(`/api/schedule-rows/${deposit.id}`, {
      due_date: addDays(today(), 21),
      amount: '250.00',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().rows[0]).toMatchObject({ due_date: addDays(today(), 21), amount: 250, outstanding: 250 });
    expect((await admin.patch(`/api/schedule-rows/${balance.id}`, { waived: true })).json()).toEqual({
      message: 'Say why the instalment is waived.',
      errors: { reason: ['Say why the instalment is waived.'] },
    });
    const waived = await admin.patch(`/api/schedule-rows/${balance.id}`, { waived: true, reason: 'Sponsored place' });
    expect(waived.json().rows[1]).toMatchObject({ state: 'waived', waived_reason: 'Sponsored place', outstanding: 0 });
    const history = (await admin.get(`/api/bookings/${id}/history`))
      .json()
      .data.map((e: { action: string }) => e.action);
    expect(history.filter((a: string) => a === 'schedule.row_changed')).toHaveLength(2);
    expect((await admin.patch('/api/schedule-rows/999999', { waived: false })).statusCode).toBe(404);
  });

  it('a late booking owes its early instalments today', async () => {
    const trip = await insertTrip(t.db, {
      costPence: 100_000,
      depositPence: 20_000,
      departureDate: addDays(today(), 20),
      returnDate: addDays(today(), 30),
    });
    const id = (await admin.post('/api/bookings', traveller(trip.id, 3))).json().id;
    const rows = (await admin.get(`/api/bookings/${id}/schedule`)).json().rows;
    expect(rows.map((r: { due_date: string }) => r.due_date)).toEqual([addDays(today(), 14), today()]);
  });

  it('rebuilds from a changed plan while nothing is invoiced, and not once something is', async () => {
    const trip = await insertTrip(t.db, {
      costPence: 200_000,
      depositPence: 30_000,
      departureDate: addDays(today(), 200),
      returnDate: addDays(today(), 210),
    });
    const id = (await admin.post('/api/bookings', traveller(trip.id, 4))).json().id;
    await admin.put(`/api/trips/${trip.id}/payment-plan`, monthly);
    expect((await admin.get(`/api/bookings/${id}/schedule`)).json().rows).toHaveLength(2);
    const rebuilt = await admin.post(`/api/bookings/${id}/schedule/rebuild`);
    expect(rebuilt.statusCode, rebuilt.body).toBe(200);
    expect(rebuilt.json().rows).toHaveLength(4);
    const invoice = await admin.post(`/api/bookings/${id}/invoices`, { invoice_type: 'deposit' });
    expect(invoice.statusCode, invoice.body).toBeLessThan(300);
    await t.db
      .update(scheduleRows)
      .set({ invoiceId: invoice.json().id })
      .where(eq(scheduleRows.id, rebuilt.json().rows[0].id));
    const after = (await admin.get(`/api/bookings/${id}/schedule`)).json();
    expect(after.can_rebuild).toBe(false);
    expect(after.rows[0]).toMatchObject({ state: 'invoiced', invoice_ref: invoice.json().invoice_ref });
    const refused = await admin.post(`/api/bookings/${id}/schedule/rebuild`);
    expect(refused.statusCode).toBe(422);
    expect((await admin.patch(`/api/schedule-rows/${after.rows[0].id}`, { amount: 10 })).json().errors).toEqual({
      amount: ['This instalment has been invoiced: change its invoice instead.'],
    });
  });

  it('bookings made before plans get their schedule, with their standard invoices linked', async () => {
    const trip = await insertTrip(t.db, {
      costPence: 100_000,
      depositPence: 20_000,
      departureDate: addDays(today(), 120),
      returnDate: addDays(today(), 130),
    });
    const old = await insertBooking(t.db, trip.id);
    const cancelled = await insertBooking(t.db, trip.id, { status: 'cancelled' });
    const invoice = (await admin.post(`/api/bookings/${old.id}/invoices`, { invoice_type: 'deposit' })).json();
    const service = new ScheduleService(t.db);
    for (let after = 0, looked = 50; looked === 50;) ({ looked, last: after } = await service.backfill(50, after));
    const schedule = (await admin.get(`/api/bookings/${old.id}/schedule`)).json();
    expect(schedule.rows.map((r: { label: string; invoice_id: number | null }) => [r.label, r.invoice_id])).toEqual([
      ['Deposit', invoice.id],
      ['Balance', null],
    ]);
    expect((await admin.get(`/api/bookings/${cancelled.id}/schedule`)).json().rows).toEqual([]);
    expect((await service.backfill(50)).looked).toBe(0);
  });

  it('the backfill moves past a booking that gets no schedule, and stops between bookings when asked', async () => {
    const free = await insertTrip(t.db, {
      costPence: 0,
      depositPence: 0,
      departureDate: addDays(today(), 120),
      returnDate: addDays(today(), 130),
    });
    const priced = await insertTrip(t.db, {
      costPence: 100_000,
      depositPence: 20_000,
      departureDate: addDays(today(), 120),
      returnDate: addDays(today(), 130),
    });
    const nothingToPay = await insertBooking(t.db, free.id);
    const first = await insertBooking(t.db, priced.id);
    const second = await insertBooking(t.db, priced.id);
    const service = new ScheduleService(t.db);
    // a batch of one: the free trip's booking is looked at once, and the next batch starts after it
    const one = await service.backfill(1, nothingToPay.id - 1);
    expect(one).toEqual({ looked: 1, last: nothingToPay.id });
    const stopped = new AbortController();
    stopped.abort();
    expect(await service.backfill(50, one.last, stopped.signal)).toEqual({ looked: 0, last: one.last });
    expect((await admin.get(`/api/bookings/${first.id}/schedule`)).json().rows).toEqual([]);
    const rest = await service.backfill(50, one.last);
    expect(rest.last).toBe(second.id);
    expect((await admin.get(`/api/bookings/${second.id}/schedule`)).json().rows).toHaveLength(2);
  });
});
