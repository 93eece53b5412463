import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bookings } from './bookings.ts';
import { invoices } from './invoices.ts';
import { trips } from './trips.ts';

// the CHECKs spell out AMOUNT_KINDS and DUE_KINDS of src/contract/schedule-constants.ts

/**
 * A trip's payment plan: ordered instalments, each an amount rule and a due rule.
 * A trip with no rows has the default plan (the trip's deposit 14 days after booking, the rest
 * 56 days before departure).
 */
export const paymentPlanInstalments = pgTable(
  'payment_plan_instalments',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    tripId: integer('trip_id')
      .notNull()
      .references(() => trips.id, { onDelete: 'cascade' }),
    position: smallint().notNull(),
    label: text().notNull(),
    /** fixed (pence), percent (of the trip cost, in hundredths of a percent), deposit (the trip's), rest */
    amountKind: text('amount_kind').notNull(),
    amountPence: integer('amount_pence'),
    percentHundredths: integer('percent_hundredths'),
    /** after_booking (days), before_departure (days), fixed_date */
    dueKind: text('due_kind').notNull(),
    dueDays: smallint('due_days'),
    dueDate: date('due_date'),
  },
  (t) => [
    unique('payment_plan_position_unique').on(t.tripId, t.position),
    check('payment_plan_amount_kind_check', sql`${t.amountKind} in ('fixed', 'percent', 'deposit', 'rest')`),
    check('payment_plan_due_kind_check', sql`${t.dueKind} in ('after_booking', 'before_departure', 'fixed_date')`),
    check(
      'payment_plan_fixed_check',
      sql`(${t.amountKind} = 'fixed') = (${t.amountPence} is not null) and coalesce(${t.amountPence}, 0) >= 0`,
    ),
    check(
      'payment_plan_percent_check',
      sql`(${t.amountKind} = 'percent') = (${t.percentHundredths} is not null) and coalesce(${t.percentHundredths}, 1) between 1 and 10000`,
    ),
    check(
      'payment_plan_due_check',
      sql`(${t.dueKind} = 'fixed_date') = (${t.dueDate} is not null) and (${t.dueKind} = 'fixed_date') = (${t.dueDays} is null) and coalesce(${t.dueDays}, 0) between 0 and 3650`,
    ),
  ],
);

/**
 * A booking's schedule, made from its trip's plan when it is booked: what is due when. Paid and
 * overdue are derived (from the invoice and the day); what is stored is whether the row has been
 * invoiced (its invoice) or waived.
 */
export const scheduleRows = pgTable(
  'schedule_rows',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    position: smallint().notNull(),
    label: text().notNull(),
    dueDate: date('due_date').notNull(),
    amountPence: integer('amount_pence').notNull(),
    /** deposit for the first instalment, balance for the others: the invoice type it is raised as */
    invoiceType: text('invoice_type').notNull(),
    invoiceId: integer('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    waived: boolean().notNull().default(false),
    waivedReason: text('waived_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('schedule_rows_position_unique').on(t.bookingId, t.position),
    // one invoice per row, never two rows for one invoice: the key that stops a double billing
    uniqueIndex('schedule_rows_invoice_unique').on(t.invoiceId),
    check('schedule_rows_amount_check', sql`${t.amountPence} >= 0`),
    check('schedule_rows_invoice_type_check', sql`${t.invoiceType} in ('deposit', 'balance')`),
    index('schedule_rows_due_idx')
      .on(t.dueDate)
      .where(sql`${t.invoiceId} is null and not ${t.waived}`),
  ],
);
