import { useQuery } from '@tanstack/react-query';
import type { ChaserCheck, ChaserResult } from '../../../../contract/chasers.ts';
import type { TripReadiness } from '../../../../contract/readiness.ts';
import { api } from '../../../lib/api.ts';

export const readinessKey = (tripId: number) => ['readiness', 'trip', tripId] as const;
export const useTripReadiness = (tripId: number) =>
  useQuery({ queryKey: readinessKey(tripId), queryFn: () => api<TripReadiness>(`/api/trips/${tripId}/readiness`) });

export const sendChasers = (v: { tripId: number; bookingIds: number[]; checks: ChaserCheck[] }) =>
  api<ChaserResult>(`/api/trips/${v.tripId}/chasers`, {
    method: 'POST',
    body: { booking_ids: v.bookingIds, checks: v.checks },
  });

export const sendDocuments = (v: { tripId: number; bookingIds: number[] }) =>
  api<ChaserResult>(`/api/trips/${v.tripId}/documents/send`, { method: 'POST', body: { booking_ids: v.bookingIds } });
