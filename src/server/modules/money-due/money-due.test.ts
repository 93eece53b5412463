import { asc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertTrip } from '../../../db/factories/trips.ts';
import { auditEvents, invoices, refundsDue } from '../../../db/schema/index.ts';
import { MoneyDueService } from './service.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

let t: TestApp;
let admin: TestClient;
let late: number;
let onTime: number;
let tripA: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  // trip A departs soon: a booking made today owes its balance today (due before departure − 56 days)
  tripA = (
    await insertTrip(t.db, {
      name: 'Alpha Trek',
      type: 'school',
      costPence: 100_000,
      depositPence: 20_000,
      departureDate: addDays(ukToday(), 30),
      returnDate: addDays(ukToday(), 40),
    })
  ).id;
  const tripB = (
    await insertTrip(t.db, {
      name: 'Bravo Trek',
      costPence: 50_000,
      depositPence: 5_000,
      departureDate: addDays(ukToday(), 200),
      returnDate: addDays(ukToday(), 210),
    })
  ).id;
  const book = async (tripId: number, last: string) =>
    (
      await admin.post('/api/bookings', {
        trip_id: tripId,
        title: 'Ms',
        first_name: 'Cara',
        last_name: last,
        preferred_name: 'Cara',
        email: `cara.${last.toLowerCase()}@example.test`,
        as_on_passport: true,
        terms_accepted: true,
      })
    ).json().id as number;
  late = await book(tripA, 'Late');
  onTime = await book(tripB, 'Early');
  // the late traveller's deposit invoice, part paid, then moved 40 days into the past
  const invoice = (await admin.post(`/api/bookings/${late}/invoices`, { invoice_type: 'deposit' })).json();
  await admin.post('/api/transactions', {
    booking_id: late,
    invoice_id: invoice.id,
    invoice_type: 'deposit',
    amount: 50,
    type: 'payment',
    processor: 'BACS',
    date: ukToday(),
  });
  const { invoices } = await import('../../../db/schema/index.ts');
  const { eq } = await import('drizzle-orm');
  await t.db
    .update(invoices)
    .set({ invoiceDate: addDays(ukToday(), -45), dueDate: addDays(ukToday(), -40) })
    .where(eq(invoices.id, invoice.id));
});
afterAll(() => t.close());

describe('GET /api/money-due', () => {
  it('lists unpaid invoices and instalments not yet invoiced, with totals by how overdue', async () => {
    const res = await admin.get('/api/money-due');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const rows = body.data.map(
      (r: { kind: string; booking_id: number; label: string; outstanding: number; days_overdue: number }) => [
        r.kind,
        r.booking_id === late ? 'late' : 'early',
        r.label,
        r.outstanding,
        r.days_overdue,
      ],
    );
    expect(rows).toEqual([
      ['invoice', 'late', 'Deposit', 150, 40],
      ['instalment', 'late', 'Balance', 800, 0],
      ['instalment', 'early', 'Deposit', 50, 0],
      ['instalment', 'early', 'Balance', 450, 0],
    ]);
    expect(body.buckets).toEqual({ not_due: 1300, days_1_30: 0, days_31_60: 150, days_61_90: 0, days_90_plus: 0 });
    expect(body.total_outstanding).toBe(1450);
    expect(body.total).toBe(4);
  });

  it('filters by trip, trip type, overdue and due within N days, and sorts', async () => {
    const q = async (query: string) => (await admin.get(`/api/money-due?${query}`)).json();
    expect((await q(`trip_id=${tripA}`)).total).toBe(2);
    expect((await q('trip_type=school')).total).toBe(2);
    expect((await q('overdue=1')).data.map((r: { invoice_ref: string | null }) => r.invoice_ref)).toEqual([
      expect.stringMatching(/^INV-/),
    ]);
    expect((await q('due_within=20')).total).toBe(3);
    expect((await q('sort=outstanding&dir=desc')).data[0].outstanding).toBe(800);
    expect((await admin.get('/api/money-due?sort=nonsense')).statusCode).toBe(422);
  });

  it('downloads the filtered list as an xlsx in the order asked, with its totals, and records the download', async () => {
    const res = await admin.get('/api/money-due/export?sort=outstanding&dir=desc');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="money-due-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Money due')!;
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual([
      'Traveller',
      'Booking',
      'Trip',
      'Departure',
      'Instalment or invoice',
      'Invoice',
      'Due',
      'Days overdue',
      'Outstanding (£)',
      'Last reminder',
    ]);
    const body = (await admin.get('/api/money-due?sort=outstanding&dir=desc')).json();
    const rows = [2, 3, 4, 5].map((n) => values(n));
    expect(rows.map((r) => [r[0], r[4], r[8]])).toEqual(
      body.data.map((r: { traveller: string; label: string; outstanding: number }) => [
        r.traveller,
        r.label,
        r.outstanding,
      ]),
    );
    expect(rows[0]![6]).toBeInstanceOf(Date);
    expect(values(6)).toEqual(['Total', ...Array(7).fill(undefined), 1450]);
    expect(values(7)).toEqual(['Not yet due', ...Array(7).fill(undefined), 1300]);
    // a filter bounds it
    const overdue = new ExcelJS.Workbook();
    await overdue.xlsx.load((await admin.get('/api/money-due/export?overdue=1')).rawPayload as unknown as ArrayBuffer);
    expect(overdue.getWorksheet('Money due')!.getRow(3).getCell(1).value).toBe('Total');
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'export.money_due'))
      .orderBy(asc(auditEvents.id))
      .limit(1);
    expect(event).toMatchObject({
      summary: expect.stringContaining('downloaded the money due (4 rows)'),
      details: { filters: { sort: 'outstanding', dir: 'desc' }, rows: 4, format: 'xlsx' },
    });
    expect((await admin.get('/api/money-due/export?due_within=-1')).statusCode).toBe(422);
  });

  it('leaves out cancelled bookings and waived instalments', async () => {
    const schedule = (await admin.get(`/api/bookings/${onTime}/schedule`)).json();
    await admin.patch(`/api/schedule-rows/${schedule.rows[0].id}`, { waived: true, reason: 'Free place' });
    expect(
      (await admin.get(`/api/money-due?trip_type=charity`)).json().data.map((r: { label: string }) => r.label),
    ).toEqual(['Balance']);
  });
});

