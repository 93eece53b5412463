import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bookings } from './bookings.ts';
import { invoices } from './invoices.ts';
import { scheduleRows } from './schedules.ts';
import { users } from './users.ts';

/** The emails staff word themselves; a key with no row uses Tripdesk's default wording. */
export const emailTemplates = pgTable('email_templates', {
  key: text().primaryKey(),
  subject: text().notNull(),
  body: text().notNull(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every payment reminder sent (or tried): one per instalment and offset, and, among those sent,
 * one per traveller (email) per UK day — the database keeps both promises even with several workers.
 */
export const paymentReminders = pgTable(
  'payment_reminders',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    /** the instalment reminded of; null for an invoice that is not on a schedule (sent by staff) */
    scheduleRowId: integer('schedule_row_id').references(() => scheduleRows.id, { onDelete: 'cascade' }),
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    /** days from the due date: -7, -3, 0, 2, 7; null for one sent by staff ("send now") */
    offsetDays: smallint('offset_days'),
    email: text().notNull(),
    sentOn: date('sent_on').notNull(),
    /** sending (claimed by a worker), sent, or failed (the mail server refused; tried again on the next run) */
    outcome: text().notNull(),
    error: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_reminders_row_offset_unique')
      .on(t.scheduleRowId, t.offsetDays)
      .where(sql`${t.offsetDays} is not null`),
    uniqueIndex('payment_reminders_one_a_day')
      .on(t.email, t.sentOn)
      .where(sql`${t.outcome} in ('sending', 'sent') and ${t.offsetDays} is not null`),
    index('payment_reminders_booking_idx').on(t.bookingId, t.createdAt),
    // the dashboard's failed emails of the last days: the few failed, not every reminder sent (issue 33)
    index('payment_reminders_failed_idx')
      .on(t.createdAt)
      .where(sql`${t.outcome} = 'failed'`),
  ],
);

/**
 * Every chaser decision: a passport or forms email sent (or tried), or a chaser the
 * cadence called for and Tripdesk decided not to send (chasers off, or the check turned green),
 * with why. The automatic ones carry the cadence day they answer (`due_on`): one per booking,
 * check and day, and among those sent one per traveller per UK day, even with several workers.
 * Staff's own ("send chaser" on the board) have no due_on.
 */
export const chasers = pgTable(
  'chasers',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /** passport or forms */
    check: text().notNull(),
    dueOn: date('due_on'),
    sentOn: date('sent_on').notNull(),
    /** sending (claimed by a worker), sent, failed (tried again on the next run), skipped */
    outcome: text().notNull(),
    /** why it was skipped, or what the mail server said */
    reason: text(),
    sentBy: integer('sent_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('chasers_check_check', sql`${t.check} in ('passport', 'forms', 'consent')`),
    check('chasers_outcome_check', sql`${t.outcome} in ('sending', 'sent', 'failed', 'skipped')`),
    uniqueIndex('chasers_due_unique')
      .on(t.bookingId, t.check, t.dueOn)
      .where(sql`${t.dueOn} is not null`),
    uniqueIndex('chasers_one_a_day')
      .on(t.bookingId, t.sentOn)
      .where(sql`${t.outcome} in ('sending', 'sent') and ${t.dueOn} is not null`),
    index('chasers_booking_idx').on(t.bookingId, t.check, t.createdAt),
    index('chasers_failed_idx')
      .on(t.createdAt)
      .where(sql`${t.outcome} = 'failed'`),
  ],
);
