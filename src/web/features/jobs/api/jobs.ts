import { useQuery } from '@tanstack/react-query';
import type { JobsOverview } from '../../../../contract/jobs.ts';
import { api } from '../../../lib/api.ts';

export const jobKeys = { overview: ['admin', 'jobs'] as const };

/** how often the open screen counts again */
export const JOBS_REFRESH_MS = 10_000;

export const getJobs = () => api<JobsOverview>('/api/admin/jobs');
export const retryJob = (job: { queue: string; id: string }) =>
  api<{ message: string }>(`/api/admin/jobs/${encodeURIComponent(job.queue)}/${encodeURIComponent(job.id)}/retry`, {
    method: 'POST',
  });

export const useJobs = () =>
  useQuery({
    queryKey: jobKeys.overview,
    queryFn: getJobs,
    refetchInterval: JOBS_REFRESH_MS,
    // a server without a queue says so (503): asking again at once will not change that
    retry: false,
  });
