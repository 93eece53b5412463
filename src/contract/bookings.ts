import { z } from 'zod';

export const BOOKING_TITLES = ['Mr', 'Mrs', 'Miss', 'Ms', 'Mx', 'Dr'] as const;

const required = (label: string, max = 255) =>
  z
    .string({ error: `The ${label} field is required.` })
    .trim()
    .min(1, { error: `The ${label} field is required.`, abort: true })
    .max(max, { error: `The ${label} must not be longer than ${max} characters.` });

const accepted = (message: string) =>
  z.union([z.boolean(), z.literal(1), z.literal(0), z.literal('1'), z.literal('0'), z.literal('on')], { error: message }).refine(
    (v) => v === true || v === 1 || v === '1' || v === 'on',
    { error: message },
  );

/** Spec §5: the Create Booking dialog. */
export const createBookingSchema = z.object({
  trip_id: z.coerce.number({ error: 'The trip field is required.' }).int().positive({ error: 'The trip field is required.' }),
  title: required('title', 20),
  first_name: required('first name'),
  last_name: required('last name'),
  preferred_name: required('preferred name'),
  email: required('email').pipe(z.email({ error: 'The email must be a valid email address.' })),
  mobile: z
    .string()
    .trim()
    .max(30, { error: 'The mobile must not be longer than 30 characters.' })
    .regex(/^[+\d\s()-]*$/, { error: 'The mobile may only contain digits, spaces, +, ( ) and -.' })
    .nullish()
    .transform((v) => (v ? v : null)),
  as_on_passport: accepted('Please confirm the details are as shown on the passport.'),
  terms_accepted: accepted('The terms and conditions must be accepted.'),
});
export type CreateBookingInput = z.input<typeof createBookingSchema>;

export const createdBookingSchema = z.object({
  id: z.number().int(),
  ref: z.string(),
  status: z.string(),
  trip_id: z.number().int(),
  user_id: z.number().int().nullable(),
  title: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  preferred_name: z.string().nullable(),
  email: z.string(),
  mobile: z.string().nullable(),
  created_at: z.string(),
});
export type CreatedBooking = z.infer<typeof createdBookingSchema>;
