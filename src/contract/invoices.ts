import { z } from 'zod';
import { recordId } from './common.ts';
import { poundsToPence } from './money.ts';
import {
  INVOICE_TYPES,
  HAND_INVOICE_TYPES,
  STANDARD_INVOICE_TYPES,
  INVOICE_STATUSES,
  TRANSACTION_TYPES,
  PROCESSORS,
  NO_ITEMS_MESSAGE,
} from './invoice-constants.ts';
export {
  INVOICE_TYPES,
  HAND_INVOICE_TYPES,
  type InvoiceType,
  INVOICE_TYPE_LABELS,
  STANDARD_INVOICE_TYPES,
  INVOICE_STATUSES,
  type InvoiceStatus,
  TRANSACTION_TYPES,
  type TransactionType,
  PROCESSORS,
  type Processor,
  PROCESSOR_LABELS,
  DEPOSIT_DUE_DAYS,
  BALANCE_DUE_DAYS_BEFORE_DEPARTURE,
  NO_ITEMS_MESSAGE,
  TRANSACTION_DONE_MESSAGE,
  INVOICE_SENT_MESSAGE,
  REFUND_WARNING,
} from './invoice-constants.ts';

// ---- invoices, payments and refunds (spec §2 Invoices panel, §3, §4, §5, §7) ----

const MIN_DATE = '2000-01-01';
const MAX_DATE = '2099-12-31';
export const isoDate = (label: string) =>
  z
    .string({ error: `The ${label} field is required.` })
    .trim()
    .min(1, { error: `The ${label} field is required.`, abort: true })
    .refine(
      (v) =>
        /^\d{4}-\d{2}-\d{2}$/.test(v) &&
        !Number.isNaN(Date.parse(v + 'T00:00:00Z')) &&
        new Date(v + 'T00:00:00Z').toISOString().startsWith(v),
      {
        error: `The ${label} must be a real date.`,
        abort: true,
      },
    )
    .refine((v) => v >= MIN_DATE && v <= MAX_DATE, { error: `The ${label} must be between 2000 and 2099.` });

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `The ${label} field is required.` })
    .trim()
    .min(1, { error: `The ${label} field is required.`, abort: true })
    .max(max, { error: `The ${label} must not be longer than ${max} characters.` });

const discountCode = z
  .string({ error: 'The discount code must be text.' })
  .trim()
  .max(50, { error: 'The discount code must not be longer than 50 characters.' })
  .nullish()
  .transform((v) => (v ? v : null));

const positivePence = (label: string) =>
  poundsToPence(label).refine((p) => p > 0, { error: `The ${label} must be more than £0.00.` });

const id = recordId;

/** POST /api/bookings/{id}/invoices — the standard deposit or balance invoice. */
export const createStandardInvoiceSchema = z.object({
  invoice_type: z.enum(STANDARD_INVOICE_TYPES, { error: 'The invoice type must be deposit or balance.' }),
  discount_code: discountCode,
});
export type CreateStandardInvoiceInput = z.input<typeof createStandardInvoiceSchema>;

export const invoiceItemInputSchema = z.object({
  description: requiredText('description', 255),
  amount: positivePence('amount'),
});

/** POST /api/invoices — a custom invoice (the New Invoice dialog, spec §5). */
export const createInvoiceSchema = z
  .object({
    booking_id: id('booking'),
    invoice_date: isoDate('invoice date'),
    due_date: isoDate('due date'),
    type: z.enum(HAND_INVOICE_TYPES, { error: 'The type must be deposit, balance, add-on or other.' }).default('other'),
    invoice_ref: requiredText('reference', 50),
    description: requiredText('description', 255),
    items: z
      .array(invoiceItemInputSchema, { error: 'The items must be a list.' })
      .max(50, { error: 'An invoice may have at most 50 items.' })
      .default([]),
    addons: z.array(recordId('add-on'), { error: 'The add-ons must be a list.' }).default([]),
    discount_code: discountCode,
  })
  .superRefine((v, ctx) => {
    if (v.items.length === 0 && v.addons.length === 0)
      ctx.addIssue({ code: 'custom', path: ['items'], message: NO_ITEMS_MESSAGE });
    if (v.due_date < v.invoice_date)
      ctx.addIssue({
        code: 'custom',
        path: ['due_date'],
        message: 'The due date must not be before the invoice date.',
      });
    if (new Set(v.addons).size !== v.addons.length)
      ctx.addIssue({ code: 'custom', path: ['addons'], message: 'Each add-on may be billed only once.' });
  });
