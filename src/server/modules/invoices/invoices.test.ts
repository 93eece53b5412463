import { and, asc, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertAddon, insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, bookingAddons, discounts, users } from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { queryRows } from '../../../db/client.ts';
import { LAST_INVOICE_NUMBER } from './service.ts';

let t: TestApp;
let admin: TestClient;
let adminName: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1, 'invoices.admin@example.test');
  const [me] = await t.db.select().from(users).where(eq(users.email, 'invoices.admin@example.test'));
  adminName = `${me!.firstName} ${me!.lastName}`;
});
afterAll(() => t.close());

const today = ukToday();

async function booked(
  tripOver: Parameters<typeof insertTrip>[1] = {},
  bookingOver: Parameters<typeof insertBooking>[2] = {},
) {
  const trip = await insertTrip(t.db, tripOver);
  const booking = await insertBooking(t.db, trip.id, bookingOver);
  return { trip, booking };
}

let codes = 0;
async function discount(over: Partial<typeof discounts.$inferInsert> = {}) {
  codes += 1;
  const [row] = await t.db
    .insert(discounts)
    .values({ code: `CODE${codes}`, name: 'Test discount', amountPence: 5_000, usageLimit: 5, ...over })
    .returning();
  return row!;
}

const custom = (bookingId: number, over: Record<string, unknown> = {}) => ({
  booking_id: bookingId,
  invoice_date: today,
  due_date: addDays(today, 30),
  invoice_ref: `CUST-${Math.random().toString(36).slice(2, 10)}`,
  description: 'Extras',
  items: [{ description: 'Flight upgrade', amount: '120.50' }],
  addons: [],
  ...over,
});

const pay = (
  inv: { id: number; booking_id: number; type: string },
  amount: number | string,
  over: Record<string, unknown> = {},
) => ({
  booking_id: inv.booking_id,
  invoice_id: inv.id,
  invoice_type: inv.type,
  amount,
  type: 'payment',
  processor: 'BACS',
  date: today,
  notes: null,
  ...over,
});

