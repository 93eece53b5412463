import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { addDays, ukToday } from '../../../contract/dates.ts';
import type { Db } from '../../../db/client.ts';
import { bookings, invoices, scheduleRows } from '../../../db/schema/index.ts';
import { nowOf, type Clock } from '../../clock.ts';
import type { InvoiceService } from '../invoices/service.ts';
import type { ReminderService } from './reminders.ts';
import { inSendingHours } from '../../common/sending-hours.ts';

const BATCH = 200;

/** The instalments whose invoice is due to be raised: lead time reached, not invoiced, not waived, booking live. */
export async function dueForInvoicing(db: Db, today: string, leadDays: number, limit = BATCH): Promise<number[]> {
  const rows = await db
    .select({ id: scheduleRows.id })
    .from(scheduleRows)
    .innerJoin(bookings, eq(bookings.id, scheduleRows.bookingId))
    .where(
      and(
        isNull(scheduleRows.invoiceId),
        eq(scheduleRows.waived, false),
        sql`${bookings.status} <> 'cancelled'`,
        sql`${scheduleRows.dueDate} <= ${addDays(today, leadDays)}`,
      ),
    )
    .orderBy(asc(scheduleRows.dueDate), asc(scheduleRows.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Invoices the system raised for a schedule and has not emailed yet (raised out of hours, or the mail server was down). */
export async function raisedNotSent(db: Db, limit = BATCH): Promise<Array<{ id: number; bookingId: number }>> {
  return db
    .select({ id: invoices.id, bookingId: invoices.bookingId })
    .from(invoices)
    .innerJoin(scheduleRows, eq(scheduleRows.invoiceId, invoices.id))
    .innerJoin(bookings, eq(bookings.id, invoices.bookingId))
    .where(and(isNull(invoices.createdBy), isNull(invoices.sentAt), sql`${bookings.status} <> 'cancelled'`))
    .orderBy(asc(invoices.id))
    .limit(limit);
}

/**
 * One run of the money job: raise the invoices whose lead time has come, then, in sending
 * hours, email every system-raised invoice not yet sent (with its PDF) and the day's payment
 * reminders. An email the mail server refuses is in the history (email.failed) and is tried
 * again on the next run.
 */
export async function moneyRun(
  db: Db,
  invoiceService: InvoiceService,
  reminders: ReminderService,
  clock: Pick<Clock, 'now'>,
  leadDays: number,
) {
  const now = nowOf(clock);
  const today = ukToday(now);
  const raised: number[] = [];
  for (;;) {
    const due = await dueForInvoicing(db, today, leadDays);
    let progressed = false;
    for (const rowId of due) {
      const id = await invoiceService.raiseScheduled(rowId, today);
      if (id !== null) raised.push(id);
      progressed = true;
    }
    if (due.length < BATCH || !progressed) break;
  }
  let sent = 0;
  let failed = 0;
  let reminded = { sent: 0, failed: 0, skipped: 0 };
  if (inSendingHours(now)) {
    for (const invoice of await raisedNotSent(db)) {
      try {
        await invoiceService.send(invoice.bookingId, invoice.id);
        sent += 1;
      } catch {
        failed += 1;
      }
    }
    reminded = await reminders.run();
  }
  return { raised: raised.length, sent, failed, reminders: reminded };
}
