import { z } from 'zod';
import { parseDdMmYyyy } from './dates.ts';
import { poundsToPence } from './money.ts';
import { int2, pageParam, paged, recordId } from './common.ts';
import { TRIP_TYPES, TRIP_STATUSES, TRIP_FUNDING, TRIP_DEFAULTS } from './trip-constants.ts';
export {
  TRIP_TYPES,
  TRIP_TYPE_LABELS,
  TRIP_LEVELS,
  TRIP_STATUSES,
  TRIP_FUNDING,
  TRIP_FUNDING_LABELS,
  TRIP_DEFAULTS,
  TRIP_CREATE_FIXED,
  TRIPS_PER_PAGE,
  TRIP_SEARCH_DEBOUNCE_MS,
} from './trip-constants.ts';

const requiredDate = (label: string) =>
  z.string({ error: `The ${label} field is required.` }).transform((v, ctx) => {
    const value = v.trim();
    if (!value) {
      ctx.addIssue({ code: 'custom', message: `The ${label} field is required.` });
      return z.NEVER;
    }
    const iso = parseDdMmYyyy(value);
    if (!iso) {
      ctx.addIssue({ code: 'custom', message: `The ${label} must be a real date in the format DD/MM/YYYY.` });
      return z.NEVER;
    }
    return iso;
  });

const name = z
  .string({ error: 'The name field is required.' })
  .trim()
  .min(1, { error: 'The name field is required.' })
  .max(255, { error: 'The name must not be longer than 255 characters.' });
// countries.id is a smallint: a number beyond it is a country that cannot exist
const countryId = int2('The selected country is invalid.', 'The country field is required.').positive({
  error: 'The country field is required.',
});
const type = z.enum(TRIP_TYPES, { error: 'The selected type is invalid.' });
const level = int2('The selected level is invalid.')
  .min(1, { error: 'The selected level is invalid.' })
  .max(5, { error: 'The selected level is invalid.' });
const flag = z
  .union([z.boolean(), z.literal(1), z.literal(0), z.literal('1'), z.literal('0')], {
    error: 'The value must be yes or no.',
  })
  .transform((v) => v === true || v === 1 || v === '1');

const returnAfterDeparture = (v: { departure: string; return: string }, ctx: z.RefinementCtx) => {
  if (v.return < v.departure)
    ctx.addIssue({
      code: 'custom',
      path: ['return'],
      message: 'The return date must be on or after the departure date.',
    });
};

const fixed = <T extends string | number>(value: T, message: string) =>
  z.union([z.literal(value), z.literal(String(value))], { error: message }).optional();

/** Spec §7: POST /api/trips — a new trip starts open, with no deposit or cost, passports required, any funding. */
export const createTripSchema = z
  .object({
    name,
    country_id: countryId,
    departure: requiredDate('departure date'),
    return: requiredDate('return date'),
    type: type.default(TRIP_DEFAULTS.type),
    level: level.default(TRIP_DEFAULTS.level),
    status: fixed('open', 'A new trip starts open.'),
    deposit: fixed(0, 'A new trip starts with no deposit: set it on the trip’s page.'),
    cost: fixed(0, 'A new trip starts with no cost: set it on the trip’s page.'),
    require_passport: z
      .union([z.literal(1), z.literal('1'), z.literal(true)], { error: 'A new trip requires passports.' })
      .optional(),
    funding: fixed('both', 'A new trip takes any funding.'),
  })
  .superRefine(returnAfterDeparture);
export type CreateTripInput = z.input<typeof createTripSchema>;

const CAPACITY_MESSAGE = 'The capacity must be a whole number of places from 1 to 10,000, or empty.';
const MINIMUM_MESSAGE = 'The minimum numbers must be a whole number of travellers from 1 to 10,000, or empty.';
const places = (message: string) =>
  z
    .preprocess(
      (v) => (v === '' || v === null ? null : v),
      z.coerce
        .number({ error: message })
        .int({ error: message })
        .min(1, { error: message })
        .max(10_000, { error: message })
        .nullable(),
    )
    .optional();

export const updateTripSchema = z
  .object({
    name,
    country_id: countryId,
    departure: requiredDate('departure date'),
    return: requiredDate('return date'),
    type,
    level,
    status: z.enum(TRIP_STATUSES, { error: 'The selected status is invalid.' }),
    deposit: poundsToPence('deposit'),
    cost: poundsToPence('cost'),
    require_passport: flag,
    funding: z.enum(TRIP_FUNDING, { error: 'The selected funding is invalid.' }),
    // the places on the trip, for the dashboard's departures; empty: not set; left out: unchanged
    capacity: places(CAPACITY_MESSAGE),
    // the fewest travellers it runs with (reg 13); empty: none; left out: unchanged
    minimum: places(MINIMUM_MESSAGE),
    // what a parent agrees to for a pupil on a school trip (issue 37); empty: the office's wording; left out: unchanged
    consent_text: z
      .string({ error: 'The consent wording must be text.' })
      .trim()
      .max(4000, { error: 'The consent wording must not be longer than 4,000 characters.' })
      .nullish()
      .transform((v) => (v === undefined ? undefined : v ? v : null)),
  })
  .superRefine(returnAfterDeparture)
  .superRefine((v, ctx) => {
    if (v.deposit > v.cost && v.cost > 0)
      ctx.addIssue({ code: 'custom', path: ['deposit'], message: 'The deposit must not be more than the cost.' });
    if (v.minimum && v.capacity && v.minimum > v.capacity)
      ctx.addIssue({
        code: 'custom',
        path: ['minimum'],
        message: 'The minimum numbers must not be more than the capacity.',
      });
  });