describe('GET /api/invoices', () => {
  it('lists a booking’s invoices, none at first', async () => {
    const { booking } = await booked();
    const res = await admin.get(`/api/invoices?booking_id=${booking.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('refuses a missing or unknown booking with 422', async () => {
    expect((await admin.get('/api/invoices')).statusCode).toBe(422);
    const res = await admin.get('/api/invoices?booking_id=999999');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.booking_id).toEqual(['The selected booking is invalid.']);
  });

  it('is for staff only', async () => {
    const { booking } = await booked();
    const charity = await t.signedIn(2);
    expect((await charity.get(`/api/invoices?booking_id=${booking.id}`)).statusCode).toBe(403);
    expect((await t.client().get(`/api/invoices?booking_id=${booking.id}`)).statusCode).toBe(401);
  });
});

describe('POST /api/bookings/{id}/invoices (standard)', () => {
  it('raises the deposit: the trip’s deposit, due in 14 days, with the next INV number', async () => {
    const { booking, trip } = await booked({ depositPence: 25_000, name: 'Inca Trail' });
    const res = await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' });
    expect(res.statusCode).toBe(201);
    const inv = res.json();
    expect(inv).toMatchObject({
      booking_id: booking.id,
      type: 'deposit',
      description: `Deposit for ${trip.name}`,
      items: [{ description: 'Trip deposit', amount: 250 }],
      total: 250,
      outstanding: 250,
      payment_received: 0,
      status: 'Unpaid',
      paid: false,
      invoice_date: today,
      due_date: addDays(today, 14),
      discount_amount: 0,
      discount_code: null,
      transactions: [],
    });
    expect(inv.invoice_ref).toMatch(/^INV-\d+$/);
    const again = await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('This booking already has a deposit invoice.');
    const next = await admin.post(`/api/bookings/${(await insertBooking(t.db, trip.id)).id}/invoices`, {
      invoice_type: 'deposit',
    });
    expect(Number(next.json().invoice_ref.slice(4))).toBe(Number(inv.invoice_ref.slice(4)) + 1);
  });

  it('refuses a deposit once the balance invoice has billed the whole cost', async () => {
    const { booking } = await booked({ depositPence: 20_000, costPence: 100_000 });
    expect((await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'balance' })).json().total).toBe(
      1000,
    );
    const res = await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('This booking already has a balance invoice, which bills the whole trip cost.');
  });

  it('refuses a deposit when the trip has none, a bad type, and an unknown booking', async () => {
    const { booking } = await booked({ depositPence: 0 });
    expect(
      (await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' })).json().message,
    ).toMatch(/no deposit set/);
    const bad = await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'other' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.invoice_type).toEqual(['The invoice type must be deposit or balance.']);
    expect((await admin.post('/api/bookings/999999/invoices', { invoice_type: 'deposit' })).statusCode).toBe(404);
  });

  it('raises the balance: cost + add-ons not yet invoiced − travel-basis discount − what was billed, and marks the add-ons invoiced', async () => {
    const { booking, trip } = await booked(
      { depositPence: 25_000, costPence: 189_500 },
      { travelBasisDiscountPence: 15_000 },
    );
    const room = await insertAddon(t.db, trip.id, 'Single room', 29_500);
    const kit = await insertAddon(t.db, trip.id, 'Kit hire', 4_000);
    const billedBefore = await insertAddon(t.db, trip.id, 'Airport transfer', 3_000);
    await t.db.insert(bookingAddons).values([
      { bookingId: booking.id, addonId: room.id, pricePence: 29_500 },
      { bookingId: booking.id, addonId: kit.id, pricePence: 4_000 },
      { bookingId: booking.id, addonId: billedBefore.id, pricePence: 3_000 },
    ]);
    await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' });
    // a custom extras invoice bills the transfer; it does not count towards the trip cost
    await admin.post(
      '/api/invoices',
      custom(booking.id, { items: [{ description: 'Visa service', amount: 40 }], addons: [billedBefore.id] }),
    );
    const res = await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'balance' });
    expect(res.statusCode).toBe(201);
    const inv = res.json();
    expect(inv.items).toEqual([{ description: 'Trip balance', amount: 1495 }]);
    expect(inv.addons).toEqual([
      { id: room.id, name: 'Single room', price: 295 },
      { id: kit.id, name: 'Kit hire', price: 40 },
    ]);
    expect(inv.total).toBe(1830);
    const detail = (await admin.get(`/api/bookings/${booking.id}`)).json();
    expect(detail.addons.map((a: { pivot: { invoiced: boolean } }) => a.pivot.invoiced)).toEqual([true, true, true]);
    const none = await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'balance' });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toMatch(/Nothing is left to invoice/);
  });

  it('applies a valid discount code and takes one use of it', async () => {
    const { booking } = await booked({ depositPence: 25_000 });
    const d = await discount({
      code: 'EARLY50',
      invoiceType: 'deposit',
      amountPence: 5_000,
      usageLimit: 2,
      usageCount: 0,
    });
    const res = await admin.post(`/api/bookings/${booking.id}/invoices`, {
      invoice_type: 'deposit',
      discount_code: 'early50',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ total: 200, outstanding: 200, discount_amount: 50, discount_code: 'EARLY50' });
    const [after] = await t.db.select().from(discounts).where(eq(discounts.id, d.id));
    expect(after!.usageCount).toBe(1);
  });

  it('refuses a code that does not apply, with the reason under the field, and bills nothing', async () => {
    const { booking, trip } = await booked({ depositPence: 25_000 });
    const cases: Array<[Partial<typeof discounts.$inferInsert>, RegExp]> = [
      [{ invoiceType: 'balance' }, /only for balance invoices/],
      [{ tripId: (await insertTrip(t.db)).id }, /for another trip/],
      [{ validFrom: new Date(addDays(today, 2) + 'T00:00:00') }, /cannot be used before/],
      [{ validUntil: new Date(addDays(today, -1) + 'T00:00:00') }, /expired on/],
      [{ usageLimit: 1, usageCount: 1 }, /has been used up/],
    ];
    for (const [over, reason] of cases) {
      const d = await discount(over);
      const res = await admin.post(`/api/bookings/${booking.id}/invoices`, {
        invoice_type: 'deposit',
        discount_code: d.code,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.discount_code[0]).toMatch(reason);
    }
    const missing = await admin.post(`/api/bookings/${booking.id}/invoices`, {
      invoice_type: 'deposit',
      discount_code: 'NOSUCHCODE',
    });
    expect(missing.json().errors.discount_code).toEqual(['There is no discount code NOSUCHCODE.']);
    expect((await admin.get(`/api/invoices?booking_id=${booking.id}`)).json()).toEqual([]);
    // valid for this trip and today, the same code applies
    const ok = await discount({
      tripId: trip.id,
      validFrom: new Date(today + 'T00:00:00'),
      validUntil: new Date(today + 'T00:00:00'),
    });
    expect(
      (await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit', discount_code: ok.code }))
        .statusCode,
    ).toBe(201);
  });

  it('gives the last use of a code to exactly one of two invoices raised at once', async () => {
    const d = await discount({ usageLimit: 3, usageCount: 2 });
    const a = await booked({ depositPence: 25_000 });
    const b = await booked({ depositPence: 25_000 });
    const results = await Promise.all([
      admin.post(`/api/bookings/${a.booking.id}/invoices`, { invoice_type: 'deposit', discount_code: d.code }),
      admin.post(`/api/bookings/${b.booking.id}/invoices`, { invoice_type: 'deposit', discount_code: d.code }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    const [after] = await t.db.select().from(discounts).where(eq(discounts.id, d.id));
    expect(after!.usageCount).toBe(3);
  });
});

describe('POST /api/invoices (custom)', () => {
  it('raises an invoice of items and add-ons, totalled, with its add-ons marked invoiced', async () => {
    const { booking, trip } = await booked();
    const addon = await insertAddon(t.db, trip.id, 'Single room', 29_500);
    await t.db.insert(bookingAddons).values({ bookingId: booking.id, addonId: addon.id, pricePence: 29_500 });
    const body = custom(booking.id, {
      type: 'addon',
      items: [
        { description: 'Flight upgrade', amount: '120.50' },
        { description: 'Visa', amount: 40 },
      ],
      addons: [addon.id],
    });
    const res = await admin.post('/api/invoices', body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      invoice_ref: body.invoice_ref,
      type: 'addon',
      items: [
        { description: 'Flight upgrade', amount: 120.5 },
        { description: 'Visa', amount: 40 },
      ],
      addons: [{ id: addon.id, name: 'Single room', price: 295 }],
      total: 455.5,
      status: 'Unpaid',
    });
    const again = await admin.post('/api/invoices', custom(booking.id, { items: [], addons: [addon.id] }));
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.addons).toEqual([
      'An add-on chosen is not on this booking or has already been invoiced.',
    ]);
  });

  it('needs at least one item or add-on, a reference and a description, and real amounts', async () => {
    const { booking } = await booked();
    const res = await admin.post(
      '/api/invoices',
      custom(booking.id, { items: [], addons: [], invoice_ref: '', description: ' ' }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({
      invoice_ref: ['The reference field is required.'],
      description: ['The description field is required.'],
    });
    const empty = await admin.post('/api/invoices', custom(booking.id, { items: [], addons: [] }));
    expect(empty.json().errors).toEqual({ items: ['Please add at least one item to this invoice'] });
    const bad = await admin.post(
      '/api/invoices',
      custom(booking.id, {
        items: [
          { description: '', amount: '12.345' },
          { description: 'Zero', amount: 0 },
        ],
      }),
    );
    expect(bad.json().errors).toMatchObject({
      'items.0.description': ['The description field is required.'],
      'items.0.amount': ['The amount must be an amount in pounds, such as 25 or 25.50.'],
      'items.1.amount': ['The amount must be more than £0.00.'],
    });
    expect(
      (await admin.post('/api/invoices', custom(booking.id, { due_date: addDays(today, -1) }))).json().errors,
    ).toEqual({ due_date: ['The due date must not be before the invoice date.'] });
    expect(
      (await admin.post('/api/invoices', custom(booking.id, { invoice_date: '2026-02-30' }))).json().errors
        .invoice_date,
    ).toEqual(['The invoice date must be a real date.']);
    expect((await admin.get(`/api/invoices?booking_id=${booking.id}`)).json()).toEqual([]);
  });

  it('refuses a booking that does not exist', async () => {
    const res = await admin.post('/api/invoices', custom(999_999));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.booking_id).toEqual(['The selected booking is invalid.']);
  });

  it('keeps references unique', async () => {
    const { booking } = await booked();
    const body = custom(booking.id);
    expect((await admin.post('/api/invoices', body)).statusCode).toBe(201);
    const res = await admin.post('/api/invoices', body);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.invoice_ref).toEqual(['This reference is already used by another invoice.']);
  });
});

describe('DELETE /api/invoices/{id}', () => {
  it('deletes an invoice with no payments, freeing its add-ons and its discount use', async () => {
    const { booking, trip } = await booked();
    const addon = await insertAddon(t.db, trip.id);
    await t.db.insert(bookingAddons).values({ bookingId: booking.id, addonId: addon.id, pricePence: 25_000 });
    const d = await discount({ usageCount: 1 });
    const inv = (
      await admin.post('/api/invoices', custom(booking.id, { addons: [addon.id], discount_code: d.code }))
    ).json();
    expect((await t.db.select().from(discounts).where(eq(discounts.id, d.id)))[0]!.usageCount).toBe(2);
    expect((await admin.delete(`/api/invoices/${inv.id}`)).statusCode).toBe(204);
    expect((await t.db.select().from(discounts).where(eq(discounts.id, d.id)))[0]!.usageCount).toBe(1);
    const [ba] = await t.db.select().from(bookingAddons).where(eq(bookingAddons.bookingId, booking.id));
    expect(ba!.invoiced).toBe(false);
    expect((await admin.delete(`/api/invoices/${inv.id}`)).statusCode).toBe(404);
  });

  it('refuses an invoice with a payment, even a deleted one', async () => {
    const { booking } = await booked();
    const inv = (await admin.post('/api/invoices', custom(booking.id))).json();
    const tx = (await admin.post('/api/transactions', pay(inv, 20))).json();
    const res = await admin.delete(`/api/invoices/${inv.id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      'This invoice has payments or refunds recorded against it, so it cannot be deleted.',
    );
    await admin.delete(`/api/transactions/${tx.id}`);
    expect((await admin.delete(`/api/invoices/${inv.id}`)).statusCode).toBe(422);
  });
});

describe('POST /api/transactions', () => {
  it('records a part payment, then the rest, then a refund, with the outstanding amount and status following', async () => {
    const { booking } = await booked();
    const inv = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'Trip', amount: 250 }] }))
    ).json();
    const first = await admin.post(
      '/api/transactions',
      pay(inv, '100.25', { notes: 'First instalment', processor: 'STRIPE' }),
    );
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      message: 'Transaction has been processed.',
      amount: 100.25,
      type: 'payment',
      processor: 'STRIPE',
      notes: 'First instalment',
      deleted_at: null,
      created_by: expect.stringMatching(/^Sam Tester/),
    });
    let [now] = (await admin.get(`/api/invoices?booking_id=${booking.id}`)).json();
    expect(now).toMatchObject({ payment_received: 100.25, outstanding: 149.75, status: 'Part Paid', paid: false });
    await admin.post('/api/transactions', pay(inv, 149.75));
    [now] = (await admin.get(`/api/invoices?booking_id=${booking.id}`)).json();
    expect(now).toMatchObject({ outstanding: 0, status: 'Paid', paid: true });
    const refund = await admin.post('/api/transactions', pay(inv, 50, { type: 'refund' }));
    expect(refund.statusCode).toBe(201);
    [now] = (await admin.get(`/api/invoices?booking_id=${booking.id}`)).json();
    expect(now).toMatchObject({ payment_received: 200, refunded: 50, outstanding: 50, status: 'Part Paid' });
    expect(now.transactions.map((x: { type: string; amount: number }) => [x.type, x.amount])).toEqual([
      ['payment', 100.25],
      ['payment', 149.75],
      ['refund', 50],
    ]);
  });

  it('refuses an overpayment, a refund of more than was paid, and says why under the amount', async () => {
    const { booking } = await booked();
    const inv = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'Trip', amount: 100 }] }))
    ).json();
    const over = await admin.post('/api/transactions', pay(inv, '100.01'));
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.amount).toEqual([
      'This payment of £100.01 is more than the £100.00 outstanding on this invoice.',
    ]);
    await admin.post('/api/transactions', pay(inv, 30));
    const refund = await admin.post('/api/transactions', pay(inv, 31, { type: 'refund' }));
    expect(refund.json().errors.amount).toEqual([
      'This refund of £31.00 is more than the £30.00 paid and not yet refunded on this invoice.',
    ]);
  });

  it('validates every field and refuses an invoice of another booking or type, or a future date', async () => {
    const { booking } = await booked();
    const other = await booked();
    const inv = (await admin.post('/api/invoices', custom(booking.id))).json();
    const res = await admin.post('/api/transactions', {
      booking_id: booking.id,
      invoice_id: inv.id,
      invoice_type: 'nope',
      amount: '-5',
      type: 'gift',
      processor: 'PAYPAL',
      date: '31/12/2026',
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['amount', 'date', 'invoice_type', 'processor', 'type']);
    expect(
      (await admin.post('/api/transactions', pay({ ...inv, booking_id: other.booking.id }, 10))).json().errors
        .invoice_id,
    ).toEqual(['This invoice belongs to another booking.']);
    expect(
      (await admin.post('/api/transactions', pay({ ...inv, type: 'deposit' }, 10))).json().errors.invoice_type,
    ).toEqual(['This is a other invoice.']);
    expect((await admin.post('/api/transactions', pay({ ...inv, id: 999999 }, 10))).json().errors.invoice_id).toEqual([
      'The selected invoice is invalid.',
    ]);
    expect(
      (await admin.post('/api/transactions', pay(inv, 10, { date: addDays(today, 1) }))).json().errors.date,
    ).toEqual(['The date must not be in the future.']);
    expect((await admin.get(`/api/invoices?booking_id=${booking.id}`)).json()[0].transactions).toEqual([]);
  });

  it('records one entry for one Idempotency-Key, sent twice or twenty times at once, with the same reply', async () => {
    const { booking } = await booked();
    const inv = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'Trip', amount: 1000 }] }))
    ).json();
    const first = await admin.post('/api/transactions', pay(inv, 10), { 'idempotency-key': 'key-once' });
    const second = await admin.post('/api/transactions', pay(inv, 10), { 'idempotency-key': 'key-once' });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
    const burst = await Promise.all(
      Array.from({ length: 20 }, () =>
        admin.post('/api/transactions', pay(inv, 25), { 'idempotency-key': 'key-burst' }),
      ),
    );
    expect(burst.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(burst.map((r) => r.json().id)).size).toBe(1);
    const [now] = (await admin.get(`/api/invoices?booking_id=${booking.id}`)).json();
    expect(now.transactions).toHaveLength(2);
    expect(now.payment_received).toBe(35);
    const reused = await admin.post('/api/transactions', pay(inv, 99), { 'idempotency-key': 'key-once' });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().message).toBe('This Idempotency-Key was already used for a different payment or refund.');
  });

  it('gives one key sent at once for two different invoices to exactly one of them', async () => {
    const { booking } = await booked();
    const a = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'A', amount: 100 }] }))
    ).json();
    const b = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'B', amount: 100 }] }))
    ).json();
    const both = await Promise.all([
      admin.post('/api/transactions', pay(a, 10), { 'idempotency-key': 'key-two-invoices' }),
      admin.post('/api/transactions', pay(b, 10), { 'idempotency-key': 'key-two-invoices' }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    const all = (await admin.get(`/api/invoices?booking_id=${booking.id}`)).json();
    expect(all.flatMap((i: { transactions: unknown[] }) => i.transactions)).toHaveLength(1);
  });

  it('lets only one of two refunds at once against one payment through', async () => {
    const { booking } = await booked();
    const inv = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'Trip', amount: 100 }] }))
    ).json();
    await admin.post('/api/transactions', pay(inv, 100));
    const both = await Promise.all([
      admin.post('/api/transactions', pay(inv, 80, { type: 'refund' })),
      admin.post('/api/transactions', pay(inv, 80, { type: 'refund' })),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    const [now] = (await admin.get(`/api/invoices?booking_id=${booking.id}`)).json();
    expect(now).toMatchObject({ payment_received: 20, refunded: 80, outstanding: 80 });
  });

  it('never takes more than is outstanding from payments made at once', async () => {
    const { booking } = await booked();
    const inv = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'Trip', amount: 100 }] }))
    ).json();
    const all = await Promise.all(Array.from({ length: 5 }, () => admin.post('/api/transactions', pay(inv, 30))));
    expect(all.filter((r) => r.statusCode === 201)).toHaveLength(3);
    const [now] = (await admin.get(`/api/invoices?booking_id=${booking.id}`)).json();
    expect(now).toMatchObject({ payment_received: 90, outstanding: 10 });
  });
});

