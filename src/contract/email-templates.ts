import { z } from 'zod';
import { recordId } from './common.ts';

// ---- the emails staff word themselves (/settings/emails) ----

export const TEMPLATE_KEYS = [
  'reminder_before',
  'reminder_due',
  'reminder_overdue',
  'chaser_passport',
  'chaser_forms',
  'trip_documents',
  'fundraising_milestone',
  'fundraising_summary',
  'payment_receipt',
  'sign_in_link',
  'booking_received',
  'waiting_list_offer',
  'booking_cancelled',
  'booking_transferred',
  'charity_fundraiser_changed',
  'booking_moved',
  'group_parent_invitation',
  'chaser_consent',
] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];
export const TEMPLATE_NAMES: Record<TemplateKey, string> = {
  reminder_before: 'Reminder before an instalment is due',
  reminder_due: 'Reminder on the day an instalment is due',
  reminder_overdue: 'Chaser for an overdue instalment',
  chaser_passport: 'Chaser for passport details',
  chaser_forms: 'Chaser for the booking form',
  trip_documents: 'The trip’s documents',
  fundraising_milestone: 'Fundraising milestone ahead',
  fundraising_summary: 'Monthly fundraising summary to a charity',
  payment_receipt: 'Receipt for a card payment',
  sign_in_link: 'Sign-in link to a traveller’s own pages',
  booking_received: 'Booking received online',
  waiting_list_offer: 'A waiting list’s offer of a freed place',
  booking_cancelled: 'Booking cancelled: the fee and any refund',
  booking_transferred: 'A place passed to another traveller (to both of them)',
  charity_fundraiser_changed: 'To a charity: a fundraiser joins it or leaves it',
  booking_moved: 'Booking moved to another departure',
  group_parent_invitation: 'To a parent: their child joins a school group',
  chaser_consent: 'Chaser for a parent’s consent (school trips)',
};
const EVERY = [
  'traveller.title',
  'traveller.first_name',
  'traveller.last_name',
  'traveller.preferred_name',
  'booking.ref',
  'trip.name',
  'trip.departure',
] as const;
const INVOICE = [
  'invoice.ref',
  'invoice.total',
  'invoice.outstanding',
  'invoice.due_date',
  'invoice.days_until_due',
  'invoice.days_overdue',
  'invoice.pay_url',
] as const;
const CHASE = ['trip.return', 'trip.country', 'trip.passport_months', 'chase.reason'] as const;
/** The placeholders each template may use, as staff type them. */
export const TEMPLATE_PLACEHOLDERS: Record<TemplateKey, readonly string[]> = {
  reminder_before: [...EVERY, ...INVOICE, 'portal.url', 'operator.name'],
  reminder_due: [...EVERY, ...INVOICE, 'portal.url', 'operator.name'],
  reminder_overdue: [...EVERY, ...INVOICE, 'portal.url', 'operator.name'],
  chaser_passport: [...EVERY, ...CHASE, 'portal.url', 'operator.name'],
  chaser_forms: [...EVERY, ...CHASE, 'portal.url', 'operator.name'],
  trip_documents: [...EVERY, 'trip.return', 'documents.names', 'documents.count', 'portal.url', 'operator.name'],
  fundraising_milestone: [
    ...EVERY,
    'charity.name',
    'fundraising.raised',
    'fundraising.target',
    'fundraising.percent',
    'fundraising.milestone_amount',
    'fundraising.due',
    'fundraising.short',
    'fundraising.page_url',
    'portal.url',
    'operator.name',
  ],
  payment_receipt: [
    ...EVERY,
    'invoice.ref',
    'invoice.total',
    'invoice.outstanding',
    'invoice.due_date',
    'payment.amount',
    'payment.date',
    'payment.reference',
    'portal.url',
    'operator.name',
  ],
  booking_received: [
    ...EVERY,
    'booking.status',
    'booking.next',
    'deposit.amount',
    'deposit.pay_url',
    'deposit.bank_details',
    'portal.url',
    'operator.name',
  ],
  charity_fundraiser_changed: [
    'recipient.first_name',
    'recipient.last_name',
    'charity.name',
    'traveller.first_name',
    'traveller.last_name',
    'booking.ref',
    'trip.name',
    'trip.departure',
    'fundraiser.joined',
    'fundraiser.target',
    'operator.name',
  ],
  group_parent_invitation: [
    ...EVERY,
    'trip.return',
    'group.school',
    'group.leader_name',
    'parent.name',
    'portal.url',
    'operator.name',
  ],
  chaser_consent: [...EVERY, ...CHASE, 'portal.url', 'operator.name'],
  booking_moved: [
    ...EVERY,
    'move.from_name',
    'move.from_departure',
    'move.fee',
    'move.refund_owed',
    'move.schedule',
    'portal.url',
    'operator.name',
  ],
  booking_transferred: [
    ...EVERY,
    'transfer.from_name',
    'transfer.to_name',
    'transfer.fee',
    'transfer.to_you',
    'portal.url',
    'operator.name',
  ],
  booking_cancelled: [
    ...EVERY,
    'cancellation.reason',
    'cancellation.fee',
    'cancellation.paid',
    'cancellation.refund_owed',
    'cancellation.refund_due_on',
    'cancellation.still_owed',
    'cancellation.fee_waived',
    'portal.url',
    'operator.name',
  ],
  waiting_list_offer: [
    'traveller.first_name',
    'traveller.last_name',
    'trip.name',
    'trip.departure',
    'offer.url',
    'offer.places',
    'offer.until',
    'operator.name',
  ],
  sign_in_link: [
    'traveller.title',
    'traveller.first_name',
    'traveller.last_name',
    'traveller.preferred_name',
    'sign_in.url',
    'sign_in.minutes',
    'operator.name',
  ],
  fundraising_summary: [
    'recipient.first_name',
    'recipient.last_name',
    'charity.name',
    'summary.month',
    'summary.count',
    'summary.behind',
    'summary.met',
    'summary.raised',
    'summary.pledged',
    'summary.lines',
    'operator.name',
  ],
};
export const TEMPLATE_SUBJECT_MAX = 200;
export const TEMPLATE_BODY_MAX = 20_000;

