import { z } from 'zod';
import { READINESS_CHECKS, READINESS_STATES } from './readiness-constants.ts';

export {
  CONSENT_UNDER_AGE,
  DEFAULT_CONSENT_TEXT,
  SCHOOL_ONLY_CHECKS,
  READINESS_CHECK_LABELS,
  READINESS_CHECKS,
  READINESS_STATES,
  READINESS_URGENT_DAYS,
  type ReadinessCheck,
  type ReadinessState,
} from './readiness-constants.ts';

export const checkResultSchema = z.object({
  state: z.enum(READINESS_STATES),
  reason: z.string(),
  /** something the traveller gave that the office must look at (a passport photo): shown "to check" until ticked */
  to_check: z.boolean().optional(),
});
export type CheckResult = z.infer<typeof checkResultSchema>;

const checksSchema = z.object(
  Object.fromEntries(READINESS_CHECKS.map((c) => [c, checkResultSchema])) as Record<
    (typeof READINESS_CHECKS)[number],
    typeof checkResultSchema
  >,
);

/** One live booking's checks. */
export const readinessRowSchema = z.object({
  booking_id: z.number().int(),
  booking_ref: z.string(),
  traveller: z.string(),
  status: z.string(),
  /** every check green */
  ready: z.boolean(),
  checks: checksSchema,
  /** automatic chasers are off for this booking (PUT /api/bookings/{id}/chasers), and why */
  chasers_off: z.boolean(),
  chasers_off_reason: z.string().nullable(),
  /** the last chaser emailed, if any: which check and on what day */
  last_chaser: z.object({ check: z.string(), sent_on: z.string() }).nullable(),
});
export type ReadinessRow = z.infer<typeof readinessRowSchema>;

/** GET /api/trips/{id}/readiness: every live booking (provisional and confirmed) and the summary. */
export const tripReadinessSchema = z.object({
  trip: z.object({
    id: z.number().int(),
    name: z.string(),
    departure: z.string(),
    return: z.string(),
    country: z.string(),
    passport_months: z.number().int(),
    passport_note: z.string().nullable(),
    /** a school trip: each pupil under 18 needs a parent's consent (the consent check) */
    asks_consent: z.boolean(),
  }),
  summary: z.object({
    bookings: z.number().int(),
    ready: z.number().int(),
    checks: z.object(
      Object.fromEntries(
        READINESS_CHECKS.map((c) => [
          c,
          z.object({ green: z.number().int(), amber: z.number().int(), red: z.number().int() }),
        ]),
      ) as Record<
        (typeof READINESS_CHECKS)[number],
        z.ZodObject<{ green: z.ZodNumber; amber: z.ZodNumber; red: z.ZodNumber }>
      >,
    ),
  }),
  rows: z.array(readinessRowSchema),
});
export type TripReadiness = z.infer<typeof tripReadinessSchema>;
