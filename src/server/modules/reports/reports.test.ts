import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, ukToday } from '../../../contract/dates.ts';
import type { Report } from '../../../contract/reports.ts';
import { queryRows } from '../../../db/client.ts';
import { auditEvents } from '../../../db/schema/index.ts';
import { seedDemo } from '../../../db/seed/demo.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../../tests/support/test-app.ts';

// The finance reports over the demo office: each total equals a plain SQL sum written
// another way, to the penny; the .xlsx reads back the same rows and totals; a download is in the
// history; bad days and unknown reports are refused.

let t: TestApp;
let admin: TestClient;
const today = ukToday();
const from = addDays(today, -400);
const to = addDays(today, 400);

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.db, { dataDir: t.config.dataDir, today: new Date(`${today}T12:00:00Z`) });
  admin = await t.signedIn(1);
  // the whole demo office, beside another test file on a two-core machine: longer than a minute at worst
}, 240_000);
afterAll(() => t.close());

const one = async (text: ReturnType<typeof sql>) =>
  Number(Object.values((await queryRows<Record<string, unknown>>(t.db, text))[0]!)[0] ?? 0);
const get = async (name: string, query: string) => {
  const res = await admin.get(`/api/reports/${name}?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Report;
};
const xlsx = async (name: string, query: string) => {
  const res = await admin.get(`/api/reports/${name}?${query}&format=xlsx`);
  expect(res.statusCode, res.body).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  return { res, rows: (book.worksheets[0]!.getSheetValues() as unknown[][]).filter(Boolean).map((r) => r.slice(1)) };
};

describe('the payments received report', () => {
  it('sums to the penny what the transactions of those days hold, payments less refunds, deleted ones aside', async () => {
    const r = await get('payments', `from=${from}&to=${to}`);
    expect(r.total_rows).toBeGreaterThan(0);
    const net = await one(
      sql`select coalesce(sum(case when type = 'payment' then amount_pence else -amount_pence end), 0) from transactions where deleted_at is null and date between ${from}::date and ${to}::date`,
    );
    expect(Math.round(r.totals.net! * 100)).toBe(net);
    expect(r.totals.payments).toBe(
      await one(
        sql`select count(*) from transactions where deleted_at is null and type = 'payment' and date between ${from}::date and ${to}::date`,
      ),
    );
    // by processor: each processor's rows add up to its transactions
    for (const processor of ['STRIPE', 'BACS']) {
      const rows = (await xlsx('payments', `from=${from}&to=${to}`)).rows
        .slice(3, -1)
        .filter((row) => row[1] === processor);
      const received = rows.reduce((s, row) => s + Math.round(Number(row[3]) * 100), 0);
      expect(received, processor).toBe(
        await one(
          sql`select coalesce(sum(amount_pence), 0) from transactions where deleted_at is null and type = 'payment' and processor = ${processor} and date between ${from}::date and ${to}::date`,
        ),
      );
    }
  });

  it('downloads every row with the totals, recorded in the history', async () => {
    const r = await get('payments', `from=${from}&to=${to}`);
    const { res, rows } = await xlsx('payments', `from=${from}&to=${to}`);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="payments-${from}-to-${to}.xlsx"`);
    expect(rows[0]).toEqual(['Payments received']);
    expect(rows[2]).toEqual(['Trip', 'Processor', 'Payments', 'Received', 'Refunds', 'Refunded', 'Net']);
    expect(rows.length - 4).toBe(r.total_rows);
    expect(rows.at(-1)![0]).toBe('Total');
    expect(rows.at(-1)![6]).toBe(r.totals.net);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'export.report'));
    expect(event).toMatchObject({ details: { report: 'payments', from, to, rows: r.total_rows } });
    expect(event!.summary).toMatch(
      /downloaded the payments received report \(payments and refunds dated .+; \d+ rows\)$/,
    );
  });
});

