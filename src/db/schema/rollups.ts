import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/**
 * The dashboard's rollups (decision 015), kept by the database in the same transaction
 * as the writes they follow (migration 0025), so that a season's series are sums over a few
 * thousand rows rather than over every booking, invoice and payment. Written only by triggers.
 */

/** Bookings made per trip and week (its Monday, London time), by status and funding type, split in eight slots. */
export const bookingWeeks = pgTable(
  'booking_weeks',
  {
    tripId: integer('trip_id').notNull(),
    week: date().notNull(),
    status: text().notNull(),
    fundingType: text('funding_type').notNull(),
    // the booking's id modulo 8 (migration 0053): bookings of one trip made at once add to different
    // rows rather than all waiting for one; readers sum over it
    slot: smallint().notNull().default(0),
    n: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.tripId, t.week, t.status, t.fundingType, t.slot] })],
);

/**
 * Bookings made per trip and week (all statuses), and per trip by status and funding type: the
 * dashboard's and the deep pages' narrow sums (migration 0058, issue 33). booking_weeks splits a
 * trip's week by status, funding type and slot, which at a real office's shape (a few hundred
 * travellers a trip, booked over a year) is hardly fewer rows than bookings.
 *
 * Kept by deferred constraint triggers, at commit: a booking made online adds to them after it
 * has taken its trip's lock, so bookings of one trip made at once never wait on these rows while
 * they run. So they are read only outside a transaction that changes bookings.
 */
export const bookingTripWeeks = pgTable(
  'booking_trip_weeks',
  {
    tripId: integer('trip_id').notNull(),
    week: date().notNull(),
    n: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tripId, t.week] }),
    // the dashboard reads a season's trips' weeks from the index alone (issue 33)
    index('booking_trip_weeks_read_idx').on(t.tripId, t.week, t.n),
  ],
);

export const bookingTripCounts = pgTable(
  'booking_trip_counts',
  {
    tripId: integer('trip_id').notNull(),
    status: text().notNull(),
    fundingType: text('funding_type').notNull(),
    n: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tripId, t.status, t.fundingType] }),
    index('booking_trip_counts_read_idx').on(t.tripId, t.status, t.fundingType, t.n),
  ],
);

/** Money per trip and day: received (live payments − live refunds, by their date) and invoiced (by invoice date). */
export const moneyDays = pgTable(
  'money_days',
  {
    tripId: integer('trip_id').notNull(),
    day: date().notNull(),
    receivedPence: bigint('received_pence', { mode: 'number' }).notNull().default(0),
    invoicedPence: bigint('invoiced_pence', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tripId, t.day] })],
);

/**
 * Money per trip and week (its Monday): money_days summed by week, kept from each change to
 * money_days by a trigger (migration 0056). The dashboard's money series reads a season's weeks:
 * a seventh of its days.
 */
export const moneyWeeks = pgTable(
  'money_weeks',
  {
    tripId: integer('trip_id').notNull(),
    week: date().notNull(),
    receivedPence: bigint('received_pence', { mode: 'number' }).notNull().default(0),
    invoicedPence: bigint('invoiced_pence', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.tripId, t.week] }),
    index('money_weeks_read_idx').on(t.tripId, t.week, t.receivedPence, t.invoicedPence),
  ],
);

/** What each invoice last added to money_days (its trip, day and total), so a change or a deletion takes back exactly that. */
export const invoiceDays = pgTable('invoice_days', {
  invoiceId: integer('invoice_id').primaryKey(),
  tripId: integer('trip_id').notNull(),
  day: date().notNull(),
  pence: bigint({ mode: 'number' }).notNull(),
});

/**
 * Per trip, its counts that need the readiness rules or today's milestones (travellers not ready,
 * pupils without a parent's consent, fundraisers behind), worked out on demand and kept until a change to anything they read marks
 * the trip stale (triggers) or the day or the fundraising defaults change.
 */
export const tripCounts = pgTable('trip_counts', {
  tripId: integer('trip_id').primaryKey(),
  stale: boolean().notNull().default(true),
  computedOn: date('computed_on'),
  defaultsKey: text('defaults_key'),
  notReady: integer('not_ready'),
  /** of those not ready, the pupils whose parent's consent is not given (the readiness board's consent check), counted with not_ready */
  consentMissing: integer('consent_missing'),
  behind: integer(),
  computedAt: timestamp('computed_at', { withTimezone: true }),
});

/**
 * The narrow sums above summed again by the month their trips depart (its first day), for trips
 * not deleted (migration 0063, issue 33): a season's whole months are read from these, and only
 * its partial first and last months from the trips' own rows. Kept by statement triggers on the
 * per-trip sums, and on trips when one's departure month, type or deletion changes. Written only
 * by triggers.
 */
export const bookingMonthWeeks = pgTable(
  'booking_month_weeks',
  {
    month: date().notNull(),
    type: text().notNull(),
    week: date().notNull(),
    n: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.type, t.week] })],
);

export const bookingMonthCounts = pgTable(
  'booking_month_counts',
  {
    month: date().notNull(),
    status: text().notNull(),
    fundingType: text('funding_type').notNull(),
    n: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.status, t.fundingType] })],
);

export const moneyMonthWeeks = pgTable(
  'money_month_weeks',
  {
    month: date().notNull(),
    week: date().notNull(),
    receivedPence: bigint('received_pence', { mode: 'number' }).notNull().default(0),
    invoicedPence: bigint('invoiced_pence', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.week] })],
);

export const moneyOwedMonthDays = pgTable(
  'money_owed_month_days',
  {
    month: date().notNull(),
    dueDate: date('due_date').notNull(),
    n: integer().notNull(),
    pence: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.dueDate] })],
);
