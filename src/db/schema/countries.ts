import { sql } from 'drizzle-orm';
import { char, check, pgTable, smallint, text } from 'drizzle-orm/pg-core';

/**
 * ISO 3166-1: every country, loaded by a migration. id is the numeric code.
 * Each carries the passport rule of travellers going there: how many months a passport
 * must still be valid after the trip's return, and an optional note (blank pages, issue date).
 */
export const countries = pgTable(
  'countries',
  {
    id: smallint().primaryKey(),
    code: char({ length: 2 }).notNull().unique(),
    name: text().notNull(),
    passportMonths: smallint('passport_months').notNull().default(6),
    passportNote: text('passport_note'),
  },
  // the limits spell out PASSPORT_MONTHS_MAX of src/contract/country-constants.ts
  (t) => [check('countries_passport_months_check', sql`${t.passportMonths} between 0 and 24`)],
);
