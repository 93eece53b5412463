import { z } from 'zod';
import { isStorableText, recordId, UNSTORABLE_TEXT_MESSAGE } from './common.ts';
import { LEVELS } from './team-constants.ts';
export * from './team-constants.ts';

const level = (label: string) => z.enum(LEVELS, { error: `The ${label} permission must be none, read or change.` });

export const teamPermissionsSchema = z.object({
  bookings: level('bookings'),
  trips: level('trips'),
  finance: level('finance'),
  charities: level('charities'),
  people: level('people'),
  settings: level('settings'),
  traveller_data: level('traveller data'),
});

export const teamInputSchema = z.object({
  name: z
    .string({ error: 'The name field is required.' })
    .trim()
    .min(1, { error: 'The name field is required.', abort: true })
    .max(100, { error: 'The name must not be longer than 100 characters.' })
    .refine(isStorableText, { error: UNSTORABLE_TEXT_MESSAGE }),
  permissions: teamPermissionsSchema,
});
export type TeamInput = z.input<typeof teamInputSchema>;

export const teamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Full access: every permission, always; it cannot be changed or deleted */
  full_access: z.boolean(),
  permissions: teamPermissionsSchema,
  members: z.array(
    z.object({ id: z.number().int(), first_name: z.string(), last_name: z.string(), email: z.string() }),
  ),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Team = z.infer<typeof teamSchema>;

export const teamIdParam = z.object({ id: recordId('team') });

/** The team named in a user's record and in /api/me. */
export const teamRefSchema = z.object({ id: z.number().int(), name: z.string() });
