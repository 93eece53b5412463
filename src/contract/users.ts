import { z } from 'zod';
import { int2, pageParam, recordId } from './common.ts';
import { MIN_PASSWORD_LENGTH } from './constants.ts';
import { teamRefSchema } from './teams.ts';
export { DEFAULT_ROLE, USERS_PER_PAGE, MIN_PASSWORD_LENGTH, userCreatedMessage } from './constants.ts';

const required = (label: string) =>
  z
    .string({ error: `The ${label} field is required.` })
    .trim()
    .min(1, { error: `The ${label} field is required.`, abort: true })
    .max(255, { error: `The ${label} must not be longer than 255 characters.` });

const email = required('email').pipe(z.email({ error: 'The email must be a valid email address.' }));

const role = int2('The selected role is invalid.')
  .min(1, { error: 'The selected role is invalid.' })
  .max(3, { error: 'The selected role is invalid.' });

// an Administrator's team (issue 36); blank or absent: Full access for a new Administrator, the
// same team for one who stays. Ignored for other roles.
const teamId = z
  .union([recordId('team'), z.literal(''), z.null()], { error: 'The selected team is invalid.' })
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v));

export const createUserSchema = z.object({
  team_id: teamId,
  email,
  first_name: required('first name'),
  last_name: required('last name'),
  user_role_id: z.union([z.literal(''), role], { error: 'The role field is required.' }).transform((v, ctx) => {
    if (v === '') {
      ctx.addIssue({ code: 'custom', message: 'The role field is required.' });
      return z.NEVER;
    }
    return v;
  }),
});
export type CreateUserInput = z.input<typeof createUserSchema>;

export const updateUserSchema = z
  .object({
    id: recordId('user'),
    email,
    first_name: required('first name'),
    last_name: required('last name'),
    user_role_id: role,
    // the charity a Charity user speaks for; blank or null: none. Ignored for other roles.
    charity_id: z
      .union([recordId('charity'), z.literal(''), z.null()], { error: 'The selected charity is invalid.' })
      .optional()
      .transform((v) => (v === '' ? null : v)),
    team_id: teamId,
    // blank means "keep the current password"
    password: z
      .string()
      .optional()
      .nullable()
      .transform((v) => (v ? v : null))
      .refine((v) => v === null || v.length >= MIN_PASSWORD_LENGTH, {
        error: `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`,
      })
      .refine((v) => v === null || v.length <= 1024, {
        error: 'The password must not be longer than 1024 characters.',
      }),
    confirm_password: z.string().optional().nullable(),
  })
  .superRefine((v, ctx) => {
    if (v.password && v.password !== (v.confirm_password ?? '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['confirm_password'],
        message: 'The password confirmation does not match.',
      });
    }
  });
export type UpdateUserInput = z.input<typeof updateUserSchema>;

export const userListQuery = z.object({
  page: pageParam(),
  search: z.string().trim().max(255).optional(),
});

export const userSchema = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  user_role_id: z.number().int(),
  role: z.object({ display_name: z.string() }),
  stripe_customer_id: z.string().nullable(),
  /** the charity a Charity user speaks for */
  charity: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** an Administrator's team (issue 36); null for every other role */
  team: teamRefSchema.nullable(),
  created_at: z.string(),
  bookings_count: z.number().int(),
});
export type User = z.infer<typeof userSchema>;

export const createdUserSchema = userSchema.extend({
  /** shown once to the administrator who made the account; only its hash is kept */
  password: z.string(),
});
export type CreatedUser = z.infer<typeof createdUserSchema>;
