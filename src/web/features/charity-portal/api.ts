import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  CharityEntryInput,
  CharityNoteInput,
  PortalFundraiser,
  PortalFundraisers,
} from '../../../contract/fundraising.ts';
import { api, withQuery } from '../../lib/api.ts';

export type PortalFilter = { trip_id: string; state: string };

export const portalKeys = {
  all: ['charity-portal'] as const,
  list: (filter: PortalFilter) => ['charity-portal', 'list', filter] as const,
  one: (bookingId: number) => ['charity-portal', 'fundraiser', bookingId] as const,
};

const query = (filter: PortalFilter) => Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== ''));

export const usePortalFundraisers = (filter: PortalFilter, page: number) =>
  useQuery({
    queryKey: [...portalKeys.list(filter), page] as const,
    queryFn: () => api<PortalFundraisers>('/api/charity/fundraisers', { query: { ...query(filter), page } }),
    placeholderData: keepPreviousData,
    retry: false,
  });

export const usePortalFundraiser = (bookingId: number) =>
  useQuery({
    queryKey: portalKeys.one(bookingId),
    queryFn: () => api<PortalFundraiser>(`/api/charity/fundraisers/${bookingId}`),
  });

/** The list as an .xlsx: a plain link, so the browser downloads it. */
export const downloadUrl = (filter: PortalFilter) =>
  withQuery('/api/charity/fundraisers', { ...query(filter), format: 'xlsx' });

export const acknowledge = (bookingId: number) =>
  api<PortalFundraiser>(`/api/charity/fundraisers/${bookingId}/acknowledge`, { method: 'POST' });
export const addEntry = (bookingId: number, body: CharityEntryInput) =>
  api<PortalFundraiser>(`/api/charity/fundraisers/${bookingId}/entries`, { method: 'POST', body });
export const addNote = (bookingId: number, body: CharityNoteInput) =>
  api<PortalFundraiser>(`/api/charity/fundraisers/${bookingId}/notes`, { method: 'POST', body });
