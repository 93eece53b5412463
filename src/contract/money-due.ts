import { z } from 'zod';
import { int2, pageParam, paged, recordId } from './common.ts';
import { isoDate } from './invoices.ts';
import { AGE_BUCKETS, DUE_WITHIN_MAX, MONEY_DUE_SORTS, type AgeBucket } from './money-due-constants.ts';
import { TRIP_TYPES } from './trip-constants.ts';

// ---- money due (/money) ----

export {
  AGE_BUCKET_LABELS,
  AGE_BUCKETS,
  MONEY_DUE_PER_PAGE,
  MONEY_DUE_SORTS,
  type AgeBucket,
} from './money-due-constants.ts';

const flag = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false'])], { error: 'The overdue filter must be 1 or 0.' })
  .transform((v) => v === true || v === '1' || v === 'true');

const DUE_WITHIN_MESSAGE = `The number of days must be a whole number from 0 to ${DUE_WITHIN_MAX}.`;

export const moneyDueQuery = z.object({
  page: pageParam(),
  trip_id: recordId('trip').optional(),
  trip_type: z.enum(TRIP_TYPES, { error: 'The trip type must be charity, open or school.' }).optional(),
  overdue: flag.optional(),
  // the dashboard's overdue card: the season's trips, by departure
  departure_from: isoDate('departure from date').optional(),
  departure_to: isoDate('departure to date').optional(),
  due_within: int2(DUE_WITHIN_MESSAGE)
    .min(0, { error: DUE_WITHIN_MESSAGE })
    .max(DUE_WITHIN_MAX, { error: DUE_WITHIN_MESSAGE })
    .optional(),
  sort: z.enum(MONEY_DUE_SORTS, { error: 'The list cannot be sorted by that field.' }).default('due_date'),
  dir: z.enum(['asc', 'desc'], { error: 'The sort direction must be asc or desc.' }).default('asc'),
});
export type MoneyDueQuery = z.input<typeof moneyDueQuery>;

export const moneyDueRowSchema = z.object({
  /** an invoice with money outstanding, or an instalment not invoiced yet */
  kind: z.enum(['invoice', 'instalment']),
  id: z.number().int(),
  label: z.string(),
  invoice_id: z.number().int().nullable(),
  invoice_ref: z.string().nullable(),
  booking_id: z.number().int(),
  booking_ref: z.string(),
  traveller: z.string(),
  trip_id: z.number().int(),
  trip_name: z.string(),
  trip_type: z.enum(TRIP_TYPES),
  departure: z.string(),
  due_date: z.string(),
  /** 0 when not yet due */
  days_overdue: z.number().int(),
  outstanding: z.number(),
  last_reminder_at: z.string().nullable(),
});
export type MoneyDueRow = z.infer<typeof moneyDueRowSchema>;

export const moneyDuePageSchema = paged(moneyDueRowSchema).extend({
  /** totals of the whole filtered list, by how overdue */
  buckets: z.object(Object.fromEntries(AGE_BUCKETS.map((b) => [b, z.number()])) as Record<AgeBucket, z.ZodNumber>),
  total_outstanding: z.number(),
});
export type MoneyDuePage = z.infer<typeof moneyDuePageSchema>;

/** GET /api/money-due/refunds: invoices paid more than their total, the refund owed on each (oldest first). */
export const refundDueSchema = z.object({
  invoice_id: z.number().int(),
  invoice_ref: z.string(),
  booking_id: z.number().int(),
  booking_ref: z.string(),
  traveller: z.string(),
  /** pounds */
  overpaid: z.number(),
  since: z.string(),
});
export type RefundDue = z.infer<typeof refundDueSchema>;
export const refundsDueSchema = z.object({ data: z.array(refundDueSchema), total: z.number().int() });
export type RefundsDue = z.infer<typeof refundsDueSchema>;
