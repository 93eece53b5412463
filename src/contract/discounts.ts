import { z } from 'zod';
import { parseDdMmYyyy } from './dates.ts';
import { poundsToPence } from './money.ts';
import { int4 } from './common.ts';

/**
 * Spec §5: a date typed as dd/mm/yyyy, accepted only when exactly 10 characters long and a
 * real date; blank means none. Parses to yyyy-mm-dd.
 */
export const optionalDdMmYyyy = (label: string) =>
  z
    .string({ error: `The ${label} must be a date in the format dd/mm/yyyy.` })
    .nullish()
    .transform((v, ctx) => {
      const value = (v ?? '').trim();
      if (value === '') return null;
      const iso = parseDdMmYyyy(value);
      if (!iso) {
        ctx.addIssue({ code: 'custom', message: `The ${label} must be a real date in the format dd/mm/yyyy.` });
        return z.NEVER;
      }
      return iso;
    });

export const DISCOUNT_INVOICE_TYPES = ['any', 'deposit', 'balance', 'other'] as const;
export type DiscountInvoiceType = (typeof DISCOUNT_INVOICE_TYPES)[number];
/** Spec §9 */
export const DEFAULT_USAGE_LIMIT = 1;

export const discountInputSchema = z
  .object({
    code: z
      .string({ error: 'The code field is required.' })
      .trim()
      .min(1, { error: 'The code field is required.', abort: true })
      .max(50, { error: 'The code must not be longer than 50 characters.' })
      .regex(/^[A-Za-z0-9_-]+$/, { error: 'The code may only contain letters, numbers, dashes and underscores.' }),
    name: z
      .string({ error: 'The description field is required.' })
      .trim()
      .min(1, { error: 'The description field is required.' })
      .max(255, { error: 'The description must not be longer than 255 characters.' }),
    invoice_type: z.enum(DISCOUNT_INVOICE_TYPES, { error: 'The selected invoice type is invalid.' }).default('any'),
    trip_id: z
      .union([z.literal(''), z.null(), int4('The selected trip is invalid.').positive()], {
        error: 'The selected trip is invalid.',
      })
      .optional()
      .transform((v) => (v === '' || v === undefined ? null : v)),
    amount: poundsToPence('amount'),
    usage_limit: int4('The usage limit must be a whole number.')
      .min(1, { error: 'The usage limit must be at least 1.' })
      .max(1_000_000, { error: 'The usage limit must not be more than 1,000,000.' })
      .default(DEFAULT_USAGE_LIMIT),
    valid_from: optionalDdMmYyyy('valid from date'),
    valid_until: optionalDdMmYyyy('valid until date'),
  })
  .superRefine((v, ctx) => {
    if (v.valid_from && v.valid_until && v.valid_until < v.valid_from) {
      ctx.addIssue({
        code: 'custom',
        path: ['valid_until'],
        message: 'The valid until date must be on or after the valid from date.',
      });
    }
  });
export type DiscountInput = z.input<typeof discountInputSchema>;
export type DiscountValues = z.output<typeof discountInputSchema>;

export const discountListQuery = z.object({ keyword: z.string().trim().max(255).optional() });

export const discountSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  /** pounds */
  amount: z.number(),
  usage_limit: z.number().int(),
  usage_count: z.number().int(),
  /** ISO date-time at 00:00:00, e.g. 2026-11-22T00:00:00 */
  valid_from: z.string().nullable(),
  valid_until: z.string().nullable(),
  trip_id: z.number().int().nullable(),
  trip: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  invoice_type: z.enum(DISCOUNT_INVOICE_TYPES),
});
export type Discount = z.infer<typeof discountSchema>;

export const tripSelectItemSchema = z.object({ id: z.number().int(), name: z.string() });
export type TripSelectItem = z.infer<typeof tripSelectItemSchema>;
