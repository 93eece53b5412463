import { useQuery } from '@tanstack/react-query';
import type { Overview } from '../../../../contract/overview.ts';
import { api } from '../../../lib/api.ts';

export const getOverview = () => api<Overview>('/api/overview');

export const useOverview = () => useQuery({ queryKey: ['overview'], queryFn: getOverview });
