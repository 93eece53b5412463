import { z } from 'zod';
import { idParam, int4 } from './common.ts';
import { charityIdField, createBookingSchema, fundingTypeField } from './bookings.ts';
import { FUNDING_TYPES } from './booking-constants.ts';
import { poundsToPence } from './money.ts';

// ---- changes after booking (issue 35): the fee scale, cancelling a booking, refunds owed ----

import {
  type CancellationBand,
  CANCELLATION_DUE_DAYS,
  CHANGE_FUNDING_TYPES,
  CHANGE_REQUEST_KINDS,
  CHANGE_REQUEST_STATES,
  DEFAULT_BANDS,
  DEFAULT_MOVE_FEE_PENCE,
  DEFAULT_TRANSFER_FEE_PENCE,
  KEEP_KINDS,
  KEEP_LABELS,
  type KeepKind,
  REFUND_DUE_DAYS,
} from './change-constants.ts';

export {
  type CancellationBand,
  CANCELLATION_DUE_DAYS,
  CHANGE_FUNDING_TYPES,
  CHANGE_REQUEST_KINDS,
  CHANGE_REQUEST_STATES,
  DEFAULT_BANDS,
  DEFAULT_MOVE_FEE_PENCE,
  DEFAULT_TRANSFER_FEE_PENCE,
  KEEP_KINDS,
  KEEP_LABELS,
  type KeepKind,
  REFUND_DUE_DAYS,
};

const bandSchema = z.object({
  from_days: z.number().int(),
  keep: z.enum(KEEP_KINDS),
  percent: z.number().int().nullable(),
  funding_type: z.enum(CHANGE_FUNDING_TYPES).nullable(),
});

/** an empty field is a missing one, not 0 */
const blankAsMissing = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const bandInput = z
  .object({
    from_days: z.preprocess(
      blankAsMissing,
      z.coerce
        .number({ error: 'Give the days before departure the band starts from.' })
        .int('The days before departure must be a whole number.')
        .min(0, 'The days before departure cannot be negative.')
        .max(3650, 'The days before departure must be at most 3650.'),
    ),
    keep: z.enum(KEEP_KINDS, { error: 'Choose what is kept: the deposit, a percentage or everything.' }),
    percent: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
      z.coerce
        .number({ error: 'The percentage must be a whole number from 1 to 100.' })
        .int('The percentage must be a whole number from 1 to 100.')
        .min(1, 'The percentage must be a whole number from 1 to 100.')
        .max(100, 'The percentage must be a whole number from 1 to 100.')
        .nullable()
        .default(null),
    ),
    funding_type: z.enum(CHANGE_FUNDING_TYPES, { error: 'The funding type is invalid.' }).nullable().default(null),
  })
  .superRefine((b, ctx) => {
    if (b.keep === 'percent' && b.percent === null)
      ctx.addIssue({ code: 'custom', path: ['percent'], message: 'Give the percentage of the trip cost kept.' });
  })
  .transform((b) => ({ ...b, percent: b.keep === 'percent' ? b.percent : null }));

/** GET /api/settings/changes */
export const changeRulesSchema = z.object({
  bands: z.array(bandSchema),
  transfer_fee: z.number(),
  move_fee: z.number(),
  /** false: the defaults, the office has not set its own */
  saved: z.boolean(),
});
export type ChangeRules = z.infer<typeof changeRulesSchema>;

/** PUT /api/settings/changes */
export const saveChangeRulesSchema = z
  .object({
    bands: z
      .array(bandInput, { error: 'Give at least one band.' })
      .min(1, 'Give at least one band.')
      .max(30, 'At most 30 bands.'),
    transfer_fee: poundsToPence('transfer fee'),
    move_fee: poundsToPence('move fee'),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.bands.forEach((b, i) => {
      const key = `${b.funding_type ?? 'any'}:${b.from_days}`;
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: ['bands', i, 'from_days'],
          message: 'Two bands start on the same day for the same bookings.',
        });
      seen.add(key);
    });
    // every booking must fall in a band: from 0 days for every booking
    if (!v.bands.some((b) => b.funding_type === null && b.from_days === 0))
      ctx.addIssue({
        code: 'custom',
        path: ['bands'],
        message: 'One band for every booking must start at 0 days, so that a cancellation on any day has a fee.',
      });
    for (const f of new Set(v.bands.map((b) => b.funding_type).filter((f) => f !== null)))
      if (!v.bands.some((b) => b.funding_type === f && b.from_days === 0))
        ctx.addIssue({
          code: 'custom',
          path: ['bands'],
          message: `The bands for ${f} bookings must include one starting at 0 days.`,
        });
  });