export type UpdateTripInput = z.input<typeof updateTripSchema>;

const boolParam = z
  .union([z.literal('1'), z.literal('0'), z.literal('true'), z.literal('false'), z.boolean()], {
    error: 'The value must be 1 or 0.',
  })
  .transform((v) => v === true || v === '1' || v === 'true');

export const tripListQuery = z.object({
  paged: boolParam.default(true),
  page: pageParam(),
  sort_by: z.enum(['date', 'date-d', 'name'], { error: 'The sort must be date, date-d or name.' }).default('date'),
  name_search: z.string().trim().max(255).optional(),
  archived: boolParam.default(false),
});
export type TripListQuery = z.input<typeof tripListQuery>;

export const tripSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** yyyy-mm-dd */
  departure: z.string(),
  return: z.string(),
  booking_count: z.number().int(),
  /** of the capacity: taken (booked, not on hold), held (for deposits, and by waiting-list offers), left (null: no capacity) */
  places: z.object({ taken: z.number().int(), held: z.number().int(), left: z.number().int().nullable() }),
  status: z.enum(TRIP_STATUSES),
  editable: z.boolean(),
  /** why the trip cannot be changed, when it cannot */
  editable_reason: z.string().nullable(),
  country_id: z.number().int(),
  country: z.object({ id: z.number().int(), name: z.string() }),
  type: z.enum(TRIP_TYPES),
  level: z.number().int(),
  deposit: z.number(),
  cost: z.number(),
  require_passport: z.boolean(),
  funding: z.enum(TRIP_FUNDING),
  /** places on the trip, or null when not set */
  capacity: z.number().int().nullable(),
  /** the fewest travellers the departure runs with, or null */
  minimum: z.number().int().nullable(),
  /** with a minimum: the last day it may be cancelled for being below it (reg 13) */
  minimum_deadline: z.string().nullable(),
  /** a school trip's own consent wording for parents; null: the office's (DEFAULT_CONSENT_TEXT) */
  consent_text: z.string().nullable(),
  archived: z.boolean(),
  deleted: z.boolean(),
});
export type Trip = z.infer<typeof tripSchema>;

export const tripPageSchema = paged(tripSchema);
export type TripPage = z.infer<typeof tripPageSchema>;

// ---- add-ons ----
export const addonInputSchema = z.object({
  name,
  price: poundsToPence('price'),
});
export type AddonInput = z.input<typeof addonInputSchema>;
export const addonSchema = z.object({
  id: z.number().int(),
  trip_id: z.number().int(),
  name: z.string(),
  price: z.number(),
  bookings_count: z.number().int(),
  /** billed on an invoice for at least one booking: its price is settled */
  invoiced: z.boolean(),
});
export type Addon = z.infer<typeof addonSchema>;

// ---- custom fields ----
const label = z
  .string({ error: 'The label field is required.' })
  .trim()
  .min(1, { error: 'The label field is required.' })
  .max(255, { error: 'The label must not be longer than 255 characters.' });
const note = z
  .string()
  .trim()
  .max(2000, { error: 'The note must not be longer than 2000 characters.' })
  .nullish()
  .transform((v) => (v ? v : null));
export const createCustomFieldSchema = z.object({
  trip_id: recordId('trip'),
  label,
  note,
});
export const updateCustomFieldSchema = z.object({ label, note });
export const customFieldQuery = z.object({
  trip_id: recordId('trip'),
});
export const customFieldSchema = z.object({
  id: z.number().int(),
  trip_id: z.number().int(),
  label: z.string(),
  note: z.string().nullable(),
});
export type CustomField = z.infer<typeof customFieldSchema>;

// ---- documents ----
export const DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;
export const createDocumentSchema = z.object({
  trip_id: recordId('trip'),
  name: z
    .string({ error: 'The name field is required.' })
    .trim()
    .min(1, { error: 'The name field is required.' })
    .max(255, { error: 'The name must not be longer than 255 characters.' }),
});
export type CreateDocumentInput = z.input<typeof createDocumentSchema>;
export const documentSchema = z.object({
  id: z.number().int(),
  trip_id: z.number().int(),
  name: z.string(),
  /** the uploaded file's name; null until a file is uploaded */
  filename: z.string().nullable(),
  size: z.number().int().nullable(),
  uploaded_at: z.string().nullable(),
  /** a download address that stops working when it expires or is altered; null until a file is uploaded */
  signed_url: z.string().nullable(),
});
export type TripDocument = z.infer<typeof documentSchema>;
