import { z } from 'zod';

// ---- operating it: what the load balancer and the orchestrator ask ----

export const healthSchema = z.object({ status: z.literal('ok') });

export const readinessCheckSchema = z.object({
  status: z.enum(['ok', 'failed']),
  /** why it failed, or a detail worth seeing (never a secret) */
  detail: z.string().optional(),
});

export const readinessChecksSchema = z.object({
  database: readinessCheckSchema,
  migrations: readinessCheckSchema,
  storage: readinessCheckSchema,
});
export type ReadinessChecks = z.infer<typeof readinessChecksSchema>;

export const readySchema = z.object({ status: z.literal('ready'), checks: readinessChecksSchema });
export const notReadySchema = z.object({
  status: z.literal('not_ready'),
  /** names the parts that failed, e.g. "Not ready: database, storage" */
  message: z.string(),
  checks: readinessChecksSchema,
});
export type Readiness = z.infer<typeof readySchema> | z.infer<typeof notReadySchema>;
