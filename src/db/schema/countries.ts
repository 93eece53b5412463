import { char, pgTable, smallint, text } from 'drizzle-orm/pg-core';

/** ISO 3166-1: every country, loaded by a migration. id is the numeric code. */
export const countries = pgTable('countries', {
  id: smallint().primaryKey(),
  code: char({ length: 2 }).notNull().unique(),
  name: text().notNull(),
});
