import type { JobDeps, QueueDefinition } from '../../common/jobs.ts';
import { cardPaymentsFrom } from './service.ts';

/** Card payments that no webhook told of: each hour, every session open for over an hour is asked about. */
export function jobs(d: JobDeps): QueueDefinition[] {
  if (!d.config.stripe) return [];
  const service = cardPaymentsFrom(d);
  return [
    {
      name: 'card-reconcile',
      cron: '17 * * * *',
      options: { retryLimit: 2, retryDelay: 300 },
      handler: async (_job, { stopping }) => service.reconcile(stopping),
    },
  ];
}
