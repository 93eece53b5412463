import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { bookings, invoices } from '../../../db/schema/index.ts';
import { ukToday } from '../../../contract/dates.ts';
import { nowOf, type Clock } from '../../clock.ts';
import { HttpError } from '../../errors.ts';
import { loadInvoices } from '../invoices/load.ts';
import type { ReminderService } from './reminders.ts';

/** "Send a reminder now" for a booking: of its invoices with money outstanding, the one due first (on a schedule or not). */
export async function sendReminderNow(
  db: Db,
  reminders: ReminderService,
  bookingId: number,
  clock: Pick<Clock, 'now'>,
): Promise<{ message: string }> {
  const [booking] = await db
    .select({ id: bookings.id, status: bookings.status })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  if (!booking) throw new HttpError(404, 'Booking not found');
  if (booking.status === 'cancelled') throw new HttpError(422, 'This booking is cancelled: it is sent no reminders.');
  // a school group's share is the school's to pay, not the traveller's (issue 37)
  const owing = (await loadInvoices(db, and(eq(invoices.bookingId, bookingId), isNull(invoices.groupId))!))
    .filter((i) => !i.summary.paid)
    .sort((a, b) => a.reply.due_date.localeCompare(b.reply.due_date) || a.reply.id - b.reply.id);
  const today = ukToday(nowOf(clock));
  for (const invoice of owing) {
    const outcome = await reminders.sendForInvoice(invoice.reply.id, today);
    if (outcome === 'sent') return { message: 'A reminder has been emailed to the traveller.' };
    if (outcome === 'failed')
      throw new HttpError(502, 'The reminder could not be emailed: the mail server did not take it. Please try again.');
  }
  throw new HttpError(
    422,
    'Nothing is owed on an invoice of this booking, so there is nothing to remind the traveller of.',
  );
}

/** "Send reminder now" for several bookings: each gets its most urgent reminder; says what became of each. */
export async function sendRemindersNow(
  db: Db,
  reminders: ReminderService,
  bookingIds: number[],
  clock: Pick<Clock, 'now'>,
) {
  const sent: number[] = [];
  const nothing: number[] = [];
  const failed: number[] = [];
  for (const id of [...new Set(bookingIds)]) {
    try {
      await sendReminderNow(db, reminders, id, clock);
      sent.push(id);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 502) failed.push(id);
      else if (error instanceof HttpError) nothing.push(id);
      else throw error;
    }
  }
  const parts = [`${sent.length} reminder${sent.length === 1 ? '' : 's'} sent`];
  if (nothing.length)
    parts.push(`${nothing.length} booking${nothing.length === 1 ? ' has' : 's have'} nothing owed on an invoice`);
  if (failed.length) parts.push(`${failed.length} could not be sent: the mail server did not take them`);
  return { message: `${parts.join('; ')}.`, sent, nothing_to_send: nothing, failed };
}