export type CreateInvoiceInput = z.input<typeof createInvoiceSchema>;

export const invoiceQuery = z.object({ booking_id: id('booking') });

/** POST /api/transactions — a payment, or a refund when the type selector says refund (spec §4). */
export const createTransactionSchema = z.object({
  booking_id: id('booking'),
  invoice_id: id('invoice'),
  invoice_type: z.enum(INVOICE_TYPES, {
    error: 'The invoice type must be deposit, balance, add-on, other or cancellation.',
  }),
  amount: positivePence('amount'),
  type: z.enum(TRANSACTION_TYPES, { error: 'The type must be payment or refund.' }).default('payment'),
  processor: z.enum(PROCESSORS, { error: 'Choose how the money was paid.' }),
  date: isoDate('date'),
  notes: z
    .string()
    .trim()
    .max(1000, { error: 'The notes must not be longer than 1000 characters.' })
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type CreateTransactionInput = z.input<typeof createTransactionSchema>;
export type CreateTransactionValues = z.output<typeof createTransactionSchema>;

export const transactionSchema = z.object({
  id: z.number().int(),
  booking_id: z.number().int(),
  invoice_id: z.number().int(),
  invoice_type: z.enum(INVOICE_TYPES),
  amount: z.number(),
  type: z.enum(TRANSACTION_TYPES),
  processor: z.enum(PROCESSORS),
  date: z.string(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  notes: z.string().nullable(),
  /** the card provider's id of this money (Stripe's pi_… or re_…), when it reported it */
  provider_ref: z.string().nullable(),
  /** a deleted entry stays in the history, struck through; totals ignore it */
  deleted_at: z.string().nullable(),
  deleted_by: z.string().nullable(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const invoiceSchema = z.object({
  id: z.number().int(),
  booking_id: z.number().int(),
  invoice_date: z.string(),
  due_date: z.string(),
  type: z.enum(INVOICE_TYPES),
  invoice_ref: z.string(),
  description: z.string(),
  items: z.array(z.object({ description: z.string(), amount: z.number() })),
  addons: z.array(z.object({ id: z.number().int(), name: z.string(), price: z.number() })),
  /** items + add-ons − discount */
  total: z.number(),
  /** payments − refunds, live entries only */
  payment_received: z.number(),
  refunded: z.number(),
  outstanding: z.number(),
  status: z.enum(INVOICE_STATUSES),
  paid: z.boolean(),
  /** money still owed after the due date (a part-paid invoice too) */
  past_due: z.boolean(),
  discount_amount: z.number(),
  discount_code: z.string().nullable(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
  transactions: z.array(transactionSchema),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** GET /api/invoices/{id}: the invoice with everything its printed page and PDF show. */
export const invoiceDocumentSchema = z.object({
  invoice: invoiceSchema,
  operator: z.object({ name: z.string(), address: z.array(z.string()) }),
  customer: z.object({ name: z.string(), email: z.string(), address: z.array(z.string()) }),
  booking: z.object({ id: z.number().int(), ref: z.string() }),
  trip: z.object({ name: z.string(), departure: z.string(), return: z.string() }),
  /** the invoice's pay link and its QR code (a PNG data URL), when it can be paid by card now */
  pay: z.object({ url: z.string(), qr: z.string() }).nullable(),
});
export type InvoiceDocument = z.infer<typeof invoiceDocumentSchema>;

export const invoiceSendParams = z.object({ id: id('booking'), invoiceId: id('invoice') });
export const invoiceSentSchema = z.object({ message: z.string(), sent_at: z.string() });
