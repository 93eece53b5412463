import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  BookingDetail,
  BookingListQuery,
  BookingPage,
  UpdateBookingInput,
} from '../../../../contract/bookings.ts';
import type { TripSelectItem } from '../../../../contract/discounts.ts';
import { api } from '../../../lib/api.ts';

export const bookingKeys = {
  all: ['bookings'] as const,
  lists: ['bookings', 'list'] as const,
  list: (q: BookingListQuery) => ['bookings', 'list', q] as const,
  one: (id: number) => ['bookings', id] as const,
  /**
   * The History panel's pages: historyKey(bookingKeys.one(id)) of components/history-panel.tsx,
   * spelt out so that the booking list does not load the panel.
   */
  history: (id: number) => ['bookings', id, 'history'] as const,
};

export const listBookings = (q: BookingListQuery) =>
  api<BookingPage>('/api/bookings', { query: q as Record<string, unknown> });
export const getBooking = (id: number) => api<BookingDetail>(`/api/bookings/${id}`);
export const updateBooking = (id: number, body: UpdateBookingInput) =>
  api<BookingDetail>(`/api/bookings/${id}`, { method: 'PATCH', body });

export const useBookings = (q: BookingListQuery) =>
  useQuery({ queryKey: bookingKeys.list(q), queryFn: () => listBookings(q), placeholderData: keepPreviousData });
export const useBooking = (id: number) => useQuery({ queryKey: bookingKeys.one(id), queryFn: () => getBooking(id) });
/** enabled: false for a member whose team may not read trips (the route answers 403). */
export const useTripOptions = (enabled = true) =>
  useQuery({
    queryKey: ['trips', 'select'],
    queryFn: () => api<TripSelectItem[]>('/api/trips/select'),
    staleTime: 60_000,
    enabled,
  });
