import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Dashboard } from '../../../../contract/dashboard.ts';
import { api } from '../../../lib/api.ts';

export type Season = { from: string; to: string };

/** The dashboard's numbers for a season (empty: the server's default, the next 12 months). */
export const useDashboard = (season: Season) =>
  useQuery({
    queryKey: ['dashboard', season],
    queryFn: () => api<Dashboard>('/api/dashboard', { query: { from: season.from, to: season.to } }),
    placeholderData: keepPreviousData,
    retry: false,
  });
