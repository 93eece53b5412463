import { z } from 'zod';
import { recordId } from './common.ts';
import { travellerFormFields } from './my.ts';

// ---- online booking (issue 34): a trip's public booking page, and what the office sets for it ----

import { FUNDING_ALLOWED, FUNDING_TYPES, type FundingType } from './booking-constants.ts';

export { FUNDING_ALLOWED };
export const ONLINE_FUNDING_TYPES = FUNDING_TYPES;
export type OnlineFundingType = FundingType;
export const ONLINE_FUNDING_LABELS: Record<OnlineFundingType, string> = {
  self: 'Self-funded',
  fundraise: 'Fundraise',
  flexi: 'Flexi',
  free: 'Free',
};
/** A slug: lower-case letters and digits in words joined by hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const SLUG_MAX = 80;
/** A page says how many places are left when fewer than this are. */
export const PLACES_LEFT_SHOWN_BELOW = 10;

export const TRIP_FULL = 'Sorry, this trip is full: every place has been taken.';
export const BOOKING_CLOSED = 'Online booking for this trip has closed.';

/** yyyy-mm-dd of a day that exists */
const isDay = (v: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

/** A slug from a trip's name: "Kilimanjaro Trek 2027!" → "kilimanjaro-trek-2027". */
export function slugOf(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/&/g, ' and ')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, SLUG_MAX)
      .replace(/-+$/, '') || 'trip'
  );
}

const placesSchema = z.object({
  /** null: the trip has no capacity set, so places are not counted */
  capacity: z.number().int().nullable(),
  /** confirmed, and provisional not on hold */
  taken: z.number().int(),
  /** held for an online booking's deposit */
  held: z.number().int(),
  left: z.number().int().nullable(),
});
export type Places = z.infer<typeof placesSchema>;

/** GET /api/trips/{id}/online-booking */
export const onlineBookingSchema = z.object({
  enabled: z.boolean(),
  slug: z.string().nullable(),
  /** the page's address, when a slug is set */
  url: z.string().nullable(),
  /** null: the default, the day the balance falls due (closes_on_default) */
  closes_on: z.string().nullable(),
  closes_on_default: z.string(),
  funding_types: z.array(z.enum(ONLINE_FUNDING_TYPES)),
  /** what the trip's funding allows */
  funding_types_allowed: z.array(z.enum(ONLINE_FUNDING_TYPES)),
  /** null: any charity (a charity trip); otherwise these */
  charity_ids: z.array(z.number().int()).nullable(),
  discount_codes_allowed: z.boolean(),
  description: z.string().nullable(),
  terms_url: z.string().nullable(),
  places: placesSchema,
  /** open, or why the page takes no bookings now */
  state: z.enum(['off', 'open', 'closed', 'full']),
});
export type OnlineBooking = z.infer<typeof onlineBookingSchema>;

const slug = z
  .string({ error: 'The address must be text.' })
  .trim()
  .toLowerCase()
  .max(SLUG_MAX, { error: `The address must not be longer than ${SLUG_MAX} characters.` })
  .refine((v) => v === '' || SLUG_PATTERN.test(v), {
    error: 'The address may only contain lower-case letters, digits and single hyphens between them.',
  })
  .nullish()
  .transform((v) => (v ? v : null));

