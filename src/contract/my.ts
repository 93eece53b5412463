import { z } from 'zod';
import { READINESS_STATES } from './readiness-constants.ts';

// ---- a traveller's own pages (/my) ----

/** How long an emailed sign-in link works, and how often one may be asked for. */
export const SIGN_IN_LINK_MINUTES = 30;
export const SIGN_IN_LINKS_PER_EMAIL = 3;
export const SIGN_IN_LINKS_PER_ADDRESS = 10;
export const SIGN_IN_LINK_WINDOW_MINUTES = 15;

export const SIGN_IN_LINK_SENT = 'If we know that address, we have sent it a link. It works once, for 30 minutes.';
export const SIGN_IN_LINK_SPENT = 'This sign-in link has expired or has already been used. Ask for a new one below.';
export const SIGN_IN_LINK_LIMITED = 'Too many sign-in links have been asked for. Please try again in a few minutes.';

export const signInLinkSchema = z.object({
  email: z
    .string({ error: 'The email field is required.' })
    .trim()
    .min(1, { error: 'The email field is required.', abort: true })
    .max(254, { error: 'The email must not be longer than 254 characters.', abort: true })
    .pipe(z.email({ error: 'The email must be a valid email address.' })),
});
export type SignInLinkInput = z.input<typeof signInLinkSchema>;

export const signInSchema = z.object({
  token: z
    .string({ error: 'The sign-in link is incomplete.' })
    .regex(/^[\w-]{43}$/, { error: 'The sign-in link is incomplete: open it from your email again.' }),
});

export const signedInSchema = z.object({ redirect: z.string() });

/** One thing the traveller still has to do for a booking, in their words. */
export const myToDoSchema = z.object({
  check: z.enum(['passport', 'forms', 'money', 'medical', 'next_of_kin', 'fundraising']),
  label: z.string(),
  detail: z.string(),
  state: z.enum(READINESS_STATES),
});
export type MyToDo = z.infer<typeof myToDoSchema>;

export const myBookingSchema = z.object({
  id: z.number().int(),
  ref: z.string(),
  status: z.enum(['provisional', 'confirmed', 'cancelled']),
  trip: z.object({ name: z.string(), departure: z.string(), return: z.string(), country: z.string().nullable() }),
  /** the trip has left: everything is read-only */
  departed: z.boolean(),
  to_do: z.array(myToDoSchema),
});
export type MyBooking = z.infer<typeof myBookingSchema>;

export const myBookingsSchema = z.object({
  traveller: z.object({ first_name: z.string(), last_name: z.string(), email: z.string() }),
  bookings: z.array(myBookingSchema),
});
export type MyBookings = z.infer<typeof myBookingsSchema>;

export const myInvoiceSchema = z.object({
  id: z.number().int(),
  ref: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  total: z.number(),
  outstanding: z.number(),
  due_date: z.string().nullable(),
  status: z.string(),
  /** where to pay it by card, when card payments are set up and something is owed */
  pay_url: z.string().nullable(),
});

export const myBookingDetailSchema = myBookingSchema.extend({
  invoices: z.array(myInvoiceSchema),
  details: z.object({
    title: z.string().nullable(),
    first_name: z.string(),
    last_name: z.string(),
    date_of_birth: z.string().nullable(),
    mobile: z.string().nullable(),
    passport_expiry: z.string().nullable(),
    has_passport_number: z.boolean(),
    dietary: z.string().nullable(),
    nok_name: z.string().nullable(),
  }),
});
export type MyBookingDetail = z.infer<typeof myBookingDetailSchema>;
