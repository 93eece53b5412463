import ExcelJS from 'exceljs';
import { sql, type SQL } from 'drizzle-orm';
import { toDdMmYyyy } from '../../../contract/dates.ts';
import { penceToPounds } from '../../../contract/money.ts';
import { REPORT_PREVIEW_ROWS, REPORTS, type Report, type ReportName } from '../../../contract/reports.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { audit } from '../../audit/audit.ts';
import { escapeCell } from '../../common/spreadsheet.ts';

type Column = Report['columns'][number];
type Row = Record<string, string | number | null>;
type Days = { from: string; to: string; at: string };

const iso = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
const money = (v: unknown) => penceToPounds(Number(v ?? 0));
// an invoice's total as money_owed_of (migration 0014) reckons it: items and add-ons, less the discount it could take
const SUBTOTAL = sql`coalesce((select sum(ii.amount_pence) from invoice_items ii where ii.invoice_id = i.id), 0) + coalesce((select sum(ia.price_pence) from invoice_addons ia where ia.invoice_id = i.id), 0)`;

/** Each report: its columns and its rows (pence already in pounds), from one statement. */
const DEFINITIONS: Record<
  ReportName,
  { columns: Column[]; rows: (db: Db, d: Days) => Promise<Row[]>; covers: (d: Days) => string }
