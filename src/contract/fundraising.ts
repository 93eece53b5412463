import { z } from 'zod';
import { isHttpUrl } from './charities.ts';
import { ENTRY_SOURCES, FUNDRAISING_STATES, FUNDRAISING_TYPES, MILESTONES_MAX } from './fundraising-constants.ts';
import { pageParam, recordId } from './common.ts';
import { isoDate } from './invoices.ts';
import { poundsToPence } from './money.ts';
import { reasonText } from './schedules.ts';

export * from './fundraising-constants.ts';

// ---- fundraising targets and milestones ----

const wholeNumber = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `The ${label} must be a whole number from ${min} to ${max}.` })
    .int({ error: `The ${label} must be a whole number from ${min} to ${max}.` })
    .min(min, { error: `The ${label} must be a whole number from ${min} to ${max}.` })
    .max(max, { error: `The ${label} must be a whole number from ${min} to ${max}.` });

export const milestoneSchema = z.object({
  percent: wholeNumber('percentage', 1, 100),
  weeks_before: wholeNumber('weeks before departure', 0, 104),
});

const milestonesSchema = z
  .array(milestoneSchema, { error: 'The milestones must be a list.' })
  .max(MILESTONES_MAX, { error: `At most ${MILESTONES_MAX} milestones.` })
  .superRefine((list, ctx) => {
    // later milestones ask for more: by fewer weeks before departure, a higher percentage
    const sorted = [...list].sort((a, b) => b.weeks_before - a.weeks_before);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i]!.weeks_before === sorted[i - 1]!.weeks_before) {
        ctx.addIssue({ code: 'custom', message: 'Two milestones cannot fall in the same week before departure.' });
        return;
      }
      if (sorted[i]!.percent <= sorted[i - 1]!.percent) {
        ctx.addIssue({
          code: 'custom',
          message: 'Each milestone nearer departure must ask for a higher percentage than the one before it.',
        });
        return;
      }
    }
  });

/** PUT /api/trips/{id}/fundraising: the trip's minimum and milestones for each funding type that fundraises. */
export const tripFundraisingInputSchema = z.object({
  rules: z
    .array(
      z.object({
        funding_type: z.enum(FUNDRAISING_TYPES, { error: 'The funding type must be fundraise or flexi.' }),
        minimum: poundsToPence('minimum sponsorship'),
        milestones: milestonesSchema,
      }),
      { error: 'The rules must be a list.' },
    )
    .max(FUNDRAISING_TYPES.length, { error: 'Give each funding type once.' })
    .refine((rules) => new Set(rules.map((r) => r.funding_type)).size === rules.length, {
      error: 'Give each funding type once.',
    }),
});
export type TripFundraisingInput = z.input<typeof tripFundraisingInputSchema>;

const milestoneReply = z.object({ percent: z.number().int(), weeks_before: z.number().int() });
export const tripFundraisingSchema = z.object({
  trip_id: z.number().int(),
  rules: z.array(
    z.object({
      funding_type: z.enum(FUNDRAISING_TYPES),
      /** pounds */
      minimum: z.number(),
      milestones: z.array(milestoneReply),
      /** the configuration's defaults: the trip has not set its own */
      is_default: z.boolean(),
    }),
  ),
});
export type TripFundraising = z.infer<typeof tripFundraisingSchema>;

const datedMilestone = milestoneReply.extend({ due: z.string(), amount: z.number() });

export const fundraisingEntrySchema = z.object({
  id: z.number().int(),
  amount: z.number(),
  date: z.string(),
  source: z.enum(ENTRY_SOURCES),
  note: z.string().nullable(),
  recorded_by: z.string().nullable(),
  recorded_at: z.string(),
  struck_at: z.string().nullable(),
  struck_by: z.string().nullable(),
  struck_reason: z.string().nullable(),
});
export type FundraisingEntry = z.infer<typeof fundraisingEntrySchema>;

