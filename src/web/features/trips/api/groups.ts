import { useQuery } from '@tanstack/react-query';
import type { Group, GroupInput } from '../../../../contract/groups.ts';
import { api } from '../../../lib/api.ts';

export const groupKeys = { ofTrip: (tripId: number) => ['trips', tripId, 'groups'] as const };

export const useGroups = (tripId: number) =>
  useQuery({ queryKey: groupKeys.ofTrip(tripId), queryFn: () => api<Group[]>(`/api/trips/${tripId}/groups`) });
export const addGroup = (tripId: number, body: GroupInput) =>
  api<Group>(`/api/trips/${tripId}/groups`, { method: 'POST', body });
export const updateGroup = (id: number, body: GroupInput) => api<Group>(`/api/groups/${id}`, { method: 'PUT', body });
