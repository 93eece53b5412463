import { z } from 'zod';
import { recordId } from './common.ts';
import { CHASER_CHECKS } from './readiness-constants.ts';
import { reasonText } from './schedules.ts';

export { CHASER_CHECKS, type ChaserCheck } from './readiness-constants.ts';

// ---- chasers and the trip's documents, sent from the readiness board ----

const bookingIds = (verb: string) =>
  z
    .array(recordId('booking'), { error: `Choose the bookings to ${verb}.` })
    .min(1, { error: `Choose the bookings to ${verb}.` })
    .max(500, { error: `At most 500 bookings can be sent to at once.` });

/** POST /api/trips/{id}/chasers: a chaser now, for each chosen booking and check that is not green. */
export const chaserInputSchema = z.object({
  booking_ids: bookingIds('chase'),
  checks: z
    .array(z.enum(CHASER_CHECKS, { error: 'A chaser can be sent for the passport or the forms.' }), {
      error: 'Choose what to chase: the passport, the forms or both.',
    })
    .min(1, { error: 'Choose what to chase: the passport, the forms or both.' })
    .max(CHASER_CHECKS.length, { error: 'Choose each check once.' }),
});
export type ChaserInput = z.input<typeof chaserInputSchema>;

/** POST /api/trips/{id}/documents/send: the trip's documents emailed to each chosen booking's traveller. */
export const sendDocumentsInputSchema = z.object({ booking_ids: bookingIds('send the documents to') });
export type SendDocumentsInput = z.input<typeof sendDocumentsInputSchema>;

const outcomeSchema = z.object({ booking_id: z.number().int(), check: z.string(), reason: z.string() });
/** What became of each booking and check: sent, left alone (and why), or refused by the mail server. */
export const chaserResultSchema = z.object({
  message: z.string(),
  sent: z.array(z.object({ booking_id: z.number().int(), check: z.string() })),
  skipped: z.array(outcomeSchema),
  failed: z.array(outcomeSchema),
});
export type ChaserResult = z.infer<typeof chaserResultSchema>;

/** PUT /api/bookings/{id}/chasers: automatic chasers on or off for one booking, with why. */
export const chasersSettingSchema = z
  .object({
    send: z.boolean({ error: 'Say whether to send automatic chasers (true or false).' }),
    reason: reasonText.optional(),
  })
  .refine((v) => v.send || (v.reason ?? '').length > 0, {
    error: 'Say why automatic chasers are turned off.',
    path: ['reason'],
  });
export type ChasersSetting = z.input<typeof chasersSettingSchema>;
