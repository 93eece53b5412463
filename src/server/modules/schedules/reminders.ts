import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TemplateKey } from '../../../contract/email-templates.ts';
import { formatPounds } from '../../../contract/money.ts';
import type { Db } from '../../../db/client.ts';
import { bookings, invoices, paymentReminders, scheduleRows, trips } from '../../../db/schema/index.ts';
import { nowOf, type Clock } from '../../clock.ts';
import { type Mailer } from '../../mail/transport.ts';
import { emailDate, type TemplateContext } from '../../mail/templates.ts';
import { loadInvoices } from '../invoices/load.ts';
import { ukToday } from '../../../contract/dates.ts';
import type { Operator } from '../../common/operator.ts';
import { payUrlOf } from '../../common/pay-links.ts';
import { sendOnce } from '../../mail/send-once.ts';
import { portalUrlOf } from '../../common/portal-links.ts';

/** Days from an instalment's due date that its reminders go: 7 and 3 before, the day, 2 and 7 after (REMINDER_DAYS). */
export const DEFAULT_REMINDER_DAYS = [-7, -3, 0, 2, 7];

export const templateForOffset = (offset: number): TemplateKey =>
  offset < 0 ? 'reminder_before' : offset === 0 ? 'reminder_due' : 'reminder_overdue';

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to + 'T00:00:00Z') - Date.parse(from + 'T00:00:00Z')) / 86_400_000);

export type ReminderOutcome = 'sent' | 'failed' | 'skipped';

/**
 * Payment reminders: on each offset day of an invoiced instalment that is not paid,
 * one email from its template; never for a waived instalment, a paid or deleted invoice, a
 * cancelled booking, or a booking or trip whose reminders are off; never two to one traveller on
 * one UK day, however many instalments are due.
 */
