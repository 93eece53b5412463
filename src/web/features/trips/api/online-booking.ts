import { useQuery } from '@tanstack/react-query';
import type { OnlineBooking, SaveOnlineBookingInput } from '../../../../contract/online-booking.ts';
import { api } from '../../../lib/api.ts';
import { tripKeys } from './trips.ts';

export const onlineBookingKey = (tripId: number) => [...tripKeys.one(tripId), 'online-booking'] as const;
export const useOnlineBooking = (tripId: number) =>
  useQuery({
    queryKey: onlineBookingKey(tripId),
    queryFn: () => api<OnlineBooking>(`/api/trips/${tripId}/online-booking`),
  });
export const saveOnlineBooking = (tripId: number, body: SaveOnlineBookingInput) =>
  api<OnlineBooking>(`/api/trips/${tripId}/online-booking`, { method: 'PUT', body });

/** The charities a charity trip may offer, by name. */
export const useCharityChoices = (enabled: boolean) =>
  useQuery({
    queryKey: ['charities', 'choices'],
    queryFn: () => api<Array<{ id: number; name: string }>>('/api/charities'),
    enabled,
    staleTime: 60_000,
  });
