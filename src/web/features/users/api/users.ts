import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Paged } from '../../../../contract/common.ts';
import type { CreatedUser, CreateUserInput, UpdateUserInput, User } from '../../../../contract/users.ts';
import { api } from '../../../lib/api.ts';

export const userKeys = {
  all: ['users'] as const,
  lists: ['users', 'list'] as const,
  list: (page: number, search: string) => ['users', 'list', page, search] as const,
  one: (id: number) => ['users', id] as const,
};

export const listUsers = (page: number, search: string) => api<Paged<User>>('/api/users', { query: { page, search } });
export const getUser = (id: number) => api<User>(`/api/users/${id}`);
export const createUser = (body: CreateUserInput) => api<CreatedUser>('/api/users', { method: 'POST', body });
export const updateUser = (body: UpdateUserInput) => api<User>('/api/users/update', { method: 'PATCH', body });
export const deleteUser = (id: number) => api<void>(`/api/users/${id}`, { method: 'DELETE' });

export const useUsers = (page: number, search: string) =>
  useQuery({
    queryKey: userKeys.list(page, search),
    queryFn: () => listUsers(page, search),
    placeholderData: keepPreviousData,
  });
export const useUser = (id: number) => useQuery({ queryKey: userKeys.one(id), queryFn: () => getUser(id) });

/** The charities a Charity user can be linked to, by name. */
export const useCharityChoices = (enabled: boolean) =>
  useQuery({
    queryKey: ['charities', 'choices'],
    queryFn: () => api<Array<{ id: number; name: string }>>('/api/charities'),
    enabled,
    staleTime: 60_000,
  });
