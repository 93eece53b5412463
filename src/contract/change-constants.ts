// Plain values of changes after booking (no zod), so that a screen which shows them does not load zod.

/** The funding types a band of the scale may be for (a booking's funding_type). */
import { FUNDING_TYPES, type FundingType } from './booking-constants.ts';

export const CHANGE_FUNDING_TYPES = FUNDING_TYPES;
export type ChangeFundingType = FundingType;

export const KEEP_KINDS = ['deposit', 'percent', 'all'] as const;
export type KeepKind = (typeof KEEP_KINDS)[number];
export const KEEP_LABELS: Record<KeepKind, string> = {
  deposit: 'The deposit',
  percent: 'A percentage of the trip cost',
  all: 'Everything',
};

/** One band of the cancellation scale: cancelled this many days or more before departure, this is kept. */
export type CancellationBand = {
  /** the band applies from this many days before departure (the UK day of cancelling to the departure day) */
  from_days: number;
  keep: KeepKind;
  /** with keep = percent: the share of the trip cost kept, 1–100 */
  percent: number | null;
  /** null: every funding type; otherwise this band is for bookings of this funding type only */
  funding_type: ChangeFundingType | null;
};

/** The office's scale until it sets its own (issue 35). */
export const DEFAULT_BANDS: CancellationBand[] = [
  { from_days: 57, keep: 'deposit', percent: null, funding_type: null },
  { from_days: 29, keep: 'percent', percent: 50, funding_type: null },
  { from_days: 0, keep: 'all', percent: null, funding_type: null },
];
export const DEFAULT_TRANSFER_FEE_PENCE = 2500;
export const DEFAULT_MOVE_FEE_PENCE = 10000;
/** A refund owed falls due this many days after the cancellation (Package Travel Regulations 2018). */
export const REFUND_DUE_DAYS = 14;
/** A cancellation invoice is due this many days after it is raised. */
export const CANCELLATION_DUE_DAYS = 14;

/**
 * Reg 13: a departure below its minimum numbers may be cancelled with no fee only by notice this
 * many days before it starts: 20 for trips of more than 6 days, 7 for 2–6 days, 2 (48 hours) for
 * shorter. A trip's length counts its departure and return days.
 */
export function minimumNoticeDays(departure: string, returning: string): number {
  const days =
    Math.round((Date.parse(`${returning}T00:00:00Z`) - Date.parse(`${departure}T00:00:00Z`)) / 86_400_000) + 1;
  return days > 6 ? 20 : days >= 2 ? 7 : 2;
}

/** The last day (yyyy-mm-dd) a departure below its minimum may be cancelled by reg 13. */
export function minimumDeadline(departure: string, returning: string): string {
  const d = new Date(`${departure}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - minimumNoticeDays(departure, returning));
  return d.toISOString().slice(0, 10);
}

/** The trip page warns of a departure below its minimum from this many days before its reg 13 deadline. */
export const MINIMUM_WARNING_DAYS = 14;

/**
 * The trip page's warning (reg 13): a departure with minimum numbers, not cancelled, below them,
 * within MINIMUM_WARNING_DAYS of the last day it may be cancelled for it (or past that day).
 */
export function minimumWarning(
  trip: { minimum: number | null; booking_count: number; departure: string; return: string; status: string },
  today: string,
): { deadline: string; daysLeft: number; short: number } | null {
  if (trip.minimum === null || trip.status === 'cancelled' || trip.booking_count >= trip.minimum) return null;
  if (trip.departure < today) return null;
  const deadline = minimumDeadline(trip.departure, trip.return);
  const daysLeft = Math.round((Date.parse(`${deadline}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  if (daysLeft > MINIMUM_WARNING_DAYS) return null;
  return { deadline, daysLeft, short: trip.minimum - trip.booking_count };
}

/** A traveller's ask from their own pages: to cancel, or to change something (dates, traveller, funding). */
export const CHANGE_REQUEST_KINDS = ['cancel', 'change'] as const;
export type ChangeRequestKind = (typeof CHANGE_REQUEST_KINDS)[number];
export const CHANGE_REQUEST_STATES = ['open', 'done', 'declined'] as const;
export type ChangeRequestState = (typeof CHANGE_REQUEST_STATES)[number];
