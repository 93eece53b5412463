import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CharityFundraisers } from '../../../../contract/fundraising.ts';
import type { Charity, CreateCharityInput, UpdateCharityInput } from '../../../../contract/charities.ts';
import { api } from '../../../lib/api.ts';

export type CharityFilter = { name: string; type: string };

export const charityKeys = {
  all: ['charities'] as const,
  lists: ['charities', 'list'] as const,
  list: (filter: CharityFilter) => ['charities', 'list', filter] as const,
  one: (id: number) => ['charities', id] as const,
};

export const listCharities = (filter: CharityFilter) => api<Charity[]>('/api/charities', { query: filter });
export const getCharity = (id: number) => api<Charity>(`/api/charities/${id}`);
export const createCharity = (body: CreateCharityInput) => api<Charity>('/api/charities', { method: 'POST', body });
export const updateCharity = (id: number, body: UpdateCharityInput) =>
  api<Charity>(`/api/charities/${id}`, { method: 'PATCH', body });
export const deleteCharity = (id: number) => api<void>(`/api/charities/${id}`, { method: 'DELETE' });
export const deleteCharityLogo = (id: number) => api<Charity>(`/api/charities/${id}/logo`, { method: 'DELETE' });

export function uploadCharityLogo(id: number, file: File) {
  const form = new FormData();
  form.append('charity_id', String(id));
  form.append('charity_logo', file);
  return api<Charity>(`/api/charities/${id}/logo`, { method: 'POST', body: form });
}

export const useCharities = (filter: CharityFilter) =>
  useQuery({
    queryKey: charityKeys.list(filter),
    queryFn: () => listCharities(filter),
    placeholderData: keepPreviousData,
  });

export const useCharity = (id: number) => useQuery({ queryKey: charityKeys.one(id), queryFn: () => getCharity(id) });

export const useCharityFundraisers = (id: number, state: string, page: number) =>
  useQuery({
    queryKey: [...charityKeys.one(id), 'fundraisers', state, page] as const,
    queryFn: () =>
      api<CharityFundraisers>(`/api/charities/${id}/fundraisers`, { query: { ...(state ? { state } : {}), page } }),
    placeholderData: keepPreviousData,
  });