/** GET /api/bookings/{id}/fundraising: a traveller's target, what is raised, and how it stands against the milestones. */
export const bookingFundraisingSchema = z.object({
  booking_id: z.number().int(),
  funding_type: z.string(),
  fundraises: z.boolean(),
  charity: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** pounds; the trip's minimum unless changed */
  target: z.number(),
  trip_minimum: z.number(),
  target_reason: z.string().nullable(),
  page_url: z.string().nullable(),
  raised: z.number(),
  state: z.enum(FUNDRAISING_STATES),
  missed: datedMilestone.nullable(),
  /** pounds still to raise: to the missed milestone (behind) or to the target */
  shortfall: z.number(),
  next: datedMilestone.nullable(),
  milestones: z.array(datedMilestone),
  acknowledged_at: z.string().nullable(),
  acknowledged_by: z.string().nullable(),
  entries: z.array(fundraisingEntrySchema),
});
export type BookingFundraising = z.infer<typeof bookingFundraisingSchema>;

/** PUT /api/bookings/{id}/fundraising: the target (null: the trip's minimum) with why it differs, and the page. */
export const bookingFundraisingInputSchema = z
  .object({
    target: poundsToPence('target').nullable().optional(),
    reason: reasonText.optional(),
    page_url: z
      .string({ error: 'The fundraising page must be a web address.' })
      .trim()
      .max(2048, { error: 'The fundraising page must not be longer than 2048 characters.' })
      .nullish()
      .transform((v) => (v ? v : null))
      .refine((v) => v === null || isHttpUrl(v), {
        error: 'The fundraising page must be a web address starting with http:// or https://.',
      }),
  })
  .refine((v) => v.target === undefined || v.target === null || (v.reason ?? '').length > 0, {
    error: 'Say why the target differs from the trip’s minimum.',
    path: ['reason'],
  });
export type BookingFundraisingInput = z.input<typeof bookingFundraisingInputSchema>;

