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
