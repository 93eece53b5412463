import { useQuery } from '@tanstack/react-query';
import type { TripFundraising, TripFundraisingInput } from '../../../../contract/fundraising.ts';
import { api } from '../../../lib/api.ts';
import { tripKeys } from './trips.ts';

export const tripFundraisingKey = (tripId: number) => [...tripKeys.one(tripId), 'fundraising'] as const;
export const useTripFundraising = (tripId: number) =>
  useQuery({
    queryKey: tripFundraisingKey(tripId),
    queryFn: () => api<TripFundraising>(`/api/trips/${tripId}/fundraising`),
  });
export const saveTripFundraising = (tripId: number, body: TripFundraisingInput) =>
  api<TripFundraising>(`/api/trips/${tripId}/fundraising`, { method: 'PUT', body });
