import type { Database } from '../db/client.ts';
import { createFileStore, type FileStore } from '../shared/storage/index.ts';
import { systemClock, type Clock } from './clock.ts';
import type { JobDeps, QueueDefinition } from './common/jobs.ts';
import { operatorOf, type Config } from './config.ts';
import { jobs as housekeeping } from './jobs/housekeeping.ts';
import { startJobQueue } from './jobs/queue.ts';
import { createMailer, type Mailer } from './mail/transport.ts';
import { jobs as cardPayments } from './modules/card-payments/jobs.ts';
import { jobs as chasers } from './modules/chasers/jobs.ts';
import { jobs as fundraising } from './modules/fundraising/jobs.ts';
import { jobs as groups } from './modules/groups/jobs.ts';
import { jobs as onlineBooking } from './modules/online-booking/jobs.ts';
import { jobs as retention } from './modules/retention/jobs.ts';
import { jobs as schedules } from './modules/schedules/jobs.ts';

/*
 * The one place Tripdesk's jobs are gathered: each domain exports its jobs (name, schedule,
 * handler) from its own jobs.ts; no domain imports this file.
 */

/** Every queue Tripdesk runs: each domain's, from its jobs.ts. */
export function tripdeskQueues(
  database: Database,
  config: Config,
  deps: { clock?: Clock; mailer?: Mailer; files?: FileStore } = {},
): QueueDefinition[] {
  const d: JobDeps = {
    db: database.db,
    config,
    operator: operatorOf(config),
    mailer: deps.mailer ?? createMailer(config),
    clock: deps.clock ?? systemClock,
    files: deps.files ?? createFileStore(config.storage),
  };
  return [housekeeping, schedules, retention, chasers, fundraising, cardPayments, onlineBooking, groups].flatMap(
    (jobs) => jobs(d),
  );
}

/**
 * The job queue of a server (work = WORKERS) or of the worker process (work = true); `mailer`:
 * how its jobs send email (counted, in main.ts); `files`: the process's one file store.
 */
export function startTripdeskJobs(
  database: Database,
  config: Config,
  work: boolean,
  deps: { clock?: Clock; mailer?: Mailer; files?: FileStore } = {},
) {
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