describe('the aged debt report', () => {
  it('ages what is owed on the day asked, and its buckets add up to what money_owed holds', async () => {
    const r = await get('aged-debt', `at=${today}`);
    expect(Math.round(r.totals.total! * 100)).toBe(
      await one(sql`select coalesce(sum(outstanding_pence), 0) from money_owed`),
    );
    const buckets = ['not_due', 'days_1_30', 'days_31_60', 'days_61_90', 'days_90_plus'].reduce(
      (s, k) => s + Math.round(r.totals[k]! * 100),
      0,
    );
    expect(buckets).toBe(Math.round(r.totals.total! * 100));
    expect(Math.round(r.totals.not_due! * 100)).toBe(
      await one(sql`select coalesce(sum(outstanding_pence), 0) from money_owed where due_date >= ${today}::date`),
    );
    // a year on, nothing is "not yet due" that falls due before then
    const later = await get('aged-debt', `at=${addDays(today, 365)}`);
    expect(Math.round(later.totals.not_due! * 100)).toBe(
      await one(
        sql`select coalesce(sum(outstanding_pence), 0) from money_owed where due_date >= ${addDays(today, 365)}::date`,
      ),
    );
    expect(r.params).toEqual({ from: null, to: null, at: today });
  });
});

describe('the trip profit view', () => {
  it('gives each trip departing in the days its bookings, invoiced, discounts, received, refunded and outstanding, as plain sums', async () => {
    const r = await get('trip-profit', `from=${from}&to=${to}`);
    expect(r.total_rows).toBe(
      await one(
        sql`select count(*) from trips where deleted_at is null and departure_date between ${from}::date and ${to}::date`,
      ),
    );
    const received =
      await one(sql`select coalesce(sum(x.amount_pence), 0) from transactions x join bookings b on b.id = x.booking_id join trips t on t.id = b.trip_id
      where x.deleted_at is null and x.type = 'payment' and t.deleted_at is null and t.departure_date between ${from}::date and ${to}::date`);
    expect(Math.round(r.totals.received! * 100)).toBe(received);
    const items =
      await one(sql`select coalesce(sum(ii.amount_pence), 0) from invoice_items ii join invoices i on i.id = ii.invoice_id join bookings b on b.id = i.booking_id join trips t on t.id = b.trip_id
      where t.deleted_at is null and t.departure_date between ${from}::date and ${to}::date`);
    const addons =
      await one(sql`select coalesce(sum(ia.price_pence), 0) from invoice_addons ia join invoices i on i.id = ia.invoice_id join bookings b on b.id = i.booking_id join trips t on t.id = b.trip_id
      where t.deleted_at is null and t.departure_date between ${from}::date and ${to}::date`);
    expect(Math.round((r.totals.invoiced! + r.totals.discounts!) * 100)).toBe(items + addons);
    expect(r.totals.bookings).toBe(
      await one(
        sql`select count(*) from bookings b join trips t on t.id = b.trip_id where b.status <> 'cancelled' and t.deleted_at is null and t.departure_date between ${from}::date and ${to}::date`,
      ),
    );
  });
});

describe('the discount usage report', () => {
  it('counts each code’s uses and what it took off', async () => {
    const r = await get('discount-usage', `from=${from}&to=${to}`);
    expect(r.totals.uses).toBe(
      await one(
        sql`select count(*) from invoices where invoice_date between ${from}::date and ${to}::date and (discount_pence > 0 or discount_code is not null)`,
      ),
    );
    expect(r.columns.map((c) => c.key)).toEqual(['code', 'trip', 'uses', 'discounted']);
  });
});

describe('refusals', () => {
  it('an unknown report is not found; days the wrong way round or not days are refused; staff only', async () => {
    expect((await admin.get('/api/reports/everything')).statusCode).toBe(404);
    const bad = await admin.get(`/api/reports/payments?from=${today}&to=${addDays(today, -1)}`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ to: ['The to date must be on or after the from date.'] });
    expect((await admin.get('/api/reports/aged-debt?at=yesterday')).json().errors).toEqual({
      at: ['The at date must be a real date.'],
    });
    expect((await admin.get('/api/reports/payments?format=pdf')).json().errors).toEqual({
      format: ['The format must be json or xlsx.'],
    });
    const charity = await t.signedIn(2);
    expect((await charity.get('/api/reports/payments')).statusCode).toBe(403);
    // the preview: at most 50 rows, the totals over all
    const r = await get('trip-profit', 'from=2000-01-01&to=2099-12-31');
    expect(r.rows.length).toBeLessThanOrEqual(50);
    expect(r.params).toEqual({ from: '2000-01-01', to: '2099-12-31', at: null });
  });
});
