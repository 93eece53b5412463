// Plain values of changes after booking (no zod), so that a screen which shows them does not load zod.

/** The funding types a band of the scale may be for (a booking's funding_type). */
export const CHANGE_FUNDING_TYPES = ['self', 'fundraise', 'flexi', 'free'] as const;
export type ChangeFundingType = (typeof CHANGE_FUNDING_TYPES)[number];

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
