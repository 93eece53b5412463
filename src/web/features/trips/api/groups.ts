import { useQuery } from '@tanstack/react-query';
import type { Group, GroupInput, GroupInvoice, GroupPayment, GroupPaymentInput } from '../../../../contract/groups.ts';
import { api } from '../../../lib/api.ts';

export const groupKeys = { ofTrip: (tripId: number) => ['trips', tripId, 'groups'] as const };

export const useGroups = (tripId: number) =>
  useQuery({ queryKey: groupKeys.ofTrip(tripId), queryFn: () => api<Group[]>(`/api/trips/${tripId}/groups`) });
export const addGroup = (tripId: number, body: GroupInput) =>
  api<Group>(`/api/trips/${tripId}/groups`, { method: 'POST', body });
export const updateGroup = (id: number, body: GroupInput) => api<Group>(`/api/groups/${id}`, { method: 'PUT', body });

export const groupInvoiceKey = (groupId: number) => ['groups', groupId, 'invoice'] as const;
export const useGroupInvoice = (groupId: number) =>
  useQuery({
    queryKey: groupInvoiceKey(groupId),
    queryFn: () => api<GroupInvoice | null>(`/api/groups/${groupId}/invoice`),
  });
export const recordGroupPayment = (groupId: number, body: GroupPaymentInput) =>
  api<GroupPayment>(`/api/groups/${groupId}/payments`, { method: 'POST', body });
