import type { Database } from '../../db/client.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { scheduleBackfillQueue } from '../modules/schedules/jobs.ts';
import { moneyQueue } from '../modules/schedules/money-job.ts';
import { ReminderService } from '../modules/schedules/reminders.ts';
import { digestQueue } from '../modules/schedules/digest.ts';
import { InvoiceService } from '../modules/invoices/service.ts';
import { createMailer, type Mailer } from '../mail.ts';
import { systemClock } from '../clock.ts';
import { retentionQueue } from '../modules/retention/jobs.ts';
import { chaserQueue } from '../modules/chasers/jobs.ts';
import { MilestoneChaser, milestoneQueue } from '../modules/fundraising/milestone-job.ts';
import { CharitySummary, summaryQueue } from '../modules/fundraising/summary-job.ts';
import { ChaserService } from '../modules/chasers/service.ts';
import { housekeepingQueue } from './housekeeping.ts';
import { createFileStore, type FileStore } from '../../shared/storage/index.ts';
import { startJobQueue, type QueueDefinition } from './queue.ts';

/** Every queue Tripdesk runs. */
export function tripdeskQueues(database: Database, config: Config, deps: { clock?: Clock; mailer?: Mailer; files?: FileStore } = {}): QueueDefinition[] {
  const operator = { name: config.operatorName, address: config.operatorAddress };
  const mailer = deps.mailer ?? createMailer(config);
  const clock = deps.clock ?? systemClock;
  const files = deps.files ?? createFileStore(config.storage);
  const invoices = new InvoiceService(database.db, operator, mailer);
  const reminders = new ReminderService(database.db, mailer, operator, clock, config.reminderDays);
  return [
    housekeepingQueue(database.db, config, files),
    scheduleBackfillQueue(database.db),
    moneyQueue(database.db, invoices, reminders, clock, config.invoiceLeadDays),
    digestQueue(database.db, mailer, config.officeEmail, clock),
    retentionQueue(database.db, files, config.retentionDaysAfterReturn, clock),
    chaserQueue(new ChaserService(database.db, mailer, operator, config.fundraisingDefaults, clock)),
    milestoneQueue(new MilestoneChaser(database.db, mailer, operator, config.fundraisingDefaults, clock)),
    summaryQueue(new CharitySummary(database.db, mailer, operator, config.fundraisingDefaults, clock)),
  ];
}

/**
 * The job queue of a server (work = WORKERS) or of the worker process (work = true); `mailer`:
 * how its jobs send email (counted, in main.ts); `files`: the process's one file store.
 */
export function startTripdeskJobs(database: Database, config: Config, work: boolean, deps: { clock?: Clock; mailer?: Mailer; files?: FileStore } = {}) {
  const { clock } = deps;
  return startJobQueue({
    database,
    work,
    queues: tripdeskQueues(database, config, deps),
    ...(clock ? { clock } : {}),
    // the embedded database is in this process: looking often costs nothing
    pollingIntervalSeconds: database.kind === 'pglite' ? 1 : 2,
  });
}
