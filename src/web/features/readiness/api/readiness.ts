import { useQuery } from '@tanstack/react-query';
import type { TripReadiness } from '../../../../contract/readiness.ts';
import { api } from '../../../lib/api.ts';

export const useTripReadiness = (tripId: number) => useQuery({ queryKey: ['readiness', 'trip', tripId], queryFn: () => api<TripReadiness>(`/api/trips/${tripId}/readiness`) });
