import type { JobDeps, QueueDefinition } from '../../common/jobs.ts';
import { InvoiceService } from '../invoices/service.ts';
import { sendDigest } from './digest.ts';
import { moneyRun } from './money-run.ts';
import { ReminderService } from './reminders.ts';
import { ScheduleService } from './service.ts';

export const BACKFILL_BATCH = 500;

/** The payment schedules' jobs: the hourly money run, the evening digest, and the backfill. */
export function jobs({ db, config, mailer, operator, clock }: JobDeps): QueueDefinition[] {
  const invoices = new InvoiceService(db, operator, mailer);
  const reminders = new ReminderService(db, mailer, operator, clock, config.reminderDays);
  return [
    {
      name: 'money',
      // every hour at five past: invoices at lead time, and their emails in sending hours
      cron: '5 * * * *',
      options: { retryLimit: 2, retryDelay: 300 },
      handler: async () => moneyRun(db, invoices, reminders, clock, config.invoiceLeadDays),
    },
    {
      name: 'money-digest',
      // each evening, after the day's reminders
      cron: '0 18 * * *',
      options: { retryLimit: 2, retryDelay: 600 },
      handler: async () => sendDigest(db, mailer, config.officeEmail, clock),
    },
    {
      // bookings made before payment plans existed get their schedules, a batch per job; a full
      // batch sends the next one. Sent at every start (one job however many servers start).
      name: 'schedule-backfill',
      handler: async (job: { data: { after?: number } }, queue) => {
        const { looked, last } = await new ScheduleService(db, clock).backfill(
          BACKFILL_BATCH,
          job.data.after ?? 0,
          queue.stopping,
        );
        // the next batch starts after this one's last booking, so a booking that gets no schedule
        // (its trip has no price yet) is not looked at again and again; stopped early, the next
        // start picks up where this one left off
        if (looked === BACKFILL_BATCH && !queue.stopping.aborted)
          await queue.send('schedule-backfill', { after: last });
        return { bookings: looked };
      },
    } as QueueDefinition,
  ];
}
