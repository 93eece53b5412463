import type { JobDeps, QueueDefinition } from '../../common/jobs.ts';
import { sendCardPaymentsReport } from './nightly-report.ts';
import { cardPaymentsFrom } from './service.ts';

/**
 * Card payments that no webhook told of: each hour, every session open for over an hour is
 * asked about. Each morning, yesterday's card payments to the office.
 */
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
    {
      name: 'card-payments-report',
      cron: '10 6 * * *',
      options: { retryLimit: 3, retryDelay: 600 },
      handler: async () => sendCardPaymentsReport(d.db, d.mailer, d.config.officeEmail, d.clock),
    },
  ];
}
