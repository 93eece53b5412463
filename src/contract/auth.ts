import { z } from 'zod';
import { teamPermissionsSchema, teamRefSchema } from './teams.ts';

export const loginSchema = z.object({
  email: z
    .string({ error: 'The email field is required.' })
    .trim()
    .min(1, { error: 'The email field is required.' })
    .max(254, { error: 'The email must not be longer than 254 characters.' }),
  password: z
    .string({ error: 'The password field is required.' })
    .min(1, { error: 'The password field is required.' })
    .max(1024, { error: 'The password must not be longer than 1024 characters.' }),
  // where to go after signing in (form posts); only a path of this site is honoured
  next: z.string().optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const LOGIN_FAILED = 'These credentials do not match our records.';

export const currentUserSchema = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  user_role_id: z.number().int(),
  role: z.object({ display_name: z.string() }),
  /** a Charity user's charity, whose fundraisers the portal shows; else null */
  charity_id: z.number().int().nullable(),
  /** an Administrator's team (issue 36), and what it may do: the web app builds its menus from it */
  team: teamRefSchema.nullable(),
  permissions: teamPermissionsSchema.nullable(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** What every HTML page carries for the client, beside the csrf-token meta tag. */
export type Bootstrap = {
  user: CurrentUser | null;
  flash: string[];
  /** whether invoices can be paid by card (Stripe is set up); absent on older pages: no */
  card_payments?: boolean;
};