export const templateKeyParam = z.object({ key: z.enum(TEMPLATE_KEYS, { error: 'There is no such email.' }) });

export const emailTemplateSchema = z.object({
  key: z.enum(TEMPLATE_KEYS),
  name: z.string(),
  subject: z.string(),
  body: z.string(),
  /** no one has changed Tripdesk's wording */
  is_default: z.boolean(),
  updated_at: z.string().nullable(),
  placeholders: z.array(z.string()),
});
export type EmailTemplate = z.infer<typeof emailTemplateSchema>;

export const emailTemplateInputSchema = z.object({
  subject: z
    .string({ error: 'The subject field is required.' })
    .trim()
    .min(1, { error: 'The subject field is required.', abort: true })
    .max(TEMPLATE_SUBJECT_MAX, { error: `The subject must not be longer than ${TEMPLATE_SUBJECT_MAX} characters.` }),
  body: z
    .string({ error: 'The body field is required.' })
    .trim()
    .min(1, { error: 'The body field is required.', abort: true })
    .max(TEMPLATE_BODY_MAX, { error: `The body must not be longer than ${TEMPLATE_BODY_MAX} characters.` }),
});
export type EmailTemplateInput = z.input<typeof emailTemplateInputSchema>;

export const templatePreviewInputSchema = emailTemplateInputSchema
  .partial()
  .extend({ booking_id: recordId('booking') });
export const renderedEmailSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
});
export type RenderedEmail = z.infer<typeof renderedEmailSchema>;

/** "Send reminder now" for the ticked rows of the money-due screen. */
export const bulkReminderInputSchema = z.object({
  booking_ids: z
    .array(recordId('booking'), { error: 'Choose the bookings to remind.' })
    .min(1, { error: 'Choose the bookings to remind.' })
    .max(500, { error: 'At most 500 bookings can be reminded at once.' }),
});
export const bulkReminderResultSchema = z.object({
  message: z.string(),
  sent: z.array(z.number().int()),
  /** bookings with nothing owed on an invoice, or cancelled */
  nothing_to_send: z.array(z.number().int()),
  failed: z.array(z.number().int()),
});
export type BulkReminderResult = z.infer<typeof bulkReminderResultSchema>;