/** POST /api/bookings/{id}/cancel (and its preview's query) */
export const cancelBookingSchema = z
  .object({
    reason: z
      .string({ error: 'Give the reason for cancelling.' })
      .trim()
      .min(1, 'Give the reason for cancelling.')
      .max(500, 'The reason must be at most 500 characters.'),
    fee_waived: z.boolean().default(false),
    waived_reason: z
      .string()
      .trim()
      .max(500, 'The reason for waiving the fee must be at most 500 characters.')
      .nullable()
      .default(null)
      .transform((v) => (v ? v : null)),
    notify: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (v.fee_waived && !v.waived_reason)
      ctx.addIssue({
        code: 'custom',
        path: ['waived_reason'],
        message: 'Say why the fee is waived (unavoidable and extraordinary circumstances).',
      });
  })
  // a reason for waiving a fee that is not waived is not kept
  .transform((v) => ({ ...v, waived_reason: v.fee_waived ? v.waived_reason : null }));
export type CancelBookingValues = z.output<typeof cancelBookingSchema>;

/** ?fee_waived=1 on every preview of a change that has a fee (cancel, transfer, move) */
export const feeWaivedQuery = z.object({
  fee_waived: z
    .enum(['0', '1', 'true', 'false'], { error: 'fee_waived must be 1 or 0.' })
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

const band = bandSchema.extend({ label: z.string() });

/** What cancelling does, answered by the same function that then does it. Amounts in pounds. */
export const cancelPreviewSchema = z.object({
  booking_id: z.number().int(),
  ref: z.string(),
  cancellable: z.boolean(),
  /** why not, when it is not */
  refused: z.string().nullable(),
  /** UK days from today to the departure day */
  days_before_departure: z.number().int(),
  band: band.nullable(),
  trip_cost: z.number(),
  deposit: z.number(),
  /** the fee the scale gives, before any waiver */
  scale_fee: z.number(),
  fee_waived: z.boolean(),
  /** what is kept */
  fee: z.number(),
  /** payments less refunds so far */
  paid: z.number(),
  /** paid more than the fee: the difference is owed back within 14 days */
  refund_owed: z.number(),
  refund_due_on: z.string().nullable(),
  /** paid less than the fee: a cancellation invoice for the difference */
  still_owed: z.number(),
  invoices_deleted: z.array(z.object({ id: z.number().int(), ref: z.string(), total: z.number() })),
  invoices_kept: z.array(
    z.object({ id: z.number().int(), ref: z.string(), total: z.number(), paid: z.number(), outstanding: z.number() }),
  ),
  rows_waived: z.array(z.object({ id: z.number().int(), label: z.string(), due_date: z.string(), amount: z.number() })),
  /** what the fee means, in words */
  summary: z.string(),
});
export type CancelPreview = z.infer<typeof cancelPreviewSchema>;

export const cancelledSchema = cancelPreviewSchema.extend({
  message: z.string(),
  cancellation_invoice_id: z.number().int().nullable(),
  refund_owed_id: z.number().int().nullable(),
  emailed: z.boolean(),
});
export type Cancelled = z.infer<typeof cancelledSchema>;

export const REFUND_OWED_STATES = ['open', 'settled'] as const;
export type RefundOwedState = (typeof REFUND_OWED_STATES)[number];

export const refundOwedSchema = z.object({
  id: z.number().int(),
  booking_id: z.number().int(),
  booking_ref: z.string(),
  traveller: z.string(),
  trip_name: z.string(),
  amount: z.number(),
  reason: z.string(),
  due_on: z.string(),
  /** negative: overdue by that many days */
  days_left: z.number().int(),
  overdue: z.boolean(),
  state: z.enum(REFUND_OWED_STATES),
  settled_at: z.string().nullable(),
  created_at: z.string(),
});
export type RefundOwed = z.infer<typeof refundOwedSchema>;

/** GET /api/refunds-owed */
export const refundsOwedQuery = z.object({
  state: z.enum(REFUND_OWED_STATES, { error: 'The state must be open or settled.' }).optional(),
  overdue: z
    .enum(['0', '1'], { error: 'overdue must be 1 or 0.' })
    .optional()
    .transform((v) => v === '1'),
  booking_id: int4('The booking must be a whole number.').positive('The booking must be a whole number.').optional(),
});
export const refundsOwedSchema = z.object({
  data: z.array(refundOwedSchema),
  total_open: z.number(),
  overdue: z.number().int(),
});
export type RefundsOwed = z.infer<typeof refundsOwedSchema>;

export { idParam };

/** A transfer within this many days of departure needs an Administrator's reason (reasonable notice: reg 9). */
export const TRANSFER_NOTICE_DAYS = 7;

/** POST /api/bookings/{id}/transfer: the new traveller, as on the staff form */
export const transferBookingSchema = createBookingSchema
  .pick({ title: true, first_name: true, last_name: true, preferred_name: true, email: true, mobile: true })
  .extend({
    fee_waived: z.boolean().default(false),
    /** within 7 days of departure: why it is allowed */
    override_reason: z
      .string()
      .trim()
      .max(500, 'The reason must be at most 500 characters.')
      .nullable()
      .default(null)
      .transform((v) => (v ? v : null)),
    notify: z.boolean().default(true),
  });
export type TransferBookingValues = z.output<typeof transferBookingSchema>;

/** GET /api/bookings/{id}/transfer/preview */
export const transferPreviewSchema = z.object({
  booking_id: z.number().int(),
  ref: z.string(),
  transferable: z.boolean(),
  refused: z.string().nullable(),
  days_before_departure: z.number().int(),
  /** within 7 days of departure: an Administrator's reason is needed */
  needs_override: z.boolean(),
  fee_waived: z.boolean(),
  /** the transfer fee invoiced to the booking */
  fee: z.number(),
  from: z.object({ name: z.string(), email: z.string() }),
  /** the old traveller's details that are erased from the booking */
  erased: z.array(z.string()),
  summary: z.string(),
});
export type TransferPreview = z.infer<typeof transferPreviewSchema>;

export const transferredSchema = transferPreviewSchema.extend({
  message: z.string(),
  fee_invoice_id: z.number().int().nullable(),
  emailed: z.number().int(),
});
export type Transferred = z.infer<typeof transferredSchema>;

// ---- a move to another departure ----

const tripIdField = int4('Choose the departure to move to.').positive('Choose the departure to move to.');

/** GET /api/bookings/{id}/move/preview?trip_id=&fee_waived= */
export const movePreviewQuery = feeWaivedQuery.extend({ trip_id: tripIdField });

/** POST /api/bookings/{id}/move */
export const moveBookingSchema = z.object({
  trip_id: tripIdField,
  fee_waived: z.boolean().default(false),
  /** why, for the history */
  reason: z
    .string()
    .trim()
    .max(500, 'The reason must be at most 500 characters.')
    .nullable()
    .default(null)
    .transform((v) => (v ? v : null)),
  /** email the traveller their new departure */
  notify: z.boolean().default(true),
});
export type MoveBookingValues = z.output<typeof moveBookingSchema>;

const moveTrip = z.object({
  trip_id: z.number().int(),
  name: z.string(),
  departure_date: z.string(),
  cost: z.number(),
});

/** What moving does, answered by the same function that then does it. Amounts in pounds. */
export const movePreviewSchema = z.object({
  booking_id: z.number().int(),
  ref: z.string(),
  movable: z.boolean(),
  refused: z.string().nullable(),
  from: moveTrip,
  to: moveTrip.extend({ places_left: z.number().int().nullable() }),
  /** UK days from today to the new departure */
  days_before_departure: z.number().int(),
  fee_waived: z.boolean(),
  /** the move fee, invoiced on its own */
  fee: z.number(),
  /** the new trip's cost less the old one's */
  price_difference: z.number(),
  /** billed for the trip by the invoices that stay (they have money on them): the new schedule starts after it */
  billed: z.number(),
  /** payments less refunds so far on the invoices that stay */
  paid: z.number(),
  /** billed beyond the new trip's cost: owed back within 14 days */
  refund_owed: z.number(),
  refund_due_on: z.string().nullable(),
  addons_kept: z.array(z.object({ name: z.string(), price: z.number() })),
  addons_dropped: z.array(z.object({ name: z.string(), price: z.number() })),
  invoices_deleted: z.array(z.object({ id: z.number().int(), ref: z.string(), total: z.number() })),
  rows_removed: z.array(
    z.object({ id: z.number().int(), label: z.string(), due_date: z.string(), amount: z.number() }),
  ),
  rows_new: z.array(z.object({ label: z.string(), due_date: z.string(), amount: z.number() })),
  summary: z.string(),
});
export type MovePreview = z.infer<typeof movePreviewSchema>;

export const movedSchema = movePreviewSchema.extend({
  message: z.string(),
  emailed: z.boolean(),
  fee_invoice_id: z.number().int().nullable(),
  refund_owed_id: z.number().int().nullable(),
});
export type Moved = z.infer<typeof movedSchema>;

/** GET /api/bookings/{id}/move/trips: the departures a booking may move to */
export const moveTripsSchema = z.object({
  data: z.array(moveTrip.extend({ places_left: z.number().int().nullable() })),
});
export type MoveTrips = z.infer<typeof moveTripsSchema>;

// ---- the operator cancelling a departure ----

/** POST /api/trips/{id}/cancel */
export const cancelTripSchema = z.object({
  reason: z
    .string({ error: 'Give the reason for cancelling the departure.' })
    .trim()
    .min(1, 'Give the reason for cancelling the departure.')
    .max(500, 'The reason must be at most 500 characters.'),
  /** unavoidable and extraordinary circumstances; otherwise the operator's own choice. No fee either way. */
  extraordinary: z.boolean().default(false),
  notify: z.boolean().default(true),
});
export type CancelTripValues = z.output<typeof cancelTripSchema>;

/** What cancelling a departure does: every live booking cancelled with no fee, all paid owed back. Amounts in pounds. */
export const tripCancelPreviewSchema = z.object({
  trip_id: z.number().int(),
  name: z.string(),
  departure_date: z.string(),
  cancellable: z.boolean(),
  refused: z.string().nullable(),
  days_before_departure: z.number().int(),
  minimum: z.number().int().nullable(),
  /** live bookings (not cancelled) */
  booked: z.number().int(),
  below_minimum: z.boolean(),
  /** the last day it may be cancelled for being below its minimum (reg 13), with a minimum */
  minimum_deadline: z.string().nullable(),
  bookings: z.array(
    z.object({
      booking_id: z.number().int(),
      ref: z.string(),
      traveller: z.string(),
      paid: z.number(),
      refund_owed: z.number(),
      invoices_deleted: z.number().int(),
    }),
  ),
  /** owed back in all, within 14 days */
  refund_owed: z.number(),
  refund_due_on: z.string().nullable(),
  summary: z.string(),
});
export type TripCancelPreview = z.infer<typeof tripCancelPreviewSchema>;

export const tripCancelledSchema = tripCancelPreviewSchema.extend({
  message: z.string(),
  /** travellers emailed */
  emailed: z.number().int(),
});
export type TripCancelled = z.infer<typeof tripCancelledSchema>;

/** GET/PUT/DELETE /api/trips/{id}/changes: the rules a trip is charged by; own: its own, else the office's */
export const tripChangeRulesSchema = changeRulesSchema.extend({ own: z.boolean() });
export type TripChangeRules = z.infer<typeof tripChangeRulesSchema>;

// ---- funding and charity, changed after booking ----

/** GET /api/bookings/{id}/funding/preview?funding_type=&charity_id= */
export const fundingPreviewQuery = z.object({ funding_type: fundingTypeField, charity_id: charityIdField });

/** PUT /api/bookings/{id}/funding */
export const setFundingSchema = z.object({
  funding_type: fundingTypeField,
  charity_id: charityIdField,
  reason: z
    .string({ error: 'Give the reason for the change.' })
    .trim()
    .min(1, 'Give the reason for the change.')
    .max(500, 'The reason must be at most 500 characters.'),
});
export type SetFundingValues = z.output<typeof setFundingSchema>;

const fundingSide = z.object({
  funding_type: z.enum(FUNDING_TYPES),
  charity: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  fundraises: z.boolean(),
  /** the fundraising target in force, in pounds; null when it does not fundraise */
  target: z.number().nullable(),
});

/** What changing a booking's funding and charity does, from the function that then does it. */
export const fundingPreviewSchema = z.object({
  booking_id: z.number().int(),
  ref: z.string(),
  changed: z.boolean(),
  from: fundingSide,
  to: fundingSide,
  /** raised so far: the entries are kept whatever the funding */
  raised: z.number(),
  entries_kept: z.number().int(),
  /** the charity told that a fundraiser joins it, or leaves it */
  charity_joined: z.string().nullable(),
  charity_left: z.string().nullable(),
  summary: z.string(),
});
export type FundingPreview = z.infer<typeof fundingPreviewSchema>;

export const fundingSetSchema = fundingPreviewSchema.extend({ message: z.string(), charity_emails: z.number().int() });
export type FundingSet = z.infer<typeof fundingSetSchema>;

// ---- a traveller's Ask to cancel / Ask to change, and the office's queue of them ----

/** POST /api/my/bookings/{id}/changes */
export const askChangeSchema = z.object({
  kind: z.enum(CHANGE_REQUEST_KINDS, { error: 'Choose whether you ask to cancel or to change the booking.' }),
  message: z
    .string({ error: 'Tell us what you would like.' })
    .trim()
    .min(1, 'Tell us what you would like.')
    .max(2000, 'Please keep it to 2,000 characters.'),
});
export type AskChangeValues = z.output<typeof askChangeSchema>;

export const changeRequestSchema = z.object({
  id: z.number().int(),
  booking_id: z.number().int(),
  booking_ref: z.string(),
  traveller: z.string(),
  trip_name: z.string(),
  kind: z.enum(CHANGE_REQUEST_KINDS),
  message: z.string(),
  state: z.enum(CHANGE_REQUEST_STATES),
  created_at: z.string(),
  closed_at: z.string().nullable(),
  closed_note: z.string().nullable(),
});
export type ChangeRequest = z.infer<typeof changeRequestSchema>;

/** GET /api/change-requests */
export const changeRequestsQuery = z.object({
  state: z.enum(CHANGE_REQUEST_STATES, { error: 'The state must be open, done or declined.' }).optional(),
  booking_id: int4('The booking must be a whole number.').positive('The booking must be a whole number.').optional(),
});
export const changeRequestsSchema = z.object({
  data: z.array(changeRequestSchema),
  /** open asks in all */
  open: z.number().int(),
});
export type ChangeRequests = z.infer<typeof changeRequestsSchema>;

/** POST /api/change-requests/{id}/close */
export const closeChangeRequestSchema = z.object({
  outcome: z.enum(['done', 'declined'], { error: 'Say whether it was done or declined.' }),
  note: z
    .string()
    .trim()
    .max(500, 'The note must be at most 500 characters.')
    .nullable()
    .default(null)
    .transform((v) => (v ? v : null)),
});

/** GET /api/my/bookings/{id}/changes: what cancelling today would cost, and the traveller's asks */
export const myChangesSchema = z.object({
  /** whether the traveller may ask (not cancelled, not departed) */
  may_ask: z.boolean(),
  cancel: z.object({
    days_before_departure: z.number().int(),
    /** the scale's band, in words */
    band: z.string().nullable(),
    fee: z.number(),
    paid: z.number(),
    refund_owed: z.number(),
    still_owed: z.number(),
  }),
  requests: z.array(
    changeRequestSchema.pick({
      id: true,
      kind: true,
      message: true,
      state: true,
      created_at: true,
      closed_at: true,
      closed_note: true,
    }),
  ),
});
export type MyChanges = z.infer<typeof myChangesSchema>;
