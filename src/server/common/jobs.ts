import type { Job, QueueOptions, SendOptions } from 'pg-boss';
import type { Db } from '../../db/client.ts';
import type { FileStore } from '../../shared/storage/index.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Mailer } from './mailer.ts';
import type { Operator } from './operator.ts';

/** Queues a job: its id, or null when a singleton of it is already waiting. */
export type SendJob = <T extends object>(name: string, data: T, options?: SendOptions) => Promise<string | null>;

/**
 * One of the queues Tripdesk runs, with its retry rules and, for a periodic one, its schedule.
 * Each domain makes its own in its `jobs.ts`; `job-registry.ts` gathers them.
 */
export type QueueDefinition<T extends object = object> = {
  name: string;
  /** cron (UK time) for a periodic job; one run per slot however many servers run workers */
  cron?: string;
  options?: QueueOptions;
  /**
   * `send` queues a follow-up job (the next batch); `stopping` is aborted when the process is
   * asked to stop: a handler that works through many items checks it between them and leaves
   * the rest to the next start rather than holding the shutdown up.
   */
  handler: (job: Job<T>, queue: { send: SendJob; stopping: AbortSignal }) => Promise<unknown>;
};

/** What a domain's jobs are made from: the same for every domain. */
export type JobDeps = { db: Db; config: Config; mailer: Mailer; operator: Operator; clock: Clock; files: FileStore };
