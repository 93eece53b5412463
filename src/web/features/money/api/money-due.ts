import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TripSelectItem } from '../../../../contract/discounts.ts';
import type { BulkReminderResult } from '../../../../contract/email-templates.ts';
import type { MoneyDuePage, MoneyDueQuery, RefundsDue } from '../../../../contract/money-due.ts';
import { api } from '../../../lib/api.ts';

export const moneyDueKeys = { all: ['money-due'] as const, list: (q: MoneyDueQuery) => ['money-due', q] as const };

export const useMoneyDue = (query: MoneyDueQuery) =>
  useQuery({
    queryKey: moneyDueKeys.list(query),
    queryFn: () => api<MoneyDuePage>('/api/money-due', { query }),
    placeholderData: keepPreviousData,
  });

/** Every trip, by name, for the trip filter (the same list the booking and discount screens use). */
export const useTripOptions = (enabled = true) =>
  useQuery({
    queryKey: ['trips', 'select'],
    queryFn: () => api<TripSelectItem[]>('/api/trips/select'),
    enabled,
    staleTime: 60_000,
  });

/** "Send reminder now" for the bookings of the ticked rows. */
export const sendReminders = (bookingIds: number[]) =>
  api<BulkReminderResult>('/api/reminders', { method: 'POST', body: { booking_ids: bookingIds } });

/** Overpaid invoices: the refunds the office owes. */
export const useRefundsDue = () =>
  useQuery({ queryKey: [...moneyDueKeys.all, 'refunds'], queryFn: () => api<RefundsDue>('/api/money-due/refunds') });
