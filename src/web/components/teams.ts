import { useQuery } from '@tanstack/react-query';
import type { Team } from '../../contract/teams.ts';
import { api } from '../lib/api.ts';

/** Teams with their permissions and members (issue 36): the teams page and the user form's Team select. */
export const TEAMS_KEY = ['teams'] as const;
export const useTeams = (enabled = true) =>
  useQuery({ queryKey: TEAMS_KEY, queryFn: () => api<Team[]>('/api/teams'), enabled, staleTime: 30_000 });
