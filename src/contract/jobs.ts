import { z } from 'zod';

// ---- the job queue, for Administrators (/admin/jobs) ----

export const jobQueueSchema = z.object({
  name: z.string(),
  /** waiting, of which `deferred` wait for a later time */
  queued: z.number().int(),
  deferred: z.number().int(),
  active: z.number().int(),
  failed: z.number().int(),
  /** for a periodic queue, its schedule (cron, UK time) */
  schedule: z.string().nullable(),
});

export const failedJobSchema = z.object({
  id: z.string(),
  queue: z.string(),
  /** what the last attempt said; never the job's data, which may name a traveller */
  error: z.string(),
  attempts: z.number().int(),
  created_at: z.string(),
  failed_at: z.string().nullable(),
});

export const jobsOverviewSchema = z.object({
  /** whether any process works the queues (a worker reported in the last minutes) */
  queues: z.array(jobQueueSchema),
  failed: z.array(failedJobSchema),
});
export type JobsOverview = z.infer<typeof jobsOverviewSchema>;
export type FailedJob = z.infer<typeof failedJobSchema>;

export const jobParams = z.object({
  queue: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9-]+$/, { error: 'There is no such queue.' }),
  id: z.uuid({ error: 'There is no such job.' }),
});