describe('DELETE /api/transactions/{id}', () => {
  it('strikes the entry out with who and when; totals ignore it, the history keeps it', async () => {
    const { booking } = await booked();
    const inv = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'Trip', amount: 100 }] }))
    ).json();
    const tx = (await admin.post('/api/transactions', pay(inv, 40))).json();
    expect((await admin.delete(`/api/transactions/${tx.id}`)).statusCode).toBe(204);
    const [now] = (await admin.get(`/api/invoices?booking_id=${booking.id}`)).json();
    expect(now).toMatchObject({ payment_received: 0, outstanding: 100, status: 'Unpaid' });
    expect(now.transactions).toHaveLength(1);
    expect(now.transactions[0].deleted_at).toEqual(expect.any(String));
    expect(now.transactions[0].deleted_by).toMatch(/^Sam Tester/);
    const again = await admin.delete(`/api/transactions/${tx.id}`);
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('This payment or refund has already been deleted.');
    expect((await admin.delete('/api/transactions/999999')).statusCode).toBe(404);
  });

  it('refuses to strike out a refund when the payments since cover the invoice', async () => {
    const { booking } = await booked();
    const inv = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'Trip', amount: 100 }] }))
    ).json();
    await admin.post('/api/transactions', pay(inv, 100));
    const refund = (await admin.post('/api/transactions', pay(inv, 30, { type: 'refund' }))).json();
    await admin.post('/api/transactions', pay(inv, 30));
    const res = await admin.delete(`/api/transactions/${refund.id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(
      'Without this refund more would have been paid than the invoice total: delete a later payment first.',
    );
  });

  it('refuses to strike out a payment whose money was refunded', async () => {
    const { booking } = await booked();
    const inv = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'Trip', amount: 100 }] }))
    ).json();
    const paid = (await admin.post('/api/transactions', pay(inv, 60))).json();
    await admin.post('/api/transactions', pay(inv, 50, { type: 'refund' }));
    const res = await admin.delete(`/api/transactions/${paid.id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Part of this payment has been refunded: delete the refund first.');
  });
});

