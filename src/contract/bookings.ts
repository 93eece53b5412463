import { z } from 'zod';
import { int4, MAX_ID, pageParam, paged, recordId } from './common.ts';
import { isoDate } from './invoices.ts';
import { TRIP_TYPES } from './trip-constants.ts';
import {
  BOOKING_STATUSES,
  PASSPORT_STATES,
  BOOKING_SORT_FIELDS,
  BOOKINGS_PER_PAGE,
  BOOKING_LIST_DEFAULTS,
  EXPORT_COLUMNS,
  type ExportColumn,
  DEFAULT_EXPORT_COLUMNS,
  EXPORT_PAGE_SIZE,
  FUNDING_TYPES,
} from './booking-constants.ts';
export {
  BOOKING_TITLES,
  BOOKING_STATUSES,
  PASSPORT_STATES,
  BOOKING_SORT_FIELDS,
  BOOKINGS_PER_PAGE,
  BOOKING_LIST_DEFAULTS,
  EXPORT_COLUMNS,
  type ExportColumn,
  DEFAULT_EXPORT_COLUMNS,
  EXPORT_PAGE_SIZE,
  PASSPORT_ZIP_DELAY_MS,
} from './booking-constants.ts';

const required = (label: string, max = 255) =>
  z
    .string({ error: `The ${label} field is required.` })
    .trim()
    .min(1, { error: `The ${label} field is required.`, abort: true })
    .max(max, { error: `The ${label} must not be longer than ${max} characters.` });

const accepted = (message: string) =>
  z
    .union([z.boolean(), z.literal(1), z.literal(0), z.literal('1'), z.literal('0'), z.literal('on')], {
      error: message,
    })
    .refine((v) => v === true || v === 1 || v === '1' || v === 'on', { error: message });

/** Spec §5: the Create Booking dialog. */
/** a booking's funding type, as staff choose it */
export const fundingTypeField = z.enum(FUNDING_TYPES, { error: 'The selected funding is invalid.' });
/** a booking's charity: empty is none */
export const charityIdField = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z.coerce
    .number({ error: 'The selected charity is invalid.' })
    .int({ error: 'The selected charity is invalid.' })
    .positive({ error: 'The selected charity is invalid.' })
    .max(MAX_ID, { error: 'The selected charity is invalid.' })
    .nullable(),
);

export const createBookingSchema = z.object({
  trip_id: recordId('trip'),
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
  /** how it is paid for; left out: self-funded */
  funding_type: fundingTypeField.optional().transform((v) => v ?? 'self'),
  /** the charity it raises money for; left out: the trip's own */
  charity_id: charityIdField,
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
  funding_type: z.enum(FUNDING_TYPES),
  charity_id: z.number().int().nullable(),
  created_at: z.string(),
});
export type CreatedBooking = z.infer<typeof createdBookingSchema>;

// ---- the booking list (spec §7 GET /api/bookings) ----

const optionalText = (label: string) =>
  z
    .string({ error: `The ${label} must be text.` })
    .trim()
    .max(255, { error: `The ${label} must not be longer than 255 characters.` })
    .optional()
    .transform((v) => (v ? v : undefined));

const optionalId = (label: string) =>
  z
    .union([
      z.literal(''),
      int4(`The ${label} must be a whole number.`).positive({ error: `The ${label} must be a positive number.` }),
    ])
    .optional()
    .transform((v) => (v === '' ? undefined : v));

const age = (label: string) =>
  z
    .union([
      z.literal(''),
      z.coerce
        .number({ error: `The ${label} must be a number.` })
        .int({ error: `The ${label} must be a whole number.` })
        .min(0, { error: `The ${label} must be at least 0.` })
        .max(120, { error: `The ${label} must not be more than 120.` }),
    ])
    .optional()
    .transform((v) => (v === '' ? undefined : v));

