import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { bookings } from './bookings.ts';
import { schoolGroups } from './groups.ts';
import { invoices, transactions } from './invoices.ts';

/**
 * Every Stripe Checkout Session made for a pay link: what it asked for, and the payment it
 * became. A session is applied once, whichever of the webhook, the return page or the hourly
 * reconciliation sees it paid first: the one that locks this row and finds no transaction on it.
 */
export const cardCheckouts = pgTable(
  'card_checkouts',
  {
    /** Stripe's id, cs_… */
    id: text().primaryKey(),
    /** null once the invoice is deleted (an unpaid session may outlive it) */
    invoiceId: integer('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    /** null for a school's group invoice, which spans its pupils' bookings */
    bookingId: bigint('booking_id', { mode: 'number' }).references(() => bookings.id, { onDelete: 'cascade' }),
    /** a school paying its group invoice (issue 37): the payment is split to its pupils' shares */
    groupId: integer('group_id').references(() => schoolGroups.id, { onDelete: 'cascade' }),
    amountPence: integer('amount_pence').notNull(),
    /** open (not paid yet), complete (paid and recorded), expired */
    status: text().notNull().default('open'),
    paymentIntent: text('payment_intent'),
    transactionId: integer('transaction_id').references(() => transactions.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    check('card_checkouts_status_check', sql`${t.status} in ('open', 'complete', 'expired')`),
    check('card_checkouts_amount_check', sql`${t.amountPence} > 0`),
    check('card_checkouts_payer_check', sql`${t.bookingId} is not null or ${t.groupId} is not null`),
    index('card_checkouts_open_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'open'`),
    index('card_checkouts_invoice_idx').on(t.invoiceId),
  ],
);

/** Every verified Stripe event, kept by its id so that a redelivered one is applied once. */
export const stripeEvents = pgTable('stripe_events', {
  /** evt_… */
  id: text().primaryKey(),
  type: text().notNull(),
  /** what Tripdesk did with it, for the log and for support */
  outcome: text().notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The receipt emailed for a card payment: one per payment, claimed before it is sent. */
export const paymentReceipts = pgTable(
  'payment_receipts',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    transactionId: integer('transaction_id')
      .notNull()
      .unique('payment_receipts_transaction_unique')
      .references(() => transactions.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    /** sending (claimed), sent, failed (the mail server refused) */
    outcome: text().notNull(),
    error: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('payment_receipts_outcome_check', sql`${t.outcome} in ('sending', 'sent', 'failed')`)],
);

/**
 * Invoices that have received more than their total (a card payment made twice, from two tabs or
 * two payers): the refund the office owes, kept by the database itself. Triggers on transactions
 * and on invoices' items and add-ons rebuild an invoice's row in the same transaction as the
 * change (migration 0030, `refunds_due_refresh`); a refund that settles it removes it.
 */
export const refundsDue = pgTable(
  'refunds_due',
  {
    invoiceId: integer('invoice_id')
      .primaryKey()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    bookingId: bigint('booking_id', { mode: 'number' })
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    overpaidPence: bigint('overpaid_pence', { mode: 'number' }).notNull(),
    since: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('refunds_due_overpaid_check', sql`${t.overpaidPence} > 0`), index('refunds_due_since_idx').on(t.since)],
);
