import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  uniqueIndex,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { bookings } from './bookings.ts';
import { discounts } from './discounts.ts';
import { schoolGroups } from './groups.ts';
import { tripAddons } from './trips.ts';
import { users } from './users.ts';

// the CHECKs below spell out INVOICE_TYPES, TRANSACTION_TYPES and PROCESSORS of src/contract/invoices.ts

/**
 * Totals, outstanding amount, paid flag and status are derived from items, add-ons,
 * discount and live transactions; nothing derived is stored.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'restrict' }),
    invoiceRef: text('invoice_ref').notNull().unique(),
    type: text().notNull(),
    description: text().notNull(),
    invoiceDate: date('invoice_date').notNull(),
    dueDate: date('due_date').notNull(),
    discountId: integer('discount_id').references(() => discounts.id, { onDelete: 'set null' }),
    // kept as text too, so the invoice still reads right if the discount is deleted
    discountCode: text('discount_code'),
    discountPence: integer('discount_pence').notNull().default(0),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * A school group's share of this pupil's trip (issue 37): billed to the school, one line of
     * its group invoice; not the parents' to pay, so never in money owed, their page or reminders.
     */
    groupId: integer('group_id').references(() => schoolGroups.id, { onDelete: 'restrict' }),
  },
  (t) => [
    check('invoices_type_check', sql`${t.type} in ('deposit', 'balance', 'addon', 'other', 'cancellation')`),
    check('invoices_discount_check', sql`${t.discountPence} >= 0`),
    check('invoices_due_check', sql`${t.dueDate} >= ${t.invoiceDate}`),
    index('invoices_booking_idx').on(t.bookingId),
    index('invoices_group_idx')
      .on(t.groupId)
      .where(sql`${t.groupId} is not null`),
    // the next INV- number is the largest so far plus one: read from the end of this index, not from every invoice
    index('invoices_ref_number_idx').on(sql`(substring(${t.invoiceRef} from '^INV-([0-9]{1,9})$')::int)`),
  ],
);

export const invoiceItems = pgTable(
  'invoice_items',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    description: text().notNull(),
    amountPence: integer('amount_pence').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [
    check('invoice_items_amount_check', sql`${t.amountPence} >= 0`),
    index('invoice_items_invoice_idx').on(t.invoiceId),
  ],
);

/** Booking add-ons billed on an invoice, at the price billed. */
export const invoiceAddons = pgTable(
  'invoice_addons',
  {
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    addonId: integer('addon_id')
      .notNull()
      .references(() => tripAddons.id, { onDelete: 'restrict' }),
    name: text().notNull(),
    pricePence: integer('price_pence').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.invoiceId, t.addonId] }),
    check('invoice_addons_price_check', sql`${t.pricePence} >= 0`),
  ],
);

/** Payments and refunds: append-only; a delete only marks the row. */
export const transactions = pgTable(
  'transactions',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'restrict' }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    invoiceType: text('invoice_type').notNull(),
    amountPence: integer('amount_pence').notNull(),
    type: text().notNull(),
    processor: text().notNull(),
    date: date().notNull(),
    notes: text(),
    idempotencyKey: text('idempotency_key').unique(),
    /** the card provider's id of this money (Stripe's pi_… of a payment, re_… of a refund) */
    providerRef: text('provider_ref'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: integer('deleted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('transactions_amount_check', sql`${t.amountPence} > 0`),
    check('transactions_type_check', sql`${t.type} in ('payment', 'refund')`),
    check('transactions_processor_check', sql`${t.processor} in ('STRIPE', 'BACS', 'CHEQUE', 'OTHER')`),
    check(
      'transactions_invoice_type_check',
      sql`${t.invoiceType} in ('deposit', 'balance', 'addon', 'other', 'cancellation')`,
    ),
    index('transactions_invoice_idx').on(t.invoiceId),
    // one entry per card payment or refund, however many times Stripe tells of it
    uniqueIndex('transactions_provider_ref_unique')
      .on(t.type, t.providerRef)
      .where(sql`${t.providerRef} is not null and ${t.deletedAt} is null`),
    index('transactions_booking_idx').on(t.bookingId),
  ],
);
