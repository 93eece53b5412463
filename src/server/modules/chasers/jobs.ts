import type { JobDeps, QueueDefinition } from '../../common/jobs.ts';
import { ChaserService } from './service.ts';

/** The passport and forms chasers. */
export function jobs({ db, config, mailer, operator, clock }: JobDeps): QueueDefinition[] {
  const service = new ChaserService(db, mailer, operator, config.fundraisingDefaults, clock);
  return [
    {
      name: 'chasers',
      // every hour at twenty past: the day's passport and forms chasers, in sending hours (a refused one is tried again next hour)
      cron: '20 * * * *',
      options: { retryLimit: 2, retryDelay: 300 },
      handler: async () => service.run(),
    },
  ];
}