describe('ids and dates out of range', () => {
  it('answers 422 or 404, never 500, for ids beyond any record and dates beyond reason', async () => {
    const { booking } = await booked();
    const inv = (await admin.post('/api/invoices', custom(booking.id))).json();
    expect((await admin.get('/api/invoices/3000000000')).statusCode).toBe(422);
    expect((await admin.delete('/api/transactions/3000000000')).statusCode).toBe(422);
    expect((await admin.get('/api/invoices?booking_id=3000000000')).statusCode).toBe(422);
    const big = await admin.post('/api/transactions', pay({ ...inv, id: 3_000_000_000 }, 10));
    expect(big.statusCode).toBe(422);
    expect(big.json().errors.invoice_id).toEqual(['The selected invoice is invalid.']);
    expect((await admin.post('/api/transactions', pay({ ...inv, booking_id: true }, 10))).statusCode).toBe(422);
    const ancient = await admin.post('/api/transactions', pay(inv, 10, { date: '0000-01-01' }));
    expect(ancient.json().errors.date).toEqual(['The date must be between 2000 and 2099.']);
    expect((await admin.post('/api/invoices', custom(booking.id, { invoice_date: '0000-01-01' }))).statusCode).toBe(
      422,
    );
    expect((await admin.post('/api/transactions', pay(inv, '1,50'))).json().errors.amount).toEqual([
      'The amount must be an amount in pounds, such as 25 or 25.50.',
    ]);
  });
});