/** POST /api/bookings/{id}/fundraising/entries: what was raised, when, and where the figure comes from. */
export const fundraisingEntryInputSchema = z.object({
  amount: poundsToPence('amount').refine((p) => p > 0, { error: 'The amount must be more than £0.00.' }),
  date: isoDate('date'),
  source: z.enum(ENTRY_SOURCES, { error: 'The source must be page total, offline, Gift Aid or charity confirmed.' }),
  note: z
    .string({ error: 'The note must be text.' })
    .trim()
    .max(1000, { error: 'The note must not be longer than 1000 characters.' })
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type FundraisingEntryInput = z.input<typeof fundraisingEntryInputSchema>;

/**
 * One fundraiser of a charity: the fields a charity may see, and no more. The charity
 * portal reuses this list as it is: a test fails when a new field would reach it.
 */
export const fundraiserSchema = z.object({
  booking_id: z.number().int(),
  booking_ref: z.string(),
  traveller: z.string(),
  trip: z.object({ id: z.number().int(), name: z.string() }),
  departure: z.string(),
  funding_type: z.string(),
  target: z.number(),
  raised: z.number(),
  state: z.enum(FUNDRAISING_STATES),
  /** pounds short of the missed milestone (behind) or still to raise (on track) */
  shortfall: z.number(),
  page_url: z.string().nullable(),
  acknowledged_at: z.string().nullable(),
});
export type Fundraiser = z.infer<typeof fundraiserSchema>;
export const FUNDRAISER_FIELDS = Object.keys(fundraiserSchema.shape);

/** A charity's fundraisers come a page at a time (a charity may have tens of thousands over the years). */
export const FUNDRAISERS_PER_PAGE = 50;

/** Which page of the fundraisers a reply holds: the totals are of them all. */
const fundraisersPage = {
  current_page: z.number().int(),
  last_page: z.number().int(),
  per_page: z.number().int(),
  /** the first and last row of the page, counted from 1 (null when there are none) */
  from: z.number().int().nullable(),
  to: z.number().int().nullable(),
};

/** GET /api/charities/{id}/fundraisers: a page of the charity's fundraisers (provisional and confirmed), with the totals of them all. */
export const charityFundraisersSchema = z.object({
  ...fundraisersPage,
  totals: z.object({
    fundraisers: z.number().int(),
    raised: z.number(),
    pledged: z.number(),
    shortfall: z.number(),
    behind: z.number().int(),
    met: z.number().int(),
  }),
  fundraisers: z.array(fundraiserSchema),
  /** the Charity users who follow them in the portal */
  portal_users: z.array(z.object({ id: z.number().int(), name: z.string(), email: z.string() })),
});
export type CharityFundraisers = z.infer<typeof charityFundraisersSchema>;

export const fundraisersQuery = z.object({
  page: pageParam(),
  trip_id: recordId('trip').optional(),
  state: z
    .enum(FUNDRAISING_STATES, { error: 'The state must be on_track, behind, met or not_fundraising.' })
    .optional(),
});

// ---- the charity portal: what a Charity user sees of their own charity's fundraisers ----

/** GET /api/charity/fundraisers: by trip and state, as JSON or an .xlsx download. */
export const portalFundraisersQuery = fundraisersQuery.extend({
  format: z.enum(['json', 'xlsx'], { error: 'The format must be json or xlsx.' }).default('json'),
});

/** The signed-in user's charity, the trips its fundraisers are on (for the filter), the totals and the fundraisers. */
export const portalFundraisersSchema = z.object({
  ...fundraisersPage,
  charity: z.object({ id: z.number().int(), name: z.string() }),
  trips: z.array(z.object({ id: z.number().int(), name: z.string(), departure: z.string() })),
  totals: charityFundraisersSchema.shape.totals,
  fundraisers: z.array(fundraiserSchema),
});
export type PortalFundraisers = z.infer<typeof portalFundraisersSchema>;

/**
 * GET /api/charity/fundraisers/{booking_id}: one fundraiser as the charity sees it: the list's
 * fields, its milestones, the raised-to-date entries (struck ones shown struck) and the notes the
 * charity's users sent to the office.
 */
export const portalFundraiserSchema = fundraiserSchema.extend({
  acknowledged_by: z.string().nullable(),
  milestones: z.array(datedMilestone),
  next: datedMilestone.nullable(),
  missed: datedMilestone.nullable(),
  entries: z.array(
    fundraisingEntrySchema.pick({
      id: true,
      amount: true,
      date: true,
      source: true,
      note: true,
      recorded_by: true,
      recorded_at: true,
      struck_at: true,
      struck_reason: true,
    }),
  ),
  notes: z.array(
    z.object({ id: z.number().int(), html: z.string(), author: z.string().nullable(), created_at: z.string() }),
  ),
});
export type PortalFundraiser = z.infer<typeof portalFundraiserSchema>;
export const PORTAL_FUNDRAISER_FIELDS = Object.keys(portalFundraiserSchema.shape);

/** POST /api/charity/fundraisers/{booking_id}/entries: always recorded as charity confirmed. */
export const charityEntryInputSchema = fundraisingEntryInputSchema.omit({ source: true });
export type CharityEntryInput = z.input<typeof charityEntryInputSchema>;

/** POST /api/charity/fundraisers/{booking_id}/notes: plain text, kept as a note on the booking for staff. */
export const charityNoteInputSchema = z.object({
  note: z
    .string({ error: 'Write the note.' })
    .trim()
    .min(1, { error: 'Write the note.' })
    .max(2000, { error: 'The note must not be longer than 2000 characters.' }),
});
export type CharityNoteInput = z.input<typeof charityNoteInputSchema>;

/** POST /api/fundraising-entries/{id}/strike: an entry struck out, saying why. */
export const strikeEntryInputSchema = z.object({
  reason: z
    .string({ error: 'Say why the entry is struck out.' })
    .trim()
    .min(1, { error: 'Say why the entry is struck out.' })
    .max(500, { error: 'The reason must not be longer than 500 characters.' }),
});
