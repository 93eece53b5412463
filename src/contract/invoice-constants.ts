// Plain values of the contract (no zod), so that a screen which shows them does not load zod.

export const INVOICE_TYPES = ['deposit', 'balance', 'addon', 'other', 'cancellation'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];
export const INVOICE_TYPE_LABELS: Record<InvoiceType, string> = {
  deposit: 'Deposit',
  balance: 'Balance',
  addon: 'Add-on',
  other: 'Other',
  cancellation: 'Cancellation',
};
/** The types an invoice made by hand may have: a cancellation invoice is made by cancelling the booking. */
export const HAND_INVOICE_TYPES = ['deposit', 'balance', 'addon', 'other'] as const;
/** The two invoices Tripdesk works out by itself (POST /api/bookings/{id}/invoices). */
export const STANDARD_INVOICE_TYPES = ['deposit', 'balance'] as const;

export const INVOICE_STATUSES = ['Unpaid', 'Part Paid', 'Paid', 'Overdue', 'Refunded'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const TRANSACTION_TYPES = ['payment', 'refund'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
/** STRIPE is the card payment provider. */
export const PROCESSORS = ['STRIPE', 'BACS', 'CHEQUE', 'OTHER'] as const;
export type Processor = (typeof PROCESSORS)[number];
export const PROCESSOR_LABELS: Record<Processor, string> = {
  STRIPE: 'Card (Stripe)',
  BACS: 'BACS',
  CHEQUE: 'Cheque',
  OTHER: 'Other',
};

/** A standard deposit invoice is due this many days after it is raised. */
export const DEPOSIT_DUE_DAYS = 14;
/** A standard balance invoice is due this many days before departure (or at once, when that has passed). */
export const BALANCE_DUE_DAYS_BEFORE_DEPARTURE = 56;

export const NO_ITEMS_MESSAGE = 'Please add at least one item to this invoice';
export const TRANSACTION_DONE_MESSAGE = 'Transaction has been processed.';
export const INVOICE_SENT_MESSAGE = 'Invoice has been emailed to the customer.';
/** Spec §2, word for word. */
export const REFUND_WARNING =
  "Refunds are not automatically processed against card transactions and should be done through the card payment provider's dashboard.";

/**
 * Whether an invoice may still be paid: a cancelled booking's invoices are closed, but for the
 * cancellation invoice that bills the fee left to pay (issue 35).
 */
export const stillPayable = (bookingStatus: string, invoiceType: string): boolean =>
  bookingStatus !== 'cancelled' || invoiceType === 'cancellation';
