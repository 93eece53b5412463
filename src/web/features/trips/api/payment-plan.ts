import { useQuery } from '@tanstack/react-query';
import type { PaymentPlan, PaymentPlanInput, RemindersSetting } from '../../../../contract/schedules.ts';
import { api } from '../../../lib/api.ts';
import { tripKeys } from './trips.ts';

/** Under the trip's key: a change of the trip (its cost, deposit, departure) refreshes the preview. */
export const planKey = (tripId: number) => [...tripKeys.one(tripId), 'payment-plan'] as const;

export const usePaymentPlan = (tripId: number) =>
  useQuery({ queryKey: planKey(tripId), queryFn: () => api<PaymentPlan>(`/api/trips/${tripId}/payment-plan`) });
export const savePaymentPlan = (tripId: number, body: PaymentPlanInput) =>
  api<PaymentPlan>(`/api/trips/${tripId}/payment-plan`, { method: 'PUT', body });
export const setTripReminders = (tripId: number, body: RemindersSetting) =>
  api<{ message: string }>(`/api/trips/${tripId}/reminders`, { method: 'PUT', body });
