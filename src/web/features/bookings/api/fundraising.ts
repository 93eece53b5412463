import { useQuery } from '@tanstack/react-query';
import type {
  BookingFundraising,
  BookingFundraisingInput,
  FundraisingEntryInput,
} from '../../../../contract/fundraising.ts';
import { api } from '../../../lib/api.ts';
import { bookingKeys } from './bookings.ts';

/** Under the booking's key: an entry added or struck refreshes the booking's history and checks too. */
export const fundraisingKey = (bookingId: number) => [...bookingKeys.one(bookingId), 'fundraising'] as const;
export const useFundraising = (bookingId: number) =>
  useQuery({
    queryKey: fundraisingKey(bookingId),
    queryFn: () => api<BookingFundraising>(`/api/bookings/${bookingId}/fundraising`),
  });

export const updateFundraising = (bookingId: number, body: BookingFundraisingInput) =>
  api<BookingFundraising>(`/api/bookings/${bookingId}/fundraising`, { method: 'PUT', body });
export const addFundraisingEntry = (bookingId: number, body: FundraisingEntryInput) =>
  api<BookingFundraising>(`/api/bookings/${bookingId}/fundraising/entries`, { method: 'POST', body });
export const strikeFundraisingEntry = (entryId: number, reason: string) =>
  api<BookingFundraising>(`/api/fundraising-entries/${entryId}/strike`, { method: 'POST', body: { reason } });