const enumOrAll = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z
    .union([z.literal(''), z.literal('all'), z.enum(values)], { error: `The selected ${label} is invalid.` })
    .optional()
    .transform((v) => (v === '' || v === 'all' || v === undefined ? undefined : v));

const tripIds = z
  .union([z.string(), z.array(z.string()), z.array(z.number()), z.number()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === '') return undefined;
    const parts = (Array.isArray(v) ? v : String(v).split(',')).map((x) => String(x).trim()).filter(Boolean);
    const ids = parts.map(Number);
    if (ids.some((n) => !Number.isInteger(n) || n <= 0 || n > MAX_ID)) {
      ctx.addIssue({ code: 'custom', message: 'The trips must be a list of trip ids.' });
      return z.NEVER;
    }
    if (ids.length > 1000) {
      ctx.addIssue({ code: 'custom', message: 'At most 1000 trips may be chosen.' });
      return z.NEVER;
    }
    return ids.length ? ids : undefined;
  });

/** A day (yyyy-mm-dd), or nothing; an empty field is nothing. */
const optionalDay = (label: string) => z.preprocess((v) => (v === '' ? undefined : v), isoDate(label).optional());

const bookingFilterShape = {
  page: pageParam(),
  per_page: z.coerce
    .number({ error: 'The per page must be a number.' })
    .int()
    .min(1, { error: 'The per page must be at least 1.' })
    .max(100, { error: 'The per page must not be more than 100.' })
    .default(BOOKINGS_PER_PAGE),
  status: enumOrAll(BOOKING_STATUSES, 'status'),
  timing: z
    .enum(['future', 'past', 'all'], { error: 'The timing must be future, past or all.' })
    .default(BOOKING_LIST_DEFAULTS.timing),
  passport: enumOrAll(PASSPORT_STATES, 'passport state'),
  // how a fundraiser stands against the milestones
  fundraising: enumOrAll(['on_track', 'behind', 'met'] as const, 'fundraising state'),
  // the dashboard's cards land here: trips departing in a season, bookings made before a day
  departure_from: optionalDay('departure from date'),
  departure_to: optionalDay('departure to date'),
  booked_before: optionalDay('booked before date'),
  sort_field: z
    .enum(BOOKING_SORT_FIELDS, { error: 'The list cannot be sorted by that field.' })
    .default(BOOKING_LIST_DEFAULTS.sort_field),
  sort_dir: z
    .enum(['asc', 'desc'], { error: 'The sort direction must be asc or desc.' })
    .default(BOOKING_LIST_DEFAULTS.sort_dir),
  trips: tripIds,
  trip_id: optionalId('trip id'),
  user_id: optionalId('user id'),
  booking_ref: optionalText('booking reference'),
  name: optionalText('name'),
  age_min: age('minimum age'),
  age_max: age('maximum age'),
  medical: z
    .union([z.literal(''), z.enum(['yes', 'no', '1', '0'])], { error: 'The medical filter must be yes or no.' })
    .optional()
    .transform((v) => (v === 'yes' || v === '1' ? true : v === 'no' || v === '0' ? false : undefined)),
  address: optionalText('address'),
  gender: z
    .union([z.literal(''), z.enum(['female', 'male', 'other'])], { error: 'The selected gender is invalid.' })
    .optional()
    .transform((v) => (v ? v : undefined)),
  email: optionalText('email'),
  telephone: optionalText('telephone'),
  withCustomFields: z
    .union([z.boolean(), z.enum(['1', '0', 'true', 'false', ''])])
    .optional()
    .transform((v) => v === true || v === '1' || v === 'true'),
};

const agesInOrder = (q: { age_min?: number | undefined; age_max?: number | undefined }, ctx: z.RefinementCtx) => {
  if (q.age_min !== undefined && q.age_max !== undefined && q.age_min > q.age_max) {
    ctx.addIssue({
      code: 'custom',
      path: ['age_max'],
      message: 'The maximum age must not be less than the minimum age.',
    });
  }
};

