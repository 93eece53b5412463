import { useQuery } from '@tanstack/react-query';
import type { BookingSchedule, RemindersSetting, ScheduleRowPatch } from '../../../../contract/schedules.ts';
import { api } from '../../../lib/api.ts';
import { bookingKeys } from './bookings.ts';
import { invoiceChangeKeys } from './invoices.ts';

/** Under the booking's key: an invoice, payment or refund (which invalidate the booking) refresh it too. */
export const scheduleKey = (bookingId: number) => [...bookingKeys.one(bookingId), 'schedule'] as const;

/** enabled: false for a member whose team may not read money (the route answers 403). */
export const useSchedule = (bookingId: number, enabled = true) =>
  useQuery({
    queryKey: scheduleKey(bookingId),
    queryFn: () => api<BookingSchedule>(`/api/bookings/${bookingId}/schedule`),
    enabled,
  });

export const changeScheduleRow = (rowId: number, body: ScheduleRowPatch) =>
  api<BookingSchedule>(`/api/schedule-rows/${rowId}`, { method: 'PATCH', body });
export const rebuildSchedule = (bookingId: number) =>
  api<BookingSchedule>(`/api/bookings/${bookingId}/schedule/rebuild`, { method: 'POST' });
export const sendReminderNow = (bookingId: number) =>
  api<{ message: string }>(`/api/bookings/${bookingId}/reminders`, { method: 'POST' });
export const setBookingReminders = (bookingId: number, body: RemindersSetting) =>
  api<{ message: string }>(`/api/bookings/${bookingId}/reminders`, { method: 'PUT', body });

/**
 * What a change of the schedule makes stale: the schedule, the invoices, and the booking with its
 * History and Emails panels (the schedule's key is under the booking's, so it is in there too).
 */
export const scheduleChangeKeys = invoiceChangeKeys;
