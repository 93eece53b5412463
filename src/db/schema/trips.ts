import { sql } from 'drizzle-orm';
import {
  boolean,
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
import { charities } from './charities.ts';
import { countries } from './countries.ts';

export const TRIP_TYPES = ['charity', 'open', 'school'] as const;
// open and closed come from the spec; full and cancelled are what an operator also needs
export const TRIP_STATUSES = ['open', 'closed', 'full', 'cancelled'] as const;
export const TRIP_FUNDING = ['both', 'self', 'fundraise'] as const;

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export const trips = pgTable(
  'trips',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    countryId: smallint('country_id')
      .notNull()
      .references(() => countries.id),
    charityId: integer('charity_id').references(() => charities.id, { onDelete: 'restrict' }),
    departureDate: date('departure_date').notNull(),
    returnDate: date('return_date').notNull(),
    type: text().notNull().default('charity'),
    level: smallint().notNull().default(2),
    status: text().notNull().default('open'),
    depositPence: integer('deposit_pence').notNull().default(0),
    costPence: integer('cost_pence').notNull().default(0),
    // places on the trip (the dashboard's departures against it); null: not set
    capacity: integer(),
    /** the fewest travellers the departure runs with (reg 13: below it, the operator may cancel by a deadline); null: none */
    minimum: integer(),
    requirePassport: boolean('require_passport').notNull().default(true),
    // what a parent agrees to for a pupil on a school trip (issue 37); none: the office's wording
    consentText: text('consent_text'),
    funding: text().notNull().default('both'),
    /** no automatic reminders for any booking of the trip; when off, why */
    remindersOff: boolean('reminders_off').notNull().default(false),
    remindersOffReason: text('reminders_off_reason'),
    /** what is included, shown on the trip's public booking page */
    description: text(),
    /** online booking (issue 34): the public page /book/{slug}, open until its closing day */
    onlineBooking: boolean('online_booking').notNull().default(false),
    bookingSlug: text('booking_slug'),
    bookingClosesOn: date('booking_closes_on'),
    /** the funding types offered online; null: every one the trip allows */
    bookingFundingTypes: text('booking_funding_types').array(),
    /** the charities offered online on a charity trip; null: any */
    bookingCharityIds: integer('booking_charity_ids').array(),
    bookingDiscountCodes: boolean('booking_discount_codes').notNull().default(true),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    // soft delete: bookings of a deleted trip stay reachable
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('trips_type_check', sql`${t.type} in (${inList(TRIP_TYPES)})`),
    check('trips_status_check', sql`${t.status} in (${inList(TRIP_STATUSES)})`),
    check('trips_funding_check', sql`${t.funding} in (${inList(TRIP_FUNDING)})`),
    check('trips_level_check', sql`${t.level} between 1 and 5`),
    check('trips_deposit_check', sql`${t.depositPence} >= 0`),
    check('trips_cost_check', sql`${t.costPence} >= 0`),
    check('trips_capacity_check', sql`${t.capacity} is null or ${t.capacity} > 0`),
    check('trips_minimum_check', sql`${t.minimum} is null or ${t.minimum} > 0`),
    check('trips_dates_check', sql`${t.returnDate} >= ${t.departureDate}`),
    index('trips_departure_idx').on(t.departureDate),
    index('trips_country_idx').on(t.countryId),
    index('trips_charity_idx').on(t.charityId),
    // the bookings list sorted by trip name walks the trips in this order (idsByTripName)
    index('trips_name_idx').on(t.name, t.id),
    uniqueIndex('trips_booking_slug_unique').on(sql`lower(${t.bookingSlug})`),
    check('trips_booking_slug_check', sql`${t.bookingSlug} is null or ${t.bookingSlug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    index('trips_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

export const tripAddons = pgTable(
  'trip_addons',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    tripId: integer('trip_id')
      .notNull()
      .references(() => trips.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    pricePence: integer('price_pence').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('trip_addons_price_check', sql`${t.pricePence} >= 0`), index('trip_addons_trip_idx').on(t.tripId)],
);

export const tripCustomFields = pgTable(
  'trip_custom_fields',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    tripId: integer('trip_id')
      .notNull()
      .references(() => trips.id, { onDelete: 'cascade' }),
    label: text().notNull(),
    // instructions shown under the form field
    note: text(),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('trip_custom_fields_trip_idx').on(t.tripId, t.sortOrder)],
);

export const tripDocuments = pgTable(
  'trip_documents',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    tripId: integer('trip_id')
      .notNull()
      .references(() => trips.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    // the uploader's file name, shown to staff; the bytes live under storedFile
    filename: text(),
    storedFile: text('stored_file'),
    mimeType: text('mime_type'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('trip_documents_trip_idx').on(t.tripId),
    check('trip_documents_size_check', sql`${t.sizeBytes} is null or ${t.sizeBytes} >= 0`),
  ],
);
