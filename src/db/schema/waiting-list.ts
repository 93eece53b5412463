import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { bookings } from './bookings.ts';
import { discounts } from './discounts.ts';
import { trips } from './trips.ts';

export const WAITING_STATES = ['waiting', 'offered', 'booked', 'expired', 'removed'] as const;

/**
 * A full trip's waiting list (issue 34): people in line for places, offered freed places in turn.
 * An offer holds its places until it expires; only a digest of the offer link's secret is kept.
 */
export const waitingListEntries = pgTable(
  'waiting_list_entries',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    tripId: integer('trip_id')
      .notNull()
      .references(() => trips.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text().notNull(),
    places: smallint().notNull().default(1),
    note: text(),
    /** the line's order: lower first (staff move people up and down) */
    position: integer().notNull(),
    state: text().notNull().default('waiting'),
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    offerExpiresAt: timestamp('offer_expires_at', { withTimezone: true }),
    /** sha256 of the secret in the offer's link, hex */
    offerTokenHash: text('offer_token_hash').unique(),
    offersMade: smallint('offers_made').notNull().default(0),
    /** bookings made with the offer so far: it holds its places less these */
    placesBooked: smallint('places_booked').notNull().default(0),
    /** the last booking made with the offer */
    bookingId: bigint('booking_id', { mode: 'number' }).references(() => bookings.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('waiting_list_state_check', sql`${t.state} in ('waiting', 'offered', 'booked', 'expired', 'removed')`),
    check('waiting_list_places_check', sql`${t.places} between 1 and 10`),
    index('waiting_list_trip_idx').on(t.tripId, t.state, t.position),
    index('waiting_list_offer_expires_idx')
      .on(t.offerExpiresAt)
      .where(sql`${t.state} = 'offered'`),
  ],
);

/**
 * An online booking made while many were being made at once (decision 030): the booking row is
 * made and the reply given at once; its schedule, its deposit invoice (whose id is taken now, so the
 * pay link can be given) and its email follow straight after. Deleted when they are made.
 */
export const bookingSetups = pgTable('booking_setups', {
  bookingId: bigint('booking_id', { mode: 'number' })
    .primaryKey()
    .references(() => bookings.id, { onDelete: 'cascade' }),
  // the id the deposit invoice will have (taken from its sequence at booking); none when nothing is due now
  invoiceId: integer('invoice_id').unique(),
  // the use of a discount code taken at booking, for the deposit invoice, with its code and amount
  // then (what the traveller was told, whatever the office changes of the code meanwhile)
  discountId: integer('discount_id').references(() => discounts.id, { onDelete: 'set null' }),
  discountCode: text('discount_code'),
  discountAmountPence: integer('discount_amount_pence'),
  depositPence: integer('deposit_pence').notNull(),
  bookedOn: date('booked_on').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
