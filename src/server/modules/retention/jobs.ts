import type { JobDeps, QueueDefinition } from '../../common/jobs.ts';
import { RetentionService } from './service.ts';

/** Erasure after return: each night, by one worker however many servers run. */
export function jobs({ db, config, files, clock }: JobDeps): QueueDefinition[] {
  return [
    {
      name: 'retention',
      cron: '30 2 * * *',
      // a run that fails is simply the next night's work; each booking is erased at most once
      options: { retryLimit: 2, retryDelay: 600 },
      handler: async () => new RetentionService(db, files, config.retentionDaysAfterReturn, clock).run(),
    },
  ];
}