export class ReminderService {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer,
    private readonly operator: Operator,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly offsets: number[] = DEFAULT_REMINDER_DAYS,
  ) {}

  /** The instalments with a reminder due today, earliest due first. */
  async due(today: string) {
    const offsets = sql.join(
      this.offsets.map((o) => sql`${o}::int`),
      sql`, `,
    );
    return this.db
      .select({
        rowId: scheduleRows.id,
        dueDate: scheduleRows.dueDate,
        bookingId: bookings.id,
        invoiceId: invoices.id,
        email: bookings.email,
      })
      .from(scheduleRows)
      .innerJoin(invoices, eq(invoices.id, scheduleRows.invoiceId))
      .innerJoin(bookings, eq(bookings.id, scheduleRows.bookingId))
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(
        and(
          eq(scheduleRows.waived, false),
          sql`${bookings.status} <> 'cancelled'`,
          eq(bookings.remindersOff, false),
          eq(trips.remindersOff, false),
          sql`(${today}::date - ${scheduleRows.dueDate}) in (${offsets})`,
          sql`not exists (select 1 from ${paymentReminders} pr where pr.schedule_row_id = ${scheduleRows.id} and pr.offset_days = (${today}::date - ${scheduleRows.dueDate}) and pr.outcome = 'sent')`,
        ),
      )
      .orderBy(scheduleRows.dueDate, scheduleRows.id)
      .limit(500);
  }

  /** Sends today's reminders; says how many went, failed, or were left for another day. */
  async run(): Promise<Record<ReminderOutcome, number>> {
    const today = ukToday(nowOf(this.clock));
    const counts: Record<ReminderOutcome, number> = { sent: 0, failed: 0, skipped: 0 };
    for (const d of await this.due(today)) counts[await this.send(d.rowId, today, daysBetween(d.dueDate, today))] += 1;
    return counts;
  }

  /**
   * One reminder for one instalment. `offset` null: staff said "send now" (no day rule, any hour).
   */
  async send(rowId: number, today: string, offset: number | null): Promise<ReminderOutcome> {
    const [row] = await this.db.select().from(scheduleRows).where(eq(scheduleRows.id, rowId));
    if (!row || row.invoiceId === null || row.waived) return 'skipped';
    return this.remind({ bookingId: row.bookingId, invoiceId: row.invoiceId, rowId }, today, offset);
  }

  /** "Send now" for an invoice that is not on a schedule (a custom invoice, or one raised before schedules). */
  async sendForInvoice(invoiceId: number, today: string): Promise<ReminderOutcome> {
    const [row] = await this.db
      .select({ bookingId: invoices.bookingId, rowId: scheduleRows.id })
      .from(invoices)
      .leftJoin(scheduleRows, eq(scheduleRows.invoiceId, invoices.id))
      // a school group's share is the school's to pay: its parents are not reminded of it (issue 37)
      .where(and(eq(invoices.id, invoiceId), isNull(invoices.groupId)));
    if (!row) return 'skipped';
    return this.remind({ bookingId: row.bookingId, invoiceId, rowId: row.rowId }, today, null);
  }

  private async remind(
    target: { bookingId: number; invoiceId: number; rowId: number | null },
    today: string,
    offset: number | null,
  ): Promise<ReminderOutcome> {
    const [r] = await this.db
      .select({ booking: bookings, trip: { name: trips.name, departure: trips.departureDate } })
      .from(bookings)
      .innerJoin(trips, eq(trips.id, bookings.tripId))
      .where(eq(bookings.id, target.bookingId));
    if (!r || r.booking.status === 'cancelled') return 'skipped';
    const [invoice] = await loadInvoices(this.db, eq(invoices.id, target.invoiceId));
    if (!invoice || invoice.summary.paid) return 'skipped';
    const rowId = target.rowId;
    const email = r.booking.email.toLowerCase();
    if (offset !== null) {
      const [already] = await this.db
        .select({ id: paymentReminders.id })
        .from(paymentReminders)
        .where(
          and(
            eq(paymentReminders.email, email),
            eq(paymentReminders.sentOn, today),
            eq(paymentReminders.outcome, 'sent'),
            sql`${paymentReminders.offsetDays} is not null`,
          ),
        )
        .limit(1);
      if (already) return 'skipped';
    }
    const key = templateForOffset(offset ?? daysBetween(invoice.reply.due_date, today));
    return sendOnce(this.db, this.mailer, {
      template: key,
      context: reminderContext(
        r.booking,
        r.trip,
        invoice.reply,
        this.operator,
        today,
        nowOf(this.clock),
        portalUrlOf(r.booking, this.operator.portalLinks, nowOf(this.clock)),
      ),
      to: { name: `${r.booking.firstName} ${r.booking.lastName}`, address: r.booking.email },
      about: { subject: { type: 'invoice', id: invoice.reply.id }, bookingId: r.booking.id, tripId: r.booking.tripId },
      named: (subject) => `the reminder "${subject}" to ${r.booking.email}`,
      details: { offset_days: offset },
      claim: async () => {
        const values = {
          scheduleRowId: rowId,
          bookingId: r.booking.id,
          invoiceId: invoice.reply.id,
          offsetDays: offset,
          email,
          sentOn: today,
          outcome: 'sending',
          createdAt: nowOf(this.clock),
        };
        const [claim] =
          offset === null
            ? await this.db.insert(paymentReminders).values(values).returning({ id: paymentReminders.id })
            : await this.db
                .insert(paymentReminders)
                .values(values)
                .onConflictDoUpdate({
                  target: [paymentReminders.scheduleRowId, paymentReminders.offsetDays],
                  targetWhere: sql`${paymentReminders.offsetDays} is not null`,
                  set: { outcome: 'sending', sentOn: today, error: null },
                  setWhere: sql`${paymentReminders.outcome} = 'failed'`,
                })
                .returning({ id: paymentReminders.id });
        return claim?.id;
      },
      settle: async (tx, id, failure) => {
        await tx
          .update(paymentReminders)
          .set(failure === null ? { outcome: 'sent' } : { outcome: 'failed', error: failure })
          .where(eq(paymentReminders.id, id));
      },
    });
  }
}

export function reminderContext(
  booking: { title: string | null; firstName: string; lastName: string; preferredName: string | null; ref: string },
  trip: { name: string; departure: string },
  invoice: { id?: number; invoice_ref: string; total: number; outstanding: number; due_date: string },
  operator: Operator,
  today: string,
  now: Date,
  portalUrl: string,
): TemplateContext {
  const until = daysBetween(today, invoice.due_date);
  const fmt = emailDate;
  return {
    traveller: {
      title: booking.title,
      first_name: booking.firstName,
      last_name: booking.lastName,
      preferred_name: booking.preferredName,
    },
    booking: { ref: booking.ref },
    trip: { name: trip.name, departure: fmt(trip.departure) },
    invoice: {
      ref: invoice.invoice_ref,
      total: formatPounds(invoice.total),
      outstanding: formatPounds(invoice.outstanding),
      due_date: fmt(invoice.due_date),
      days_until_due: Math.max(0, until),
      days_overdue: Math.max(0, -until),
      pay_url: payUrlOf(invoice.id, operator.payLinks, now),
    },
    portal: { url: portalUrl },
    operator: { name: operator.name },
  };
}