export const bookingListQuery = z.object(bookingFilterShape).superRefine(agesInOrder);
export type BookingListQuery = z.input<typeof bookingListQuery>;
export type BookingFilter = z.output<typeof bookingListQuery>;

export const bookingRowSchema = z.object({
  id: z.number().int(),
  ref: z.string(),
  created_at: z.string(),
  deposit_payment_date: z.string().nullable(),
  status: z.enum(BOOKING_STATUSES),
  trip: z.object({ id: z.number().int(), name: z.string(), departure: z.string(), return: z.string() }),
  user_id: z.number().int().nullable(),
  user_url: z.string().nullable(),
  title: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  preferred_name: z.string().nullable(),
  email: z.string(),
  mobile: z.string().nullable(),
  gender: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  /** age on the trip's departure date */
  age: z.number().int().nullable(),
  address_1: z.string().nullable(),
  address_4: z.string().nullable(),
  post_code: z.string().nullable(),
  room_type: z.string().nullable(),
  room_ref: z.string().nullable(),
  share_with: z.string().nullable(),
  double_room: z.boolean(),
  passport_valid: z.enum(PASSPORT_STATES),
  funding_type: z.string(),
  travel_basis: z.string(),
  /** null: hidden from a team without traveller data read (issue 36) */
  medical_conditions: z.boolean().nullable(),
  form_complete: z.boolean(),
  custom_fields: z.record(z.string(), z.string()).optional(),
});
export type BookingRow = z.infer<typeof bookingRowSchema>;

export const bookingPageSchema = paged(bookingRowSchema).extend({
  /**
   * true when `total` (and so `last_page`) is the database's estimate, rounded, rather than a
   * count: large result sets are not counted on every page. Shown as "about N".
   */
  total_is_estimate: z.boolean(),
});
export type BookingPage = z.infer<typeof bookingPageSchema>;

// ---- one booking (the booking page) ----

const text = z.string().nullable();
export const bookingDetailSchema = z.object({
  id: z.number().int(),
  ref: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  deposit_payment_date: text,
  status: z.enum(BOOKING_STATUSES),
  /** made by the office, or by the traveller on the trip's booking page */
  source: z.enum(['office', 'online', 'group']),
  /** an online booking's place is held until then for its deposit */
  hold_expires_at: z.string().nullable(),
  travel_basis: z.string(),
  travel_basis_discount: z.number(),
  funding_type: z.string(),
  form_complete: z.boolean(),
  passport_valid: z.enum(PASSPORT_STATES),
  /** null: hidden from a team without traveller data read (issue 36) */
  medical_conditions: z.boolean().nullable(),
  trip: z.object({
    id: z.number().int(),
    name: z.string(),
    departure: z.string(),
    return: z.string(),
    status: z.string(),
    country: z.string(),
    deleted: z.boolean(),
    /** charity, open or school: a school trip asks a parent's consent for its pupils (issue 37) */
    type: z.enum(TRIP_TYPES),
  }),
  charity: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  user_id: z.number().int().nullable(),
  user_url: text,
  title: text,
  first_name: z.string(),
  last_name: z.string(),
  preferred_name: text,
  email: z.string(),
  mobile: text,
  address_1: text,
  address_2: text,
  address_3: text,
  address_4: text,
  post_code: text,
  gender: text,
  date_of_birth: text,
  age: z.number().int().nullable(),
  share_with: text,
  double_room: z.boolean(),
  room_type: text,
  room_ref: text,
  passport_number: text,
  passport_issue: text,
  passport_expiry: text,
  nationality: text,
  has_passport_image: z.boolean(),
  insurance_company: text,
  insurance_policy_number: text,
  insurance_telephone: text,
  nok_name: text,
  nok_relationship: text,
  nok_email: text,
  nok_telephone: text,
  nok_address: text,
  dietary: text,
  medication: text,
  medical_detail: text,
  notes: text,
  additional_info: text,
  referred_by: text,
  previous_trips: text,
  fitness_training: text,
  /** erasure after return: when the passport, medical and next-of-kin details were erased; a hold on it, and why */
  personal_data_erased_at: text,
  /** when the traveller last signed in to their own pages (what they changed is in the History, from "Traveller’s pages") */
  traveller_last_signed_in_at: text,
  keep_until: text,
  keep_reason: text,
  addons: z.array(
    z.object({ id: z.number().int(), name: z.string(), price: z.number(), pivot: z.object({ invoiced: z.boolean() }) }),
  ),
  custom_fields: z.array(
    z.object({ id: z.number().int(), label: z.string(), note: z.string().nullable(), answer: z.string().nullable() }),
  ),
});
export type BookingDetail = z.infer<typeof bookingDetailSchema>;