describe('GET /api/invoices/{id} and its PDF', () => {
  it('gives the invoice with the operator, customer, booking and trip', async () => {
    const { booking, trip } = await booked(
      { name: 'Sahara Trek' },
      { firstName: 'Ada', lastName: 'Lovelace', title: 'Dr', address1: '12 Byron Street', postCode: 'N1 1AA' },
    );
    const inv = (await admin.post('/api/invoices', custom(booking.id))).json();
    const res = await admin.get(`/api/invoices/${inv.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      invoice: { id: inv.id, total: 120.5 },
      operator: { name: 'Tripdesk Test Adventures Ltd', address: ['1 Test Street', 'London', 'EC1A 1AA'] },
      customer: { name: 'Dr Ada Lovelace', email: booking.email, address: ['12 Byron Street', 'N1 1AA'] },
      booking: { id: booking.id, ref: booking.ref },
      trip: { name: 'Sahara Trek', departure: trip.departureDate },
    });
    const pdf = await admin.get(`/api/invoices/${inv.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // a font with more than Latin-1, so names such as Łukasz Dvořák print
    expect(pdf.rawPayload.toString('latin1')).toMatch(/FontName \/[A-Z]{6}\+DejaVuSans/);
    expect((await admin.get('/api/invoices/999999')).statusCode).toBe(404);
    expect((await admin.get('/api/invoices/999999/pdf')).statusCode).toBe(404);
  });
});

describe('the history of invoices and money', () => {
  const eventsOf = (bookingId: number, prefix = '') =>
    t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.bookingId, bookingId), like(auditEvents.action, `${prefix}%`)))
      .orderBy(asc(auditEvents.id));

  async function token(scopes: string[]) {
    const made = await admin.post('/oauth/personal-access-tokens', { name: `Money ${scopes.join(' ')}`, scopes });
    expect(made.statusCode, made.body).toBe(201);
    const { token: row, accessToken } = made.json() as { token: { id: string }; accessToken: string };
    return {
      id: row.id,
      call: (method: 'POST' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
        t.app.inject({
          method,
          url,
          payload: payload as never,
          headers: { ...headers, authorization: `Bearer ${accessToken}` },
        }),
    };
  }

  it('records a standard invoice as invoice.created with its type, total and items', async () => {
    const { booking, trip } = await booked({ depositPence: 25_000 });
    const inv = (await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' })).json();
    const [event, ...more] = await eventsOf(booking.id);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      action: 'invoice.created',
      subjectType: 'invoice',
      subjectId: String(inv.id),
      bookingId: booking.id,
      tripId: trip.id,
      actorType: 'user',
      actorName: adminName,
      source: 'web',
      changes: null,
      summary: `${adminName} raised the deposit invoice ${inv.invoice_ref} for £250.00`,
      details: {
        ref: inv.invoice_ref,
        type: 'deposit',
        total: 250,
        items: [{ description: 'Trip deposit', amount: 250 }],
        addons: [],
        discount_code: null,
        discount: 0,
      },
    });
  });

  it('records a custom invoice with its add-ons and discount, and nothing for a refused one', async () => {
    const { booking, trip } = await booked({ depositPence: 0 });
    const addon = await insertAddon(t.db, trip.id, 'Single room', 29_500);
    await t.db.insert(bookingAddons).values({ bookingId: booking.id, addonId: addon.id, pricePence: 29_500 });
    const d = await discount({ amountPence: 2_000 });
    const body = custom(booking.id, {
      type: 'addon',
      items: [{ description: 'Flight upgrade', amount: '120.50' }],
      addons: [addon.id],
      discount_code: d.code,
    });
    const inv = (await admin.post('/api/invoices', body)).json();
    // refused: the add-on is billed now, an unknown code, a reference taken
    expect((await admin.post('/api/invoices', custom(booking.id, { addons: [addon.id] }))).statusCode).toBe(422);
    expect((await admin.post('/api/invoices', custom(booking.id, { discount_code: 'NOSUCH' }))).statusCode).toBe(422);
    expect((await admin.post('/api/invoices', custom(booking.id, { invoice_ref: body.invoice_ref }))).statusCode).toBe(
      422,
    );
    expect((await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' })).statusCode).toBe(
      422,
    );
    const events = await eventsOf(booking.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'invoice.created',
      subjectId: String(inv.id),
      tripId: trip.id,
      summary: `${adminName} raised the addon invoice ${body.invoice_ref} for £395.50`,
      details: {
        type: 'addon',
        total: 395.5,
        items: [{ description: 'Flight upgrade', amount: 120.5 }],
        addons: [{ id: addon.id, name: 'Single room', price: 295 }],
        discount_code: d.code,
        discount: 20,
      },
    });
  });

  it('records invoice.deleted, and nothing when the delete is refused', async () => {
    const { booking, trip } = await booked();
    const inv = (await admin.post('/api/invoices', custom(booking.id))).json();
    const kept = (await admin.post('/api/invoices', custom(booking.id))).json();
    await admin.post('/api/transactions', pay(kept, 10));
    expect((await admin.delete(`/api/invoices/${kept.id}`)).statusCode).toBe(422);
    expect((await admin.delete(`/api/invoices/${inv.id}`)).statusCode).toBe(204);
    expect((await admin.delete(`/api/invoices/${inv.id}`)).statusCode).toBe(404);
    const events = await eventsOf(booking.id, 'invoice.deleted');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      subjectType: 'invoice',
      subjectId: String(inv.id),
      bookingId: booking.id,
      tripId: trip.id,
      actorName: adminName,
      summary: `${adminName} deleted the other invoice ${inv.invoice_ref} (£120.50)`,
      details: {
        ref: inv.invoice_ref,
        type: 'other',
        total: 120.5,
        items: [{ description: 'Flight upgrade', amount: 120.5 }],
      },
    });
  });

  it('records each payment and refund with its amount, processor and invoice, and nothing for a refused one', async () => {
    const { booking, trip } = await booked();
    const inv = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'Trip', amount: 300 }] }))
    ).json();
    const paid = (await admin.post('/api/transactions', pay(inv, 250, { notes: 'By bank transfer' }))).json();
    const refund = (
      await admin.post('/api/transactions', pay(inv, '20.5', { type: 'refund', processor: 'STRIPE' }))
    ).json();
    // refused: too much, a future date, another booking's invoice
    expect((await admin.post('/api/transactions', pay(inv, 500))).statusCode).toBe(422);
    expect((await admin.post('/api/transactions', pay(inv, 1, { date: addDays(today, 1) }))).statusCode).toBe(422);
    expect(
      (await admin.post('/api/transactions', pay({ ...inv, booking_id: (await booked()).booking.id }, 1))).statusCode,
    ).toBe(422);
    const events = await eventsOf(booking.id, 'transaction.');
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      action: 'transaction.recorded',
      subjectType: 'transaction',
      subjectId: String(paid.id),
      bookingId: booking.id,
      tripId: trip.id,
      actorType: 'user',
      actorName: adminName,
      summary: `${adminName} recorded a payment of £250.00 (BACS) on ${inv.invoice_ref}`,
      details: {
        type: 'payment',
        amount: 250,
        processor: 'BACS',
        date: today,
        notes: 'By bank transfer',
        invoice_id: inv.id,
        invoice_ref: inv.invoice_ref,
      },
    });
    expect(events[1]).toMatchObject({
      subjectId: String(refund.id),
      summary: `${adminName} recorded a refund of £20.50 (STRIPE) on ${inv.invoice_ref}`,
      details: { type: 'refund', amount: 20.5 },
    });
  });

  it('writes one event for one Idempotency-Key, however often the request is replayed', async () => {
    const { booking } = await booked();
    const inv = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'Trip', amount: 1000 }] }))
    ).json();
    await admin.post('/api/transactions', pay(inv, 10), { 'idempotency-key': 'audit-once' });
    expect(
      (await admin.post('/api/transactions', pay(inv, 10), { 'idempotency-key': 'audit-once' })).headers[
        'idempotent-replayed'
      ],
    ).toBe('true');
    await Promise.all(
      Array.from({ length: 10 }, () =>
        admin.post('/api/transactions', pay(inv, 25), { 'idempotency-key': 'audit-burst' }),
      ),
    );
    expect((await admin.post('/api/transactions', pay(inv, 99), { 'idempotency-key': 'audit-once' })).statusCode).toBe(
      422,
    );
    const events = await eventsOf(booking.id, 'transaction.recorded');
    expect(events.map((e) => (e.details as { amount: number }).amount)).toEqual([10, 25]);
  });

  it('records a strike-out with the reason given, and nothing when it is refused', async () => {
    const { booking, trip } = await booked();
    const inv = (
      await admin.post('/api/invoices', custom(booking.id, { items: [{ description: 'Trip', amount: 100 }] }))
    ).json();
    const first = (await admin.post('/api/transactions', pay(inv, 60))).json();
    const second = (await admin.post('/api/transactions', pay(inv, 40, { processor: 'CHEQUE' }))).json();
    expect(
      (await admin.delete(`/api/transactions/${first.id}?reason=${encodeURIComponent('Entered twice')}`)).statusCode,
    ).toBe(204);
    expect((await admin.delete(`/api/transactions/${second.id}`)).statusCode).toBe(204);
    // refused: already struck out, too long a reason, missing
    expect((await admin.delete(`/api/transactions/${second.id}`)).statusCode).toBe(422);
    const tooLong = await admin.delete(`/api/transactions/${first.id}?reason=${'x'.repeat(501)}`);
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().errors.reason).toEqual(['The reason must not be longer than 500 characters.']);
    const events = await eventsOf(booking.id, 'transaction.struck_out');
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      subjectType: 'transaction',
      subjectId: String(first.id),
      bookingId: booking.id,
      tripId: trip.id,
      actorName: adminName,
      summary: `${adminName} struck out the payment of £60.00 (BACS) on ${inv.invoice_ref}: Entered twice`,
      details: {
        type: 'payment',
        amount: 60,
        processor: 'BACS',
        invoice_id: inv.id,
        invoice_ref: inv.invoice_ref,
        reason: 'Entered twice',
      },
    });
    expect(events[1]).toMatchObject({
      summary: `${adminName} struck out the payment of £40.00 (CHEQUE) on ${inv.invoice_ref}`,
      details: { reason: null },
    });
  });

  it('writes nothing for a request refused before it is looked at', async () => {
    const { booking } = await booked();
    const inv = (await admin.post('/api/invoices', custom(booking.id))).json();
    expect(
      (await admin.request({ method: 'POST', url: '/api/transactions', payload: pay(inv, 10), csrf: false }))
        .statusCode,
    ).toBe(419);
    expect((await (await t.signedIn(2)).post('/api/transactions', pay(inv, 10))).statusCode).toBe(403);
    expect((await t.client().delete(`/api/invoices/${inv.id}`)).statusCode).toBe(401);
    expect((await eventsOf(booking.id)).map((e) => e.action)).toEqual(['invoice.created']);
  });

  it('names the personal access token that raised an invoice, recorded and struck out a payment', async () => {
    const { booking } = await booked({ depositPence: 10_000 });
    const pat = await token(['finance:write']);
    const inv = (await pat.call('POST', `/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' })).json();
    const paid = await pat.call('POST', '/api/transactions', pay(inv, 25), { 'idempotency-key': 'token-key' });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(
      (await pat.call('POST', '/api/transactions', pay(inv, 25), { 'idempotency-key': 'token-key' })).statusCode,
    ).toBe(201);
    expect((await pat.call('DELETE', `/api/transactions/${paid.json().id}`)).statusCode).toBe(204);
    const events = await eventsOf(booking.id);
    expect(events.map((e) => e.action)).toEqual(['invoice.created', 'transaction.recorded', 'transaction.struck_out']);
    for (const e of events)
      expect(e).toMatchObject({
        actorType: 'personal_token',
        actorTokenId: pat.id,
        actorName: `${adminName} (personal access token)`,
        source: 'api',
      });
  });
});

describe('the next invoice number', () => {
  it('is read from the end of its index, not from every invoice', async () => {
    const plan = await t.db.transaction(async (tx) => {
      // a test database is small enough for the planner to prefer reading it all: ask what it can do
      await tx.execute(sql`set local enable_seqscan = off`);
      const rows = await queryRows<{ 'QUERY PLAN': string }>(tx, sql`explain select ${LAST_INVOICE_NUMBER}`);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index (Only )?Scan Backward using invoices_ref_number_idx/);
  });
});
