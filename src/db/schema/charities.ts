import { sql } from 'drizzle-orm';
import { index, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/** Spec §3: 1 Animal … 8 Other. Reference data loaded by a migration. */
export const charityTypes = pgTable('charity_types', {
  id: smallint().primaryKey(),
  description: text().notNull(),
});

export const charities = pgTable(
  'charities',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    charityTypeId: smallint('charity_type_id')
      .notNull()
      .default(5)
      .references(() => charityTypes.id),
    url: text(),
    // server-made file name under DATA_DIR/files/logos
    logoFile: text('logo_file'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('charities_type_idx').on(t.charityTypeId),
    index('charities_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);
