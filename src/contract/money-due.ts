import { z } from 'zod';
import { int2, pageParam, paged, recordId } from './common.ts';
import { TRIP_TYPES } from './trip-constants.ts';

// ---- money due (issue 17: /money) ----

export const MONEY_DUE_SORTS = ['due_date', 'days_overdue', 'outstanding', 'departure', 'traveller', 'trip', 'last_reminder'] as const;
export const AGE_BUCKETS = ['not_due', 'days_1_30', 'days_31_60', 'days_61_90', 'days_90_plus'] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];
export const AGE_BUCKET_LABELS: Record<AgeBucket, string> = {
  not_due: 'Not yet due',
  days_1_30: '1–30 days overdue',
  days_31_60: '31–60 days overdue',
  days_61_90: '61–90 days overdue',
  days_90_plus: 'Over 90 days overdue',
};
export const MONEY_DUE_PER_PAGE = 25;

const flag = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false'])], { error: 'The overdue filter must be 1 or 0.' })
  .transform((v) => v === true || v === '1' || v === 'true');

export const moneyDueQuery = z.object({
  page: pageParam(),
  trip_id: recordId('trip').optional(),
  trip_type: z.enum(TRIP_TYPES, { error: 'The trip type must be charity, open or school.' }).optional(),
  overdue: flag.optional(),
  due_within: int2('The number of days must be a whole number from 0 to 3650.').min(0, { error: 'The number of days must be a whole number from 0 to 3650.' }).max(3650, { error: 'The number of days must be a whole number from 0 to 3650.' }).optional(),
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
