import { z } from 'zod';
import { recordId } from './common.ts';
import { isCalendarDay } from './dates.ts';
import { FUNDRAISING_STATES } from './fundraising-constants.ts';
import { poundsToPence } from './money.ts';
import { READINESS_STATES } from './readiness-constants.ts';

// ---- a traveller's own pages (/my) ----

/** How long an emailed sign-in link works, and how often one may be asked for. */
export const SIGN_IN_LINK_MINUTES = 30;
export const SIGN_IN_LINKS_PER_EMAIL = 3;
export const SIGN_IN_LINKS_PER_ADDRESS = 10;
export const SIGN_IN_LINK_WINDOW_MINUTES = 15;
/** How long the link in a chaser, reminder, invoice or documents email works (once): decision 024. */
export const PORTAL_LINK_DAYS = 14;

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

/** A sign-in link's secret: a sign-in email's (43 characters) or an email's portal link (signed, with dots). */
const signInToken = z
  .string({ error: 'The sign-in link is incomplete.' })
  .regex(/^(?:[\w-]{43}|[0-9a-z]{1,10}\.[0-9a-z]{1,12}\.[0-9a-z]{1,10}\.[0-9a-z]{1,8}\.[\w-]{32})$/, {
    error: 'The sign-in link is incomplete: open it from your email again.',
  });
export const signInSchema = z.object({ token: signInToken });
/** "Email me a new link" from a link that has expired or been used: the new one goes where that one went. */
export const renewSignInLinkSchema = z.object({ token: signInToken });
export const SIGN_IN_LINK_RENEWED =
  'If that link was ours, a new one is on its way to the address it was sent to. It works once, for 30 minutes.';

export const signedInSchema = z.object({ redirect: z.string() });

/** One thing the traveller still has to do for a booking, in their words. */
export const myToDoSchema = z.object({
  check: z.enum(['passport', 'forms', 'money', 'medical', 'next_of_kin', 'fundraising', 'consent']),
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
  /** the invoice as a PDF, for the signed-in traveller */
  pdf_url: z.string(),
});

/** One instalment of the booking's payment schedule, as the traveller reads it. */
export const myInstalmentSchema = z.object({
  label: z.string(),
  due_date: z.string(),
  amount: z.number(),
  /** what is still to pay on it (0 once paid or waived) */
  outstanding: z.number(),
  state: z.enum(['paid', 'due', 'overdue', 'waived']),
});

/** A payment made (or refunded) on the booking. */
export const myPaymentSchema = z.object({
  date: z.string(),
  amount: z.number(),
  type: z.enum(['payment', 'refund']),
  how: z.string(),
  invoice_ref: z.string(),
});

