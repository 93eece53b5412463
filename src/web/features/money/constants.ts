import type { AgeBucket } from '../../../contract/money-due.ts';

// The contract's values, kept here so /money does not load zod to know them (money-due.ts is a
// zod module); constants.test.ts checks they are the contract's own.
export const AGE_BUCKETS: readonly AgeBucket[] = ['not_due', 'days_1_30', 'days_31_60', 'days_61_90', 'days_90_plus'];
export const AGE_BUCKET_LABELS: Record<AgeBucket, string> = {
  not_due: 'Not yet due',
  days_1_30: '1–30 days overdue',
  days_31_60: '31–60 days overdue',
  days_61_90: '61–90 days overdue',
  days_90_plus: 'Over 90 days overdue',
};
export const MONEY_DUE_SORTS = ['due_date', 'days_overdue', 'outstanding', 'departure', 'traveller', 'trip', 'last_reminder'] as const;
export type MoneyDueSort = (typeof MONEY_DUE_SORTS)[number];
export const DUE_WITHIN_MAX = 3650;
