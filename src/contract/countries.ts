import { z } from 'zod';
import { PASSPORT_MONTHS_MAX, PASSPORT_NOTE_MAX } from './country-constants.ts';

export { PASSPORT_MONTHS_DEFAULT, PASSPORT_MONTHS_MAX, PASSPORT_NOTE_MAX } from './country-constants.ts';

export const countrySchema = z.object({ id: z.number().int(), name: z.string() });
export type Country = z.infer<typeof countrySchema>;
export const countryListSchema = z.array(countrySchema);

/** A destination's passport rule: GET /api/countries/passport-rules, GET/PUT /api/countries/{id}/passport-rule. */
export const passportRuleSchema = z.object({
  country_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  /** months the passport must still be valid after the trip's return */
  months: z.number().int(),
  /** e.g. blank pages, or how recently it must have been issued */
  note: z.string().nullable(),
});
export type PassportRule = z.infer<typeof passportRuleSchema>;
export const passportRuleListSchema = z.array(passportRuleSchema);

const MONTHS_MESSAGE = `The months must be a whole number from 0 to ${PASSPORT_MONTHS_MAX}.`;

export const passportRuleInputSchema = z.object({
  months: z
    .number({ error: MONTHS_MESSAGE })
    .int({ error: MONTHS_MESSAGE })
    .min(0, { error: MONTHS_MESSAGE })
    .max(PASSPORT_MONTHS_MAX, { error: MONTHS_MESSAGE }),
  note: z
    .string({ error: 'The note must be text.' })
    .trim()
    .max(PASSPORT_NOTE_MAX, { error: `The note may be at most ${PASSPORT_NOTE_MAX} characters.` })
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type PassportRuleInput = z.input<typeof passportRuleInputSchema>;