export const myBookingDetailSchema = myBookingSchema.extend({
  invoices: z.array(myInvoiceSchema),
  schedule: z.array(myInstalmentSchema),
  payments: z.array(myPaymentSchema),
  /** with card payments not set up: how to pay by bank transfer (OPERATOR_BANK_DETAILS) and the reference to give */
  bank_transfer: z.object({ details: z.string(), reference: z.string() }).nullable(),
  /** the traveller's form as it stands (dates as ISO days), to fill in or change */
  form: z.object({
    title: z.string().nullable(),
    first_name: z.string(),
    last_name: z.string(),
    date_of_birth: z.string().nullable(),
    mobile: z.string().nullable(),
    address_1: z.string().nullable(),
    address_2: z.string().nullable(),
    address_3: z.string().nullable(),
    address_4: z.string().nullable(),
    post_code: z.string().nullable(),
    room_type: z.string().nullable(),
    share_with: z.string().nullable(),
    passport_number: z.string().nullable(),
    passport_issue: z.string().nullable(),
    passport_expiry: z.string().nullable(),
    nationality: z.string().nullable(),
    insurance_company: z.string().nullable(),
    insurance_policy_number: z.string().nullable(),
    insurance_telephone: z.string().nullable(),
    nok_name: z.string().nullable(),
    nok_relationship: z.string().nullable(),
    nok_telephone: z.string().nullable(),
    dietary: z.string().nullable(),
    medical_conditions: z.boolean(),
    medication: z.string().nullable(),
    medical_detail: z.string().nullable(),
  }),
  form_complete: z.boolean(),
  /** the destination's passport rule in words, when the trip needs a passport */
  passport_rule: z.string().nullable(),
  /** whether the passport given passes that rule, in words (null: no passport given, or none needed) */
  passport_check: z.object({ ok: z.boolean(), message: z.string() }).nullable(),
  /** the photo page: when it was last uploaded (null: never), and whether the office has checked it */
  passport_photo: z.object({ uploaded_at: z.string().nullable(), checked: z.boolean() }),
  /** the passport, medical, insurance and next-of-kin details were erased after the trip (retention) */
  personal_data_erased: z.boolean(),
  /** the trip's documents (kit list, itinerary…), each through a signed link that works for a while */
  documents: z.array(z.object({ name: z.string(), size: z.number().nullable(), url: z.string() })),
  /** a Fundraise or Flexi booking's fundraising: the target, what is raised, and the milestones */
  fundraising: z
    .object({
      charity: z.string().nullable(),
      target: z.number(),
      raised: z.number(),
      state: z.enum(FUNDRAISING_STATES),
      /** pounds still to raise: to the missed milestone (behind) or to the target */
      shortfall: z.number(),
      page_url: z.string().nullable(),
      milestones: z.array(z.object({ percent: z.number(), amount: z.number(), due: z.string() })),
      next: z.object({ percent: z.number(), amount: z.number(), due: z.string() }).nullable(),
    })
    .nullable(),
  /** the trip's own questions, each with the traveller's answer ('' when none) */
  questions: z.array(
    z.object({ id: z.number().int(), label: z.string(), note: z.string().nullable(), answer: z.string() }),
  ),
  /**
   * A school trip's consent (issue 37): what a parent agrees to, and whether, by whom and when it
   * was given or withdrawn; `needed` false for a pupil 18 or over on departure. null: not a school trip.
   */
  consent: z
    .object({
      needed: z.boolean(),
      text: z.string(),
      given_by: z.string().nullable(),
      given_at: z.string().nullable(),
      withdrawn_at: z.string().nullable(),
    })
    .nullable(),
});
export type MyBookingDetail = z.infer<typeof myBookingDetailSchema>;

// ---- the traveller form: the traveller's own fields, one contract for them (/my) and for staff ----

const text = (label: string, max = 255) =>
  z
    .string({ error: `The ${label} must be text.` })
    .trim()
    .max(max, { error: `The ${label} must not be longer than ${max} characters.` })
    .nullish()
    .transform((v) => (v ? v : null));
const required = (label: string, max = 255) =>
  z
    .string({ error: `The ${label} field is required.` })
    .trim()
    .min(1, { error: `The ${label} field is required.` })
    .max(max, { error: `The ${label} must not be longer than ${max} characters.` });
const phone = (label: string) =>
  text(label, 30).refine((v) => v === null || /^[+\d\s()-]+$/.test(v), {
    error: `The ${label} may only contain digits, spaces, +, ( ) and -.`,
  });
const day = (label: string) =>
  z
    .string({ error: `The ${label} must be a date.` })
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || isCalendarDay(v), { error: `The ${label} is not a valid date.` });

/**
 * What a traveller fills in for a booking (PUT /api/my/bookings/{id}/details), and what staff
 * fill in for them from a phone call or a paper form (PUT /api/bookings/{id}/traveller-form): the
 * fields named as in GET /api/bookings/{id}, dates as ISO days. A complete form is one that passes.
 */
