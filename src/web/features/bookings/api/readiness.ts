import { useQuery } from '@tanstack/react-query';
import type { ReadinessRow } from '../../../../contract/readiness.ts';
import { api } from '../../../lib/api.ts';
import { bookingKeys } from './bookings.ts';

/** Under the booking's key: a change of the booking (its passport, room, next of kin, a payment) refreshes its checks. */
export const useBookingReadiness = (bookingId: number) =>
  useQuery({
    queryKey: [...bookingKeys.one(bookingId), 'readiness'],
    queryFn: () => api<ReadinessRow>(`/api/bookings/${bookingId}/readiness`),
  });

/** "Send automatic chasers" for this booking (the passport and forms chasers of). */
export const setChasers = (bookingId: number, v: { send: boolean; reason?: string }) =>
  api<{ message: string }>(`/api/bookings/${bookingId}/chasers`, { method: 'PUT', body: v });