const optional = (label: string, max = 255) =>
  z
    .string({ error: `The ${label} must be text.` })
    .trim()
    .max(max, { error: `The ${label} must not be longer than ${max} characters.` })
    .nullish()
    .transform((v) => (v ? v : null));

/** What staff change on the booking page: status, room, and the traveller's own details. */
export const updateBookingSchema = z.object({
  status: z.enum(BOOKING_STATUSES, { error: 'The selected status is invalid.' }),
  title: optional('title', 20),
  first_name: z
    .string({ error: 'The first name field is required.' })
    .trim()
    .min(1, { error: 'The first name field is required.' })
    .max(255),
  last_name: z
    .string({ error: 'The last name field is required.' })
    .trim()
    .min(1, { error: 'The last name field is required.' })
    .max(255),
  preferred_name: optional('preferred name'),
  email: z
    .string({ error: 'The email field is required.' })
    .trim()
    .min(1, { error: 'The email field is required.', abort: true })
    .pipe(z.email({ error: 'The email must be a valid email address.' })),
  mobile: optional('mobile', 30).refine((v) => v === null || /^[+\d\s()-]+$/.test(v), {
    error: 'The mobile may only contain digits, spaces, +, ( ) and -.',
  }),
  address_1: optional('address line 1'),
  address_2: optional('address line 2'),
  address_3: optional('town'),
  address_4: optional('county'),
  post_code: optional('post code', 12),
  room_type: optional('room type', 50),
  room_ref: optional('room reference', 20),
  share_with: optional('share with'),
  double_room: z.boolean({ error: 'The double room value must be yes or no.' }),
});
export type UpdateBookingInput = z.input<typeof updateBookingSchema>;

// ---- the export (spec §7 GET /bookings/export) ----

const exportColumnKeys = EXPORT_COLUMNS.map((c) => c.key) as string[];

export const bookingExportQuery = z
  .object({
    ...bookingFilterShape,
    format: z.enum(['xls', 'passportZip'], { error: 'The format must be xls or passportZip.' }).default('xls'),
    perPage: z.coerce
      .number({ error: 'The per page must be a number.' })
      .int()
      .min(1, { error: 'The per page must be at least 1.' })
      .max(EXPORT_PAGE_SIZE, { error: `The per page must not be more than ${EXPORT_PAGE_SIZE}.` })
      .default(EXPORT_PAGE_SIZE),
    columns: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (!v) return DEFAULT_EXPORT_COLUMNS;
        let parsed: unknown;
        try {
          parsed = JSON.parse(v);
        } catch {
          ctx.addIssue({ code: 'custom', message: 'The columns must be a JSON list of column names.' });
          return z.NEVER;
        }
        if (
          !Array.isArray(parsed) ||
          parsed.length === 0 ||
          parsed.some((c) => typeof c !== 'string' || !exportColumnKeys.includes(c))
        ) {
          ctx.addIssue({ code: 'custom', message: 'The columns must be a list of known column names.' });
          return z.NEVER;
        }
        return [...new Set(parsed as ExportColumn[])];
      }),
  })
  .superRefine(agesInOrder);
export type BookingExportQuery = z.input<typeof bookingExportQuery>;
