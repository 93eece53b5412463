import { useQuery } from '@tanstack/react-query';
import type { Discount, DiscountInput, TripSelectItem } from '../../../../contract/discounts.ts';
import { api } from '../../../lib/api.ts';

export const discountKeys = {
  all: ['discounts'] as const,
  lists: ['discounts', 'list'] as const,
  list: (keyword: string) => ['discounts', 'list', keyword] as const,
  one: (id: number) => ['discounts', id] as const,
};

export const listDiscounts = (keyword: string) => api<Discount[]>('/api/discounts', { query: { keyword } });
export const getDiscount = (id: number) => api<Discount>(`/api/discounts/${id}`);
export const createDiscount = (body: DiscountInput) => api<Discount>('/api/discounts', { method: 'POST', body });
export const updateDiscount = (id: number, body: DiscountInput) =>
  api<Discount>(`/api/discounts/${id}`, { method: 'PATCH', body });
export const deleteDiscount = (id: number) => api<void>(`/api/discounts/${id}`, { method: 'DELETE' });
export const listTripSelect = () => api<TripSelectItem[]>('/api/trips/select');

export const useDiscounts = (keyword: string) =>
  useQuery({ queryKey: discountKeys.list(keyword), queryFn: () => listDiscounts(keyword) });
export const useDiscount = (id: number | null) =>
  useQuery({ queryKey: discountKeys.one(id ?? 0), queryFn: () => getDiscount(id!), enabled: id !== null });
/** The trips to choose from: the trips area's, so only asked for when the member may read trips. */
export const useTripSelect = (enabled = true) =>
  useQuery({ queryKey: ['trips', 'select'], queryFn: listTripSelect, enabled });