> = {
  payments: {
    covers: (d) => `Payments and refunds dated ${toDdMmYyyy(d.from)} to ${toDdMmYyyy(d.to)}`,
    columns: [
      { key: 'trip', label: 'Trip', kind: 'text' },
      { key: 'processor', label: 'Processor', kind: 'text' },
      { key: 'payments', label: 'Payments', kind: 'int' },
      { key: 'received', label: 'Received', kind: 'money' },
      { key: 'refunds', label: 'Refunds', kind: 'int' },
      { key: 'refunded', label: 'Refunded', kind: 'money' },
      { key: 'net', label: 'Net', kind: 'money' },
    ],
    rows: async (db, d) =>
      (
        await queryRows<{
          trip: string;
          processor: string;
          payments: number;
          received: string;
          refunds: number;
          refunded: string;
        }>(
          db,
          sql`select t.name as trip, x.processor,
              count(*) filter (where x.type = 'payment')::int as payments, coalesce(sum(x.amount_pence) filter (where x.type = 'payment'), 0) as received,
              count(*) filter (where x.type = 'refund')::int as refunds, coalesce(sum(x.amount_pence) filter (where x.type = 'refund'), 0) as refunded
            from transactions x join bookings b on b.id = x.booking_id join trips t on t.id = b.trip_id
            where x.deleted_at is null and x.date between ${d.from}::date and ${d.to}::date
            group by t.id, t.name, x.processor order by lower(t.name), t.id, x.processor`,
        )
      ).map((r) => ({
        trip: r.trip,
        processor: r.processor,
        payments: r.payments,
        received: money(r.received),
        refunds: r.refunds,
        refunded: money(r.refunded),
        net: money(Number(r.received) - Number(r.refunded)),
      })),
  },
  'aged-debt': {
    covers: (d) => `What is owed, aged on ${toDdMmYyyy(d.at)}`,
    columns: [
      { key: 'trip', label: 'Trip', kind: 'text' },
      { key: 'departure', label: 'Departs', kind: 'date' },
      { key: 'not_due', label: 'Not yet due', kind: 'money' },
      { key: 'days_1_30', label: '1–30 days', kind: 'money' },
      { key: 'days_31_60', label: '31–60 days', kind: 'money' },
      { key: 'days_61_90', label: '61–90 days', kind: 'money' },
      { key: 'days_90_plus', label: 'Over 90 days', kind: 'money' },
      { key: 'total', label: 'Total', kind: 'money' },
    ],
    rows: async (db, d) => {
      const overdue = (from: number, to?: number): SQL =>
        sql`${d.at}::date - m.due_date between ${from} and ${to ?? 1_000_000}`;
      const rows = await queryRows<Record<string, string | Date>>(
        db,
        sql`select t.name as trip, t.departure_date as departure,
            coalesce(sum(m.outstanding_pence) filter (where m.due_date >= ${d.at}::date), 0) as not_due,
            coalesce(sum(m.outstanding_pence) filter (where ${overdue(1, 30)}), 0) as days_1_30,
            coalesce(sum(m.outstanding_pence) filter (where ${overdue(31, 60)}), 0) as days_31_60,
            coalesce(sum(m.outstanding_pence) filter (where ${overdue(61, 90)}), 0) as days_61_90,
            coalesce(sum(m.outstanding_pence) filter (where ${overdue(91)}), 0) as days_90_plus,
            sum(m.outstanding_pence) as total
          from money_owed m join trips t on t.id = m.trip_id
          group by t.id, t.name, t.departure_date order by t.departure_date, t.id`,
      );
      return rows.map((r) => ({
        trip: r.trip as string,
        departure: iso(r.departure!),
        not_due: money(r.not_due),
        days_1_30: money(r.days_1_30),
        days_31_60: money(r.days_31_60),
        days_61_90: money(r.days_61_90),
        days_90_plus: money(r.days_90_plus),
        total: money(r.total),
      }));
    },
  },
  'trip-profit': {
    covers: (d) => `Trips departing ${toDdMmYyyy(d.from)} to ${toDdMmYyyy(d.to)}`,
    columns: [
      { key: 'trip', label: 'Trip', kind: 'text' },
      { key: 'departure', label: 'Departs', kind: 'date' },
      { key: 'bookings', label: 'Bookings', kind: 'int' },
      { key: 'invoiced', label: 'Invoiced', kind: 'money' },
      { key: 'discounts', label: 'Discounts given', kind: 'money' },
      { key: 'received', label: 'Received', kind: 'money' },
      { key: 'refunded', label: 'Refunded', kind: 'money' },
      { key: 'outstanding', label: 'Outstanding', kind: 'money' },
    ],
    rows: async (db, d) => {
      const rows = await queryRows<Record<string, string | number | Date>>(
        db,
        sql`select t.name as trip, t.departure_date as departure,
            (select count(*) from bookings b where b.trip_id = t.id and b.status <> 'cancelled')::int as bookings,
            (select coalesce(sum(s.subtotal - greatest(0, least(i.discount_pence, s.subtotal))), 0) from invoices i join bookings b on b.id = i.booking_id cross join lateral (select ${SUBTOTAL} as subtotal) s where b.trip_id = t.id) as invoiced,
            (select coalesce(sum(greatest(0, least(i.discount_pence, s.subtotal))), 0) from invoices i join bookings b on b.id = i.booking_id cross join lateral (select ${SUBTOTAL} as subtotal) s where b.trip_id = t.id) as discounts,
            (select coalesce(sum(x.amount_pence), 0) from transactions x join bookings b on b.id = x.booking_id where b.trip_id = t.id and x.deleted_at is null and x.type = 'payment') as received,
            (select coalesce(sum(x.amount_pence), 0) from transactions x join bookings b on b.id = x.booking_id where b.trip_id = t.id and x.deleted_at is null and x.type = 'refund') as refunded,
            (select coalesce(sum(m.outstanding_pence), 0) from money_owed m where m.trip_id = t.id) as outstanding
          from trips t
          where t.deleted_at is null and t.departure_date between ${d.from}::date and ${d.to}::date
          order by t.departure_date, t.id`,
      );
      return rows.map((r) => ({
        trip: r.trip as string,
        departure: iso(r.departure as string | Date),
        bookings: Number(r.bookings),
        invoiced: money(r.invoiced),
        discounts: money(r.discounts),
        received: money(r.received),
        refunded: money(r.refunded),
        outstanding: money(r.outstanding),
      }));
    },
  },
  'discount-usage': {
    covers: (d) => `Invoices dated ${toDdMmYyyy(d.from)} to ${toDdMmYyyy(d.to)} with a discount`,
    columns: [
      { key: 'code', label: 'Code', kind: 'text' },
      { key: 'trip', label: 'Trip', kind: 'text' },
      { key: 'uses', label: 'Uses', kind: 'int' },
      { key: 'discounted', label: 'Discounted', kind: 'money' },
    ],
    rows: async (db, d) =>
      (
        await queryRows<{ code: string; trip: string; uses: number; discounted: string }>(
          db,
          sql`select coalesce(i.discount_code, '(no code)') as code, t.name as trip, count(*)::int as uses, sum(greatest(0, least(i.discount_pence, s.subtotal))) as discounted
            from invoices i join bookings b on b.id = i.booking_id join trips t on t.id = b.trip_id cross join lateral (select ${SUBTOTAL} as subtotal) s
            where i.invoice_date between ${d.from}::date and ${d.to}::date and (i.discount_pence > 0 or i.discount_code is not null)
            group by 1, t.id, t.name order by 1, lower(t.name), t.id`,
        )
      ).map((r) => ({ code: r.code, trip: r.trip, uses: r.uses, discounted: money(r.discounted) })),
  },
  'card-payments': {
    covers: (d) => `Card payments and refunds Stripe reported, dated ${toDdMmYyyy(d.from)} to ${toDdMmYyyy(d.to)}`,
    columns: [
      { key: 'date', label: 'Date', kind: 'date' },
      { key: 'booking', label: 'Booking', kind: 'text' },
      { key: 'traveller', label: 'Traveller', kind: 'text' },
      { key: 'trip', label: 'Trip', kind: 'text' },
      { key: 'invoice', label: 'Invoice', kind: 'text' },
      { key: 'type', label: 'Type', kind: 'text' },
      { key: 'amount', label: 'Amount', kind: 'money' },
      { key: 'stripe_id', label: 'Stripe id', kind: 'text' },
    ],
    rows: async (db, d) =>
      (
        await queryRows<{
          date: string | Date;
          booking: string;
          first_name: string;
          last_name: string;
          trip: string;
          invoice: string;
          type: string;
          amount: string;
          stripe_id: string;
        }>(
          db,
          sql`select x.date, b.ref as booking, b.first_name, b.last_name, t.name as trip, i.invoice_ref as invoice, x.type, x.amount_pence as amount, x.provider_ref as stripe_id
            from transactions x join invoices i on i.id = x.invoice_id join bookings b on b.id = x.booking_id join trips t on t.id = b.trip_id
            where x.deleted_at is null and x.processor = 'STRIPE' and x.provider_ref is not null and x.date between ${d.from}::date and ${d.to}::date
            order by x.date, x.id`,
        )
      ).map((r) => ({
        date: iso(r.date),
        booking: r.booking,
        traveller: `${r.first_name} ${r.last_name}`,
        trip: r.trip,
        invoice: r.invoice,
        type: r.type === 'refund' ? 'Refund' : 'Payment',
        amount: money(r.type === 'refund' ? -Number(r.amount) : Number(r.amount)),
        stripe_id: r.stripe_id,
      })),
  },
};

