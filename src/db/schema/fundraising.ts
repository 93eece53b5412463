import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Milestone } from '../../contract/fundraising-constants.ts';
import { bookings } from './bookings.ts';
import { charities } from './charities.ts';
import { trips } from './trips.ts';
import { users } from './users.ts';

/**
 * The configuration's fundraising defaults (FUNDRAISING_MINIMUM, FUNDRAISING_MINIMUM_FLEXI,
 * FUNDRAISING_MILESTONES), one row, written by the server when it starts
 * (keepFundraisingDefaults): the trigger that keeps each booking's standing reads them here.
 */
export const fundraisingDefaults = pgTable(
  'fundraising_defaults',
  {
    id: integer().primaryKey().default(1),
    fundraiseMinimumPence: integer('fundraise_minimum_pence').notNull(),
    flexiMinimumPence: integer('flexi_minimum_pence').notNull(),
    milestones: jsonb().$type<Milestone[]>().notNull(),
  },
  (t) => [check('fundraising_defaults_one_row', sql`${t.id} = 1`)],
);

/**
 * A trip's own fundraising rule for one funding type that fundraises: the minimum
 * sponsorship and the milestones. A trip with no row uses the defaults of the configuration.
 */
export const tripFundraising = pgTable(
  'trip_fundraising',
  {
    tripId: integer('trip_id')
      .notNull()
      .references(() => trips.id, { onDelete: 'cascade' }),
    fundingType: text('funding_type').notNull(),
    minimumPence: integer('minimum_pence').notNull(),
    milestones: jsonb().$type<Milestone[]>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tripId, t.fundingType] }),
    check('trip_fundraising_type_check', sql`${t.fundingType} in ('fundraise', 'flexi')`),
    check('trip_fundraising_minimum_check', sql`${t.minimumPence} >= 0`),
  ],
);

/**
 * What a fundraising traveller has raised to date, entry by entry. Sponsorship is
 * not trip money: never an invoice or a payment. An entry is struck out with a reason, never
 * edited or deleted; the raised total is the sum of the live ones.
 */
export const fundraisingEntries = pgTable(
  'fundraising_entries',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    amountPence: integer('amount_pence').notNull(),
    entryDate: date('entry_date').notNull(),
    /** page_total, offline, gift_aid, charity_confirmed */
    source: text().notNull(),
    note: text(),
    recordedBy: integer('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    struckAt: timestamp('struck_at', { withTimezone: true }),
    struckBy: integer('struck_by').references(() => users.id, { onDelete: 'set null' }),
    struckReason: text('struck_reason'),
  },
  (t) => [
    check('fundraising_entries_amount_check', sql`${t.amountPence} > 0`),
    check(
      'fundraising_entries_source_check',
      sql`${t.source} in ('page_total', 'offline', 'gift_aid', 'charity_confirmed')`,
    ),
    index('fundraising_entries_booking_idx').on(t.bookingId, t.entryDate),
  ],
);

/**
 * The fundraising milestone chaser: one email per booking and milestone, in the week
 * before a milestone the traveller has not yet reached; the unique key keeps it to one even with
 * several workers. Failed ones are tried again on the next run.
 */
export const fundraisingReminders = pgTable(
  'fundraising_reminders',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    milestoneDue: date('milestone_due').notNull(),
    sentOn: date('sent_on').notNull(),
    /** sending, sent, failed, skipped (chasers off) */
    outcome: text().notNull(),
    reason: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('fundraising_reminders_unique').on(t.bookingId, t.milestoneDue),
    check('fundraising_reminders_outcome_check', sql`${t.outcome} in ('sending', 'sent', 'failed', 'skipped')`),
  ],
);

/** The monthly fundraising summary: one per charity user and month, even with several workers. */
export const charitySummaries = pgTable(
  'charity_summaries',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    charityId: integer('charity_id')
      .notNull()
      .references(() => charities.id, { onDelete: 'cascade' }),
    /** YYYY-MM */
    month: text().notNull(),
    /** sending, sent, failed */
    outcome: text().notNull(),
    reason: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('charity_summaries_unique').on(t.userId, t.month),
    check('charity_summaries_outcome_check', sql`${t.outcome} in ('sending', 'sent', 'failed')`),
  ],
);
