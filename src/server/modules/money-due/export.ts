import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { z } from 'zod';
import { AGE_BUCKET_LABELS, type moneyDueQuery } from '../../../contract/money-due.ts';
import type { Db } from '../../../db/client.ts';
import { audit } from '../../audit/audit.ts';
import { escapeCell } from '../../common/spreadsheet.ts';
import type { MoneyDueService } from './service.ts';

type Query = z.output<typeof moneyDueQuery>;

const COLUMNS = [
  { header: 'Traveller', key: 'traveller', width: 24 },
  { header: 'Booking', key: 'booking_ref', width: 12 },
  { header: 'Trip', key: 'trip_name', width: 32 },
  { header: 'Departure', key: 'departure', width: 12, date: true },
  { header: 'Instalment or invoice', key: 'label', width: 28 },
  { header: 'Invoice', key: 'invoice_ref', width: 12 },
  { header: 'Due', key: 'due_date', width: 12, date: true },
  { header: 'Days overdue', key: 'days_overdue', width: 13 },
  { header: 'Outstanding (£)', key: 'outstanding', width: 16, money: true },
  { header: 'Last reminder', key: 'last_reminder_at', width: 18, time: true },
] as const;

const asDay = (iso: string) => new Date(`${iso.slice(0, 10)}T00:00:00Z`);

export const moneyDueFileName = (today: string) => `money-due-${today}.xlsx`;

/** The filters of a download, as the history records them: only those given. */
function filtersOf(q: Query) {
  const { page: _page, ...rest } = q;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
}

/**
 * Money due as a real .xlsx ("an xlsx download"), every row the filters allow in the
 * order of the screen, written as it is read; a last row totals it. Recorded in the history before
 * the first row leaves.
 */
export function moneyDueSpreadsheet(db: Db, service: MoneyDueService, q: Query): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Money due');
  const styles = COLUMNS.map((c): Partial<ExcelJS.Style> =>
    'date' in c
      ? { numFmt: 'dd/mm/yyyy' }
      : 'time' in c
        ? { numFmt: 'dd/mm/yyyy hh:mm' }
        : 'money' in c
          ? { numFmt: '#,##0.00' }
          : {},
  );
  sheet.columns = COLUMNS.map((c, i) => ({ header: c.header, key: c.key, width: c.width, style: styles[i]! }));
  (async () => {
    const totals = await service.list({ ...q, page: 1 }, 1);
    await audit(db, {
      action: 'export.money_due',
      subject: { type: 'money_due_export', id: null },
      bookingId: null,
      tripId: q.trip_id ?? null,
      summary: `downloaded the money due (${totals.total} row${totals.total === 1 ? '' : 's'}) as a spreadsheet`,
      details: { filters: filtersOf(q), rows: totals.total, format: 'xlsx' },
    });
    for await (const batch of service.all(q)) {
      for (const r of batch) {
        const row = sheet.addRow([
          escapeCell(r.traveller),
          r.booking_ref,
          escapeCell(r.trip_name),
          asDay(r.departure),
          escapeCell(r.label),
          r.invoice_ref === null ? null : escapeCell(r.invoice_ref),
          asDay(r.due_date),
          r.days_overdue,
          r.outstanding,
          r.last_reminder_at === null ? null : new Date(r.last_reminder_at),
        ]);
        styles.forEach((style, i) => (row.getCell(i + 1).style = style));
        row.commit();
      }
    }
    const sum = sheet.addRow(['Total', null, null, null, null, null, null, null, totals.total_outstanding, null]);
    sum.font = { bold: true };
    sum.getCell(9).numFmt = '#,##0.00';
    sum.commit();
    for (const [bucket, label] of Object.entries(AGE_BUCKET_LABELS)) {
      const row = sheet.addRow([
        label,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        totals.buckets[bucket as keyof typeof totals.buckets],
        null,
      ]);
      row.getCell(9).numFmt = '#,##0.00';
      row.commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
