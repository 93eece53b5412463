import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CancellationBand } from '../../contract/changes.ts';
import { bookings } from './bookings.ts';
import { transactions } from './invoices.ts';
import { trips } from './trips.ts';
import { users } from './users.ts';

/**
 * The fees for changes after booking (issue 35): the cancellation scale's bands, the transfer fee and
 * the move fee. One row for the office (trip_id null); a trip may have its own. No row: the defaults.
 */
export const changeRules = pgTable(
  'change_rules',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    tripId: integer('trip_id').references(() => trips.id, { onDelete: 'cascade' }),
    /** checked by the contract's schema as saved; ordered by from_days, largest first */
    bands: jsonb().$type<CancellationBand[]>().notNull(),
    transferFeePence: integer('transfer_fee_pence').notNull(),
    moveFeePence: integer('move_fee_pence').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('change_rules_scope_unique').on(sql`coalesce(${t.tripId}, 0)`),
    check('change_rules_fees_check', sql`${t.transferFeePence} >= 0 and ${t.moveFeePence} >= 0`),
  ],
);

export const REFUND_OWED_STATES = ['open', 'settled'] as const;

/** Money owed back to a traveller (a cancellation that kept less than was paid), due by law within 14 days. */
export const refundsOwed = pgTable(
  'refunds_owed',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'restrict' }),
    amountPence: integer('amount_pence').notNull(),
    reason: text().notNull(),
    dueOn: date('due_on').notNull(),
    state: text().notNull().default('open'),
    /** the refund that settled it */
    transactionId: integer('transaction_id').references(() => transactions.id, { onDelete: 'set null' }),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('refunds_owed_amount_check', sql`${t.amountPence} > 0`),
    check('refunds_owed_state_check', sql`${t.state} in ('open', 'settled')`),
    check('refunds_owed_settled_check', sql`(${t.state} = 'settled') = (${t.settledAt} is not null)`),
    index('refunds_owed_state_due_idx').on(t.state, t.dueOn),
    index('refunds_owed_booking_idx').on(t.bookingId),
  ],
);

/**
 * A traveller's ask to cancel or to change a booking, from their own pages: nothing is done by it;
 * it waits in the office's queue until staff complete it (with one of the actions above) or
 * decline it.
 */
export const changeRequests = pgTable(
  'change_requests',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /** cancel | change */
    kind: text().notNull(),
    message: text().notNull(),
    /** open | done | declined */
    state: text().notNull().default('open'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    closedBy: integer('closed_by').references(() => users.id, { onDelete: 'set null' }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** what staff said when they closed it */
    closedNote: text('closed_note'),
  },
  (t) => [
    check('change_requests_kind_check', sql`${t.kind} in ('cancel', 'change')`),
    check('change_requests_state_check', sql`${t.state} in ('open', 'done', 'declined')`),
    check('change_requests_closed_check', sql`(${t.state} = 'open') = (${t.closedAt} is null)`),
    index('change_requests_booking_idx').on(t.bookingId),
    // the queue: the open ones, oldest first
    index('change_requests_open_idx')
      .on(t.createdAt)
      .where(sql`${t.state} = 'open'`),
    // one open ask of each kind per booking
    uniqueIndex('change_requests_one_open_unique')
      .on(t.bookingId, t.kind)
      .where(sql`${t.state} = 'open'`),
  ],
);