describe('GET /api/money-due/refunds', () => {
  it('lists the oldest refunds owed first (then by invoice), with how many are owed in all', async () => {
    const trip = await insertTrip(t.db, {
      name: 'Refund Ridge',
      costPence: 40_000,
      depositPence: 10_000,
      departureDate: addDays(ukToday(), 150),
      returnDate: addDays(ukToday(), 160),
    });
    // three deposits paid in full, each then discounted by £10, £20 and £30: overpaid by as much
    const owed: Array<{ invoice: number; booking: number; ref: string }> = [];
    for (const [i, last] of ['Ash', 'Birch', 'Cedar'].entries()) {
      const booking = (
        await admin.post('/api/bookings', {
          trip_id: trip.id,
          title: 'Mr',
          first_name: 'Rory',
          last_name: last,
          preferred_name: 'Rory',
          email: `rory.${last.toLowerCase()}@example.test`,
          as_on_passport: true,
          terms_accepted: true,
        })
      ).json() as { id: number; ref: string };
      const invoice = (await admin.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' })).json();
      const paid = await admin.post('/api/transactions', {
        booking_id: booking.id,
        invoice_id: invoice.id,
        invoice_type: 'deposit',
        amount: 100,
        type: 'payment',
        processor: 'BACS',
        date: ukToday(),
      });
      expect(paid.statusCode, paid.body).toBe(201);
      await t.db
        .update(invoices)
        .set({ discountPence: (i + 1) * 1_000 })
        .where(eq(invoices.id, invoice.id));
      owed.push({ invoice: invoice.id, booking: booking.id, ref: booking.ref });
    }
    // Cedar's owed longest; Ash's and Birch's since the same moment (the invoice decides)
    const at = (iso: string, invoice: number) =>
      t.db
        .update(refundsDue)
        .set({ since: new Date(iso) })
        .where(eq(refundsDue.invoiceId, invoice));
    await at('2026-01-02T09:00:00Z', owed[0]!.invoice);
    await at('2026-01-02T09:00:00Z', owed[1]!.invoice);
    await at('2026-01-01T09:00:00Z', owed[2]!.invoice);

    const res = await admin.get('/api/money-due/refunds');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      data: Array<{ invoice_id: number; overpaid: number; traveller: string }>;
      total: number;
    };
    const all = await t.db.select().from(refundsDue);
    expect(body.total).toBe(all.length);
    const ours = body.data.filter((r) => owed.some((o) => o.invoice === r.invoice_id));
    expect(ours.map((r) => [r.traveller, r.overpaid])).toEqual([
      ['Rory Cedar', 30],
      ['Rory Ash', 10],
      ['Rory Birch', 20],
    ]);
    // fewer shown than owed: the oldest, and still the whole count
    const two = await new MoneyDueService(t.db).refundsDue(2);
    expect(two.total).toBe(all.length);
    expect(two.data.map((r) => r.invoice_id)).toEqual(body.data.slice(0, 2).map((r) => r.invoice_id));
    expect(two.data[0]).toMatchObject({
      invoice_id: owed[2]!.invoice,
      booking_ref: owed[2]!.ref,
      booking_id: owed[2]!.booking,
    });
  });
});