/** PUT /api/trips/{id}/online-booking: a slug left empty is made from the trip's name. */
export const saveOnlineBookingSchema = z.object({
  enabled: z.boolean({ error: 'Say whether online booking is on.' }),
  slug,
  closes_on: z
    .string({ error: 'The closing day must be a date.' })
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || isDay(v), { error: 'The closing day is not a valid date.' }),
  funding_types: z
    .array(z.enum(ONLINE_FUNDING_TYPES, { error: 'The funding types must be self, fundraise, flexi or free.' }), {
      error: 'The funding types must be a list.',
    })
    .min(1, { error: 'Offer at least one funding type.' })
    .refine((v) => new Set(v).size === v.length, { error: 'Each funding type may be offered once.' }),
  charity_ids: z
    .array(recordId('charity'), { error: 'The charities must be a list.' })
    .max(500, { error: 'At most 500 charities may be listed.' })
    .nullish()
    .transform((v) => (v && v.length ? [...new Set(v)] : null)),
  discount_codes_allowed: z.boolean({ error: 'Say whether a discount code may be entered.' }).default(true),
  description: z
    .string({ error: 'The description must be text.' })
    .trim()
    .max(5000, { error: 'The description must not be longer than 5000 characters.' })
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type SaveOnlineBookingInput = z.input<typeof saveOnlineBookingSchema>;

/** A page's address: anything that is not a trip's slug is simply not found. */
export const slugParam = z.object({ slug: z.string().max(200, { error: 'There is no such trip.' }) });
/** ?offer=: a waiting list's offer link opens the page with its place held */
export const publicTripQuery = z.object({ offer: z.string().max(100).optional() });

/** GET /api/public/trips/{slug}: what the booking page shows, nothing more. */
export const publicTripSchema = z.object({
  slug: z.string(),
  operator: z.string(),
  name: z.string(),
  type: z.enum(['charity', 'open', 'school']),
  country: z.string(),
  departure: z.string(),
  return: z.string(),
  description: z.string().nullable(),
  /** the trip's cost, in pounds */
  price: z.number(),
  /** what is paid on booking (the first instalment of the plan), in pounds */
  deposit: z.number(),
  plan: z.array(z.object({ label: z.string(), amount: z.number(), due: z.string(), now: z.boolean() })),
  /** "£250 now, then £450 on 1 March 2027 and £1,200 on 1 June 2027" */
  plan_text: z.string(),
  /** only when fewer than PLACES_LEFT_SHOWN_BELOW are left */
  places_left: z.number().int().nullable(),
  state: z.enum(['open', 'closed', 'full']),
  closes_on: z.string(),
  funding_types: z.array(z.object({ value: z.enum(ONLINE_FUNDING_TYPES), label: z.string() })),
  /** for a charity trip: the charities a traveller may raise money for */
  charities: z.array(z.object({ id: z.number().int(), name: z.string() })),
  addons: z.array(z.object({ id: z.number().int(), name: z.string(), price: z.number() })),
  discount_codes: z.boolean(),
  terms_url: z.string().nullable(),
  /** false: the deposit is paid by bank transfer (bank_details) */
  card_payments: z.boolean(),
  bank_details: z.string().nullable(),
  hold_minutes: z.number().int(),
  /** a full trip offers its waiting list */
  waiting_list: z.boolean(),
  /** the waiting list's offer the page was opened with, while it holds its places */
  offer: z.object({ places: z.number().int(), expires_at: z.string(), first_name: z.string() }).nullable(),
});
export type PublicTrip = z.infer<typeof publicTripSchema>;

const accepted = (message: string) =>
  z
    .union([z.boolean(), z.literal('1'), z.literal('on')], { error: message })
    .refine((v) => v === true || v === '1' || v === 'on', {
      error: message,
    });

const form = travellerFormFields.shape;

/** POST /api/public/trips/{slug}/bookings: the staff form's traveller fields, and the traveller's choices. */
export const publicBookingSchema = z
  .object({
    title: z
      .string({ error: 'The title field is required.' })
      .trim()
      .min(1, { error: 'The title field is required.' })
      .max(20, { error: 'The title must not be longer than 20 characters.' }),
    first_name: form.first_name,
    last_name: form.last_name,
    preferred_name: z
      .string({ error: 'The preferred name must be text.' })
      .trim()
      .max(255, { error: 'The preferred name must not be longer than 255 characters.' })
      .nullish()
      .transform((v) => (v ? v : null)),
    email: z
      .string({ error: 'The email field is required.' })
      .trim()
      .min(1, { error: 'The email field is required.', abort: true })
      .max(255, { error: 'The email must not be longer than 255 characters.' })
      .pipe(z.email({ error: 'The email must be a valid email address.' })),
    mobile: form.mobile,
    date_of_birth: form.date_of_birth,
    address_1: form.address_1,
    address_2: form.address_2,
    address_3: form.address_3,
    address_4: form.address_4,
    post_code: form.post_code,
    funding_type: z.enum(ONLINE_FUNDING_TYPES, { error: 'Choose how you will pay for the trip.' }),
    charity_id: z.preprocess((v) => (v === '' ? null : v), recordId('charity').nullish()).transform((v) => v ?? null),
    addon_ids: z
      .array(recordId('add-on'), { error: 'The add-ons must be a list.' })
      .max(50, { error: 'At most 50 add-ons may be chosen.' })
      .default([])
      .refine((v) => new Set(v).size === v.length, { error: 'Each add-on may be chosen once.' }),
    discount_code: z
      .string({ error: 'The discount code must be text.' })
      .trim()
      .max(50, { error: 'The discount code must not be longer than 50 characters.' })
      .nullish()
      .transform((v) => (v ? v : null)),
    as_on_passport: accepted('Please confirm your name is as shown on your passport.'),
    terms_accepted: accepted('Please accept the booking terms.'),
    /** the secret of a waiting list's offer: the place it holds is this booking's */
    offer: z.string().max(100).nullish(),
    /** left empty by people; a bot that fills every field is refused */
    website: z.string().max(500).nullish(),
  })
  .superRefine((v, ctx) => {
    if (v.date_of_birth && v.date_of_birth > new Date().toISOString().slice(0, 10))
      ctx.addIssue({ code: 'custom', path: ['date_of_birth'], message: 'The date of birth must be in the past.' });
  });
export type PublicBookingInput = z.input<typeof publicBookingSchema>;

/** The booking made: its reference, and where its deposit is paid (null: nothing to pay by card now). */
export const publicBookedSchema = z.object({
  booking_ref: z.string(),
  status: z.enum(['provisional', 'confirmed']),
  pay_url: z.string().nullable(),
  /** what is due now, in pounds */
  deposit: z.number(),
  /** the place is held until then for the deposit */
  hold_expires_at: z.string().nullable(),
  bank_details: z.string().nullable(),
  /** what happens next, in words */
  message: z.string(),
});
export type PublicBooked = z.infer<typeof publicBookedSchema>;

// ---- the waiting list of a full trip ----

export const WAITING_LIST_JOINED =
  'You are on the waiting list. If a place frees up, we will email you an offer to book it.';
export const OFFER_GONE = 'This offer has expired or has already been used.';

/** POST /api/public/trips/{slug}/waiting-list */
export const joinWaitingListSchema = z.object({
  first_name: form.first_name,
  last_name: form.last_name,
  email: z
    .string({ error: 'The email field is required.' })
    .trim()
    .min(1, { error: 'The email field is required.', abort: true })
    .max(255, { error: 'The email must not be longer than 255 characters.' })
    .pipe(z.email({ error: 'The email must be a valid email address.' })),
  places: z.coerce
    .number({ error: 'The places must be a number from 1 to 10.' })
    .int({ error: 'The places must be a number from 1 to 10.' })
    .min(1, { error: 'The places must be a number from 1 to 10.' })
    .max(10, { error: 'The places must be a number from 1 to 10.' })
    .default(1),
  note: z
    .string({ error: 'The note must be text.' })
    .trim()
    .max(1000, { error: 'The note must not be longer than 1000 characters.' })
    .nullish()
    .transform((v) => (v ? v : null)),
  website: z.string().max(500).nullish(),
});
export type JoinWaitingListInput = z.input<typeof joinWaitingListSchema>;

export const WAITING_STATES = ['waiting', 'offered', 'booked', 'expired', 'removed'] as const;
export const waitingEntrySchema = z.object({
  id: z.number().int(),
  /** 1 for the first in line (of those waiting or offered); null once out of the line */
  position: z.number().int().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  places: z.number().int(),
  note: z.string().nullable(),
  state: z.enum(WAITING_STATES),
  joined_at: z.string(),
  offered_at: z.string().nullable(),
  offer_expires_at: z.string().nullable(),
  offers_made: z.number().int(),
  places_booked: z.number().int(),
});
export type WaitingEntry = z.infer<typeof waitingEntrySchema>;

/** GET /api/trips/{id}/waiting-list: the line in order, then those out of it, newest first. */
export const waitingListSchema = z.object({ entries: z.array(waitingEntrySchema), places: placesSchema });
export type WaitingList = z.infer<typeof waitingListSchema>;

export const waitingEntryParams = z.object({ id: recordId('trip'), entryId: recordId('waiting list entry') });
/** PATCH /api/trips/{id}/waiting-list/{entryId}: one place up or down the line. */
export const moveWaitingEntrySchema = z.object({
  move: z.enum(['up', 'down'], { error: 'Move up or down.' }),
});
