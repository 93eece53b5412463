import { z } from 'zod';
import { isoDate } from './invoices.ts';

// ---- erasure after return ----

/** What is erased, by its name in the API (the booking's own field names). */
export const ERASED_FIELDS = [
  'passport_number',
  'passport_issue_date',
  'passport_expiry_date',
  'passport_image',
  'nationality',
  'medical_conditions',
  'medical_detail',
  'medication',
  'dietary',
  'insurance_policy_number',
  'nok_name',
  'nok_relationship',
  'nok_email',
  'nok_telephone',
  'nok_address',
] as const;
export type ErasedField = (typeof ERASED_FIELDS)[number];

/** GET /api/retention/preview: what the next run will erase (the first 100), for Administrators. */
export const retentionPreviewSchema = z.object({
  retention_days: z.number().int(),
  /** trips that came back before this day are due */
  returned_before: z.string(),
  total: z.number().int(),
  bookings: z.array(
    z.object({
      booking_id: z.number().int(),
      booking_ref: z.string(),
      traveller: z.string(),
      trip_name: z.string(),
      returned: z.string(),
      fields: z.array(z.enum(ERASED_FIELDS)),
    }),
  ),
  /** bookings due but held back by a "keep until" day */
  held: z.number().int(),
});
export type RetentionPreview = z.infer<typeof retentionPreviewSchema>;

/** PUT /api/bookings/{id}/keep-until: hold the erasure back until a day, saying why; null lets it go. */
export const keepUntilSchema = z
  .object({
    keep_until: isoDate('keep until date').nullable(),
    reason: z
      .string({ error: 'The reason must be text.' })
      .trim()
      .max(500, { error: 'The reason may be at most 500 characters.' })
      .nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.keep_until && !v.reason)
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'Say why the details are kept (a claim, an incident).',
      });
  });
export type KeepUntilInput = z.input<typeof keepUntilSchema>;
