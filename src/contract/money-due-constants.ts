// The money-due list's values, without zod: the /money screen imports them without
// loading the contract's schemas (decision 005), and money-due.ts builds its schemas from them.

export const MONEY_DUE_SORTS = [
  'due_date',
  'days_overdue',
  'outstanding',
  'departure',
  'traveller',
  'trip',
  'last_reminder',
] as const;
export type MoneyDueSort = (typeof MONEY_DUE_SORTS)[number];
export const AGE_BUCKETS = ['not_due', 'days_1_30', 'days_31_60', 'days_61_90', 'days_90_plus'] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];
export const AGE_BUCKET_LABELS: Record<AgeBucket, string> = {
  not_due: 'Not yet due',
  days_1_30: '1–30 days overdue',
  days_31_60: '31–60 days overdue',
  days_61_90: '61–90 days overdue',
  days_90_plus: 'Over 90 days overdue',
};
export const MONEY_DUE_PER_PAGE = 25;
/** "due within N days": at most ten years */
export const DUE_WITHIN_MAX = 3650;
