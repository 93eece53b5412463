import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { trips } from './trips.ts';

export const DISCOUNT_INVOICE_TYPES = ['any', 'deposit', 'balance', 'other'] as const;

export const discounts = pgTable(
  'discounts',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    code: text().notNull(),
    // shown as Description
    name: text().notNull(),
    amountPence: integer('amount_pence').notNull(),
    usageLimit: integer('usage_limit').notNull().default(1),
    usageCount: integer('usage_count').notNull().default(0),
    // entered as dd/mm/yyyy, kept as that date at 00:00:00
    validFrom: timestamp('valid_from', { withTimezone: false }),
    validUntil: timestamp('valid_until', { withTimezone: false }),
    tripId: integer('trip_id').references(() => trips.id, { onDelete: 'set null' }),
    invoiceType: text('invoice_type').notNull().default('any'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('discounts_code_lower_unique').on(sql`lower(${t.code})`),
    index('discounts_trip_idx').on(t.tripId),
    check('discounts_amount_check', sql`${t.amountPence} >= 0`),
    check('discounts_usage_limit_check', sql`${t.usageLimit} >= 0`),
    check('discounts_usage_count_check', sql`${t.usageCount} >= 0`),
    check('discounts_invoice_type_check', sql`${t.invoiceType} in ('any', 'deposit', 'balance', 'other')`),
    check(
      'discounts_validity_check',
      sql`${t.validFrom} is null or ${t.validUntil} is null or ${t.validUntil} >= ${t.validFrom}`,
    ),
  ],
);
