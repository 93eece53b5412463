import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What is owed to the office (money-due list), kept by the database itself: every
 * invoice with money outstanding and every instalment not invoiced, not waived and not £0, of the
 * bookings that are not cancelled. Triggers on bookings, invoices, their items and add-ons,
 * transactions and schedule rows rebuild a booking's entries in the same transaction as any change
 * to them (migration 0014, `money_owed_refresh`), so the list never disagrees with the invoices;
 * decision 012 says why it is kept rather than derived on every request. Written only by those
 * triggers; the sort keys are copied: the departure and the traveller's names from the booking,
 * the trip's name from the trip, and the last reminder sent from the booking's reminders.
 */
export const moneyOwed = pgTable(
  'money_owed',
  {
    kind: text().notNull(),
    id: integer().notNull(),
    bookingId: bigint('booking_id', { mode: 'number' }).notNull(),
    tripId: integer('trip_id').notNull(),
    dueDate: date('due_date').notNull(),
    outstandingPence: bigint('outstanding_pence', { mode: 'number' }).notNull(),
    departure: date().notNull(),
    lastNameKey: text('last_name_key').notNull(),
    firstNameKey: text('first_name_key').notNull(),
    tripNameKey: text('trip_name_key').notNull(),
    lastReminderAt: timestamp('last_reminder_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.id] }),
    index('money_owed_booking_idx').on(t.bookingId),
    index('money_owed_due_idx').on(t.dueDate, t.kind, t.id),
    index('money_owed_trip_due_idx').on(t.tripId, t.dueDate, t.kind, t.id),
    index('money_owed_outstanding_idx').on(t.outstandingPence, t.kind, t.id),
    index('money_owed_departure_idx').on(t.departure, t.kind, t.id),
    index('money_owed_traveller_idx').on(t.lastNameKey, t.firstNameKey, t.kind, t.id),
    index('money_owed_trip_name_idx').on(t.tripNameKey, t.kind, t.id),
    // the never-reminded last, whichever way: one index for each direction
    index('money_owed_reminded_idx').on(t.lastReminderAt.asc().nullsLast(), t.kind, t.id),
    index('money_owed_reminded_desc_idx').on(t.lastReminderAt.desc().nullsLast(), t.kind.desc(), t.id.desc()),
  ],
);

/**
 * The money owed per trip and due day (count and pence), kept by the same triggers: the
 * money-due list's totals by ageing bucket read these few rows rather than every entry.
 */
export const moneyOwedDays = pgTable(
  'money_owed_days',
  {
    tripId: integer('trip_id').notNull(),
    dueDate: date('due_date').notNull(),
    n: integer().notNull(),
    pence: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tripId, t.dueDate] }),
    // the dashboard's money owed of a season's trips, read from the index alone (issue 33)
    index('money_owed_days_read_idx').on(t.tripId, t.dueDate, t.pence, t.n),
  ],
);