/**
 * The finance reports: each one statement over the office's money, previewed on
 * screen (its first rows and the sums of all of them) and downloaded whole as an .xlsx, each
 * download recorded in the history.
 */
export class ReportService {
  constructor(private readonly db: Db) {}

  /** The days a report covers: from–to (default: this calendar year), or at (default: today). */
  static days(today: string, q: { from?: string | undefined; to?: string | undefined; at?: string | undefined }): Days {
    return {
      from: q.from ?? `${today.slice(0, 4)}-01-01`,
      to: q.to ?? `${today.slice(0, 4)}-12-31`,
      at: q.at ?? today,
    };
  }

  async report(name: ReportName, days: Days, all = false): Promise<Report & { allRows: Row[] }> {
    const def = DEFINITIONS[name];
    const rows = await def.rows(this.db, days);
    const totals: Record<string, number> = {};
    for (const c of def.columns) {
      if (c.kind === 'money')
        totals[c.key] = penceToPounds(rows.reduce((s, r) => s + Math.round(Number(r[c.key] ?? 0) * 100), 0));
      if (c.kind === 'int') totals[c.key] = rows.reduce((s, r) => s + Number(r[c.key] ?? 0), 0);
    }
    const range = REPORTS[name].days === 'range';
    return {
      name,
      title: REPORTS[name].title,
      covers: def.covers(days),
      params: { from: range ? days.from : null, to: range ? days.to : null, at: range ? null : days.at },
      columns: def.columns,
      rows: all ? rows : rows.slice(0, REPORT_PREVIEW_ROWS),
      totals,
      total_rows: rows.length,
      allRows: rows,
    };
  }

  /** The whole report as an .xlsx: its title and days, the columns, every row and the totals; recorded. */
  async workbook(name: ReportName, days: Days): Promise<{ file: string; body: Buffer }> {
    const r = await this.report(name, days, true);
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet(r.title.slice(0, 31));
    sheet.addRow([r.title]).font = { bold: true, size: 14 };
    sheet.addRow([r.covers]);
    sheet.addRow([]);
    const header = sheet.addRow(r.columns.map((c) => c.label));
    header.font = { bold: true };
    r.columns.forEach((c, i) => {
      sheet.getColumn(i + 1).width = c.kind === 'text' ? 32 : 14;
      if (c.kind === 'money') sheet.getColumn(i + 1).numFmt = '#,##0.00';
      if (c.kind === 'date') sheet.getColumn(i + 1).numFmt = 'dd/mm/yyyy';
    });
    for (const row of r.allRows) {
      sheet.addRow(
        r.columns.map((c) => {
          const v = row[c.key];
          if (v === null || v === undefined) return null;
          if (c.kind === 'date') return new Date(`${String(v)}T00:00:00Z`);
          return typeof v === 'string' ? escapeCell(v) : v;
        }),
      );
    }
    const totals = sheet.addRow(r.columns.map((c, i) => (i === 0 ? 'Total' : (r.totals[c.key] ?? null))));
    totals.font = { bold: true };
    sheet.views = [{ state: 'frozen', ySplit: 4 }];
    await audit(this.db, {
      action: 'export.report',
      subject: { type: 'report', id: null },
      summary: `downloaded the ${r.title.toLowerCase()} report (${r.covers.charAt(0).toLowerCase()}${r.covers.slice(1)}; ${r.total_rows} ${r.total_rows === 1 ? 'row' : 'rows'})`,
      details: { report: name, ...r.params, rows: r.total_rows },
    });
    const stamp = REPORTS[name].days === 'range' ? `${days.from}-to-${days.to}` : days.at;
    return { file: `${name}-${stamp}.xlsx`, body: Buffer.from(await book.xlsx.writeBuffer()) };
  }
}
