// Plain values of the payment plans and schedules, no zod.

/** How an instalment's amount is worked out. */
export const AMOUNT_KINDS = ['fixed', 'percent', 'deposit', 'rest'] as const;
export type AmountKind = (typeof AMOUNT_KINDS)[number];
export const AMOUNT_KIND_LABELS: Record<AmountKind, string> = {
  fixed: 'A fixed amount',
  percent: 'A percentage of the trip cost',
  deposit: "The trip's deposit",
  rest: 'The rest of the trip cost',
};

/** How an instalment's due date is worked out. */
export const DUE_KINDS = ['after_booking', 'before_departure', 'fixed_date'] as const;
export type DueKind = (typeof DUE_KINDS)[number];
export const DUE_KIND_LABELS: Record<DueKind, string> = {
  after_booking: 'days after booking',
  before_departure: 'days before departure',
  fixed_date: 'on a fixed date',
};

export const MAX_INSTALMENTS = 24;
export const INSTALMENT_LABEL_MAX = 60;

/** Decision 006's rule, now the default plan of every trip. */
export const DEFAULT_DEPOSIT_DUE_DAYS = 14;
export const DEFAULT_BALANCE_DAYS_BEFORE_DEPARTURE = 56;

/** A schedule row's state: stored (invoiced, waived) or derived from its invoice and the day (paid, overdue). */
export const SCHEDULE_STATES = ['scheduled', 'invoiced', 'paid', 'overdue', 'waived'] as const;
export type ScheduleState = (typeof SCHEDULE_STATES)[number];
export const SCHEDULE_STATE_LABELS: Record<ScheduleState, string> = {
  scheduled: 'Scheduled',
  invoiced: 'Invoiced',
  paid: 'Paid',
  overdue: 'Overdue',
  waived: 'Waived',
};
