import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import { insertBooking } from '../../../db/factories/bookings.ts';
import { insertAddon, insertTrip } from '../../../db/factories/trips.ts';
import {
  invoiceAddons,
  invoiceItems,
  invoices,
  paymentReminders,
  scheduleRows,
  transactions,
} from '../../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

// What the list reads an invoice as owing, and which bookings' money it leaves out, on invoices
// made directly in the database (the triggers of decision 012 keep money_owed from them).

type Row = {
  kind: string;
  id: number;
  label: string;
  invoice_ref: string | null;
  traveller: string;
  outstanding: number;
  days_overdue: number;
  last_reminder_at: string | null;
};

let t: TestApp;
let admin: TestClient;
let charityTrip: number;
let openTrip: number;
const today = ukToday();
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signedIn(1);
  charityTrip = (await insertTrip(t.db, { name: 'Charity Trek', type: 'charity' })).id;
  openTrip = (await insertTrip(t.db, { name: 'Open Trek', type: 'open' })).id;
  const addon = await insertAddon(t.db, charityTrip, 'Kit bag', 2_000);
  const young = await insertBooking(t.db, charityTrip, { firstName: 'Ann', lastName: 'Young', status: 'confirmed' });
  const adamsZoe = await insertBooking(t.db, charityTrip, { firstName: 'Zoe', lastName: 'adams', status: 'confirmed' });
  const adamsBea = await insertBooking(t.db, openTrip, { firstName: 'Bea', lastName: 'Adams', status: 'provisional' });
  const cancelled = await insertBooking(t.db, charityTrip, { firstName: 'Cal', lastName: 'Gone', status: 'cancelled' });

  const invoice = async (
    bookingId: number,
    ref: string,
    items: number[],
    opts: { discount?: number; due?: string; addon?: boolean } = {},
  ) => {
    const [row] = await t.db
      .insert(invoices)
      .values({
        bookingId,
        invoiceRef: ref,
        type: 'balance',
        description: `Invoice ${ref}`,
        invoiceDate: addDays(today, -60),
        dueDate: opts.due ?? addDays(today, -45),
        discountPence: opts.discount ?? 0,
      })
      .returning();
    for (const amountPence of items)
      await t.db.insert(invoiceItems).values({ invoiceId: row!.id, description: 'Item', amountPence });
    if (opts.addon)
      await t.db
        .insert(invoiceAddons)
        .values({ invoiceId: row!.id, addonId: addon.id, name: 'Kit bag', pricePence: 2_000 });
    ids[ref] = row!.id;
    return row!;
  };
  const entry = (
    bookingId: number,
    invoiceId: number,
    amountPence: number,
    type: 'payment' | 'refund',
    deleted = false,
  ) =>
    t.db.insert(transactions).values({
      bookingId,
      invoiceId,
      invoiceType: 'balance',
      amountPence,
      type,
      processor: 'BACS',
      date: addDays(today, -30),
      deletedAt: deleted ? new Date() : null,
    });

  // items £150 + add-on £20 − discount £30 − paid £40 + refunded £10; a struck-out £100 does not count: £110
  const mixed = await invoice(young.id, 'T-MIXED', [10_000, 5_000], { discount: 3_000, addon: true });
  await entry(young.id, mixed.id, 4_000, 'payment');
  await entry(young.id, mixed.id, 1_000, 'refund');
  await entry(young.id, mixed.id, 10_000, 'payment', true);
  // a discount larger than the items takes the invoice to £0, not below: not listed
  await invoice(young.id, 'T-FREE', [2_000], { discount: 5_000 });
  // paid in full: not listed
  const paid = await invoice(adamsZoe.id, 'T-PAID', [5_000]);
  await entry(adamsZoe.id, paid.id, 5_000, 'payment');
  // paid, then refunded in full: owed again
  const refunded = await invoice(adamsBea.id, 'T-REFUNDED', [6_000], { due: addDays(today, 5) });
  await entry(adamsBea.id, refunded.id, 6_000, 'payment');
  await entry(adamsBea.id, refunded.id, 6_000, 'refund');
  // no items at all: nothing owed
  await invoice(adamsBea.id, 'T-EMPTY', []);
  // a cancelled booking's: never listed
  await invoice(cancelled.id, 'T-CANCELLED', [8_000]);

  // the schedule: the mixed invoice's instalment (its label names the invoice's row), one not yet
  // invoiced, one waived, one of £0, and the cancelled booking's
  await t.db.insert(scheduleRows).values([
    {
      bookingId: young.id,
      position: 1,
      label: 'Deposit',
      dueDate: addDays(today, -45),
      amountPence: 15_000,
      invoiceType: 'deposit',
      invoiceId: mixed.id,
    },
    {
      bookingId: adamsZoe.id,
      position: 1,
      label: 'Balance',
      dueDate: addDays(today, 10),
      amountPence: 30_000,
      invoiceType: 'deposit',
    },
    {
      bookingId: adamsZoe.id,
      position: 2,
      label: 'Waived',
      dueDate: addDays(today, 20),
      amountPence: 1_000,
      invoiceType: 'balance',
      waived: true,
      waivedReason: 'Free place',
    },
    {
      bookingId: adamsBea.id,
      position: 1,
      label: 'Nothing',
      dueDate: addDays(today, 20),
      amountPence: 0,
      invoiceType: 'deposit',
    },
    {
      bookingId: cancelled.id,
      position: 1,
      label: 'Gone',
      dueDate: addDays(today, 20),
      amountPence: 7_000,
      invoiceType: 'deposit',
    },
  ]);
  const [balance] = await t.db
    .select({ id: scheduleRows.id })
    .from(scheduleRows)
    .where(eq(scheduleRows.label, 'Balance'));
  ids.balance = balance!.id;
  await t.db.insert(paymentReminders).values({
    scheduleRowId: ids.balance,
    bookingId: adamsZoe.id,
    offsetDays: -7,
    email: adamsZoe.email,
    sentOn: addDays(today, -1),
    outcome: 'sent',
    createdAt: new Date(Date.now() - 86_400_000),
  });
});
afterAll(() => t.close());