export const travellerFormFields = z.object({
  title: text('title', 20),
  first_name: required('first name'),
  last_name: required('last name'),
  date_of_birth: day('date of birth').refine((v) => v !== null, { error: 'The date of birth field is required.' }),
  mobile: phone('mobile').refine((v) => v !== null, { error: 'The mobile field is required.' }),
  address_1: required('address line 1'),
  address_2: text('address line 2'),
  address_3: text('town'),
  address_4: text('county'),
  post_code: required('post code', 12),
  room_type: text('room type', 50),
  share_with: text('share with'),
  passport_number: text('passport number', 20).refine((v) => v === null || /^[A-Za-z0-9]{5,20}$/.test(v), {
    error: 'The passport number may only contain 5 to 20 letters and digits.',
  }),
  passport_issue: day('passport issue date'),
  passport_expiry: day('passport expiry date'),
  nationality: text('nationality', 60),
  insurance_company: text('insurance company'),
  insurance_policy_number: text('insurance policy number', 50),
  insurance_telephone: phone('insurance telephone'),
  nok_name: required('next of kin name'),
  nok_relationship: text('next of kin relationship', 50),
  nok_telephone: phone('next of kin telephone').refine((v) => v !== null, {
    error: 'The next of kin telephone field is required.',
  }),
  dietary: text('dietary needs', 1000),
  medical_conditions: z.boolean({ error: 'Say whether you have any medical conditions.' }),
  medication: text('medication', 1000),
  medical_detail: text('medical detail', 2000),
});
export const travellerFormSchema = travellerFormFields
  // "no medical conditions" keeps no detail of them, whatever a hidden field still held
  .transform((v) => (v.medical_conditions ? v : { ...v, medical_detail: null }))
  .superRefine((v, ctx) => {
    if (v.medical_conditions && !v.medical_detail)
      ctx.addIssue({ code: 'custom', path: ['medical_detail'], message: 'Tell us about your medical conditions.' });
    if (v.passport_issue && v.passport_expiry && v.passport_expiry <= v.passport_issue)
      ctx.addIssue({
        code: 'custom',
        path: ['passport_expiry'],
        message: 'The passport expiry date must be after its issue date.',
      });
    if (v.passport_number && (!v.passport_issue || !v.passport_expiry))
      ctx.addIssue({
        code: 'custom',
        path: [v.passport_issue ? 'passport_expiry' : 'passport_issue'],
        message: 'Give the passport’s issue and expiry dates with its number.',
      });
  });
export type TravellerFormInput = z.input<typeof travellerFormSchema>;
export type TravellerForm = z.output<typeof travellerFormSchema>;

export const TRIP_DEPARTED = 'This trip has left: your details can no longer be changed here.';

// ---- the trip's questions (its custom fields), answered by the traveller or by staff for them ----

export const ANSWER_MAX = 2000;
export const answersSchema = z.object({
  answers: z
    .array(
      z.object({
        custom_field_id: recordId('question'),
        value: z
          .string({ error: 'The answer must be text.' })
          .trim()
          .max(ANSWER_MAX, { error: `An answer must not be longer than ${ANSWER_MAX} characters.` }),
      }),
      { error: 'The answers must be a list.' },
    )
    .max(200, { error: 'At most 200 answers can be saved at once.' }),
});
export type AnswersInput = z.input<typeof answersSchema>;
export type Answers = z.output<typeof answersSchema>;
export const NOT_THIS_TRIPS_QUESTION = 'This question is not one of this trip’s.';

// ---- the passport's photo page ----

export const PASSPORT_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const PASSPORT_PHOTO_REFUSED = 'The passport photo must be a JPG, PNG or PDF.';

// ---- "Update my total": the fundraising page's total as the traveller reads it ----

export const myFundraisingTotalSchema = z.object({
  total: poundsToPence('total').refine((p) => p > 0, { error: 'The total must be more than £0.00.' }),
});
export type MyFundraisingTotalInput = z.input<typeof myFundraisingTotalSchema>;

/** POST /api/my/bookings/{id}/consent: a parent agrees by typing their full name. */
export const consentInputSchema = z.object({
  full_name: z
    .string({ error: 'Type your full name to give your consent.' })
    .trim()
    .min(3, { error: 'Type your full name to give your consent.', abort: true })
    .max(120, { error: 'Your name must not be longer than 120 characters.', abort: true })
    .refine((v) => /\p{L}/u.test(v) && /\s/.test(v), { error: 'Type your first and last names.' }),
});
export type ConsentInput = z.input<typeof consentInputSchema>;
export const CONSENT_GIVEN = 'Thank you: your consent is recorded.';
export const CONSENT_WITHDRAWN = 'Your consent is withdrawn, and the office has been told.';
export const NO_CONSENT_ASKED = 'This trip does not ask for a parent’s consent.';
