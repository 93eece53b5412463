import type { JobDeps, QueueDefinition } from '../../common/jobs.ts';
import { CharitySummary } from './charity-summary.ts';
import { MilestoneChaser } from './milestones.ts';

/** Fundraising's jobs: the milestone chasers and the charities' monthly summaries. */
export function jobs({ db, config, mailer, operator, clock }: JobDeps): QueueDefinition[] {
  const chaser = new MilestoneChaser(db, mailer, operator, config.fundraisingDefaults, clock);
  const summary = new CharitySummary(db, mailer, operator, config.fundraisingDefaults, clock);
  return [
    {
      name: 'fundraising-milestones',
      // every hour at twenty-five past: the milestone chasers, in sending hours (a refused one is tried again next hour)
      cron: '25 * * * *',
      options: { retryLimit: 2, retryDelay: 300 },
      handler: async () => chaser.run(),
    },
    {
      name: 'fundraising-summary',
      // every hour at twenty-five to: the month's summaries go on its first run in sending hours
      cron: '35 * * * *',
      options: { retryLimit: 2, retryDelay: 300 },
      handler: async () => summary.run(),
    },
  ];
}