const list = async (query = '') => {
  const res = await admin.get(`/api/money-due${query ? `?${query}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Row[]; total: number; buckets: Record<string, number>; total_outstanding: number };
};
const brief = (rows: Row[]) => rows.map((r) => [r.invoice_ref ?? r.label, r.outstanding]);

describe('what the money-due list reads as owed', () => {
  it("derives each invoice's outstanding by decision 006 and leaves out what is paid, waived, £0 or cancelled", async () => {
    const body = await list();
    expect(brief(body.data)).toEqual([
      ['T-MIXED', 110],
      ['T-REFUNDED', 60],
      ['Balance', 300],
    ]);
    expect(body.data[0]!.label).toBe('Deposit');
    expect(body.data[0]!.days_overdue).toBe(45);
    expect(body.total).toBe(3);
    expect(body.total_outstanding).toBe(470);
    expect(body.buckets).toEqual({ not_due: 360, days_1_30: 0, days_31_60: 110, days_61_90: 0, days_90_plus: 0 });
  });

  it('filters by trip, trip type, overdue and due within N days, the totals adding up', async () => {
    const all = await list();
    const charity = await list(`trip_id=${charityTrip}`);
    const open = await list(`trip_id=${openTrip}`);
    expect(brief(charity.data)).toEqual([
      ['T-MIXED', 110],
      ['Balance', 300],
    ]);
    expect(brief(open.data)).toEqual([['T-REFUNDED', 60]]);
    expect(charity.total_outstanding + open.total_outstanding).toBe(all.total_outstanding);
    expect(brief((await list('trip_type=charity')).data)).toEqual(brief(charity.data));
    expect(brief((await list('overdue=1')).data)).toEqual([['T-MIXED', 110]]);
    expect(brief((await list(`trip_id=${charityTrip}&overdue=1`)).data)).toEqual([['T-MIXED', 110]]);
    expect(brief((await list('due_within=7')).data)).toEqual([
      ['T-MIXED', 110],
      ['T-REFUNDED', 60],
    ]);
  });

  it('sorts travellers by last name, then first name, both in the direction asked (case aside)', async () => {
    const names = async (dir: string) => (await list(`sort=traveller&dir=${dir}`)).data.map((r) => r.traveller);
    expect(await names('asc')).toEqual(['Bea Adams', 'Zoe adams', 'Ann Young']);
    expect(await names('desc')).toEqual(['Ann Young', 'Zoe adams', 'Bea Adams']);
  });

  it('sorts by the last reminder with the never-reminded last, either way', async () => {
    for (const dir of ['asc', 'desc']) {
      const rows = (await list(`sort=last_reminder&dir=${dir}`)).data;
      expect(rows[0]!.label).toBe('Balance');
      expect(rows[0]!.last_reminder_at).not.toBeNull();
      expect(rows.slice(1).map((r) => r.last_reminder_at)).toEqual([null, null]);
    }
  });

  it('past the last page: no rows, the same totals', async () => {
    const body = await list('page=5');
    expect(body.data).toEqual([]);
    expect(body.total).toBe(3);
    expect(body.total_outstanding).toBe(470);
  });
});
