import { fromPglite, PgBoss, type Job } from 'pg-boss';
import type { QueueDefinition, SendJob } from '../common/jobs.ts';
import type { Database } from '../../db/client.ts';
import { asSystem } from '../audit/audit.ts';
import type { Clock } from '../clock.ts';

export type { QueueDefinition } from '../common/jobs.ts';

export type JobQueue = {
  boss: PgBoss;
  /** whether this process works the queues (WORKERS=1, npm run worker) or only sends jobs */
  working: boolean;
  send: SendJob;
  /** finishes the job in hand (up to `timeoutMs`), then stops taking new ones */
  stop(timeoutMs?: number): Promise<void>;
};

/** the schema pg-boss keeps its tables in, next to ours */
export const JOBS_SCHEMA = 'pgboss';
export const TIME_ZONE = 'Europe/London';

type Options = {
  database: Pick<Database, 'connection' | 'kind'>;
  queues: QueueDefinition[];
  /** run workers and schedules here (WORKERS=1), or only send jobs (WORKERS=0) */
  work: boolean;
  clock?: Clock;
  /** how often an idle worker looks for new jobs; tests and the embedded database poll faster */
  pollingIntervalSeconds?: number;
  onError?: (error: Error) => void;
};

/**
 * The durable job queue (decision 011): pg-boss, in the same database as the data,
 * on PostgreSQL or on the embedded database through pg-boss's own PGlite adapter.
 */
export async function startJobQueue(o: Options): Promise<JobQueue> {
  const connection =
    'pglite' in o.database.connection
      ? { db: fromPglite(o.database.connection.pglite), backend: 'pglite' as const }
      : { connectionString: o.database.connection.connectionString, max: 4 };
  const boss = new PgBoss({
    ...connection,
    schema: JOBS_SCHEMA,
    ...(o.clock ? { clock: o.clock } : {}),
    // a web-only server sends jobs; it neither supervises the queues nor runs the schedules
    supervise: o.work,
    schedule: o.work,
  });
  boss.on('error', (error) => (o.onError ?? ((e: Error) => console.error('job queue:', e.message)))(error));
  await boss.start();
  for (const queue of o.queues) {
    await boss.createQueue(queue.name, {
      retryLimit: 3,
      retryDelay: 30,
      retryBackoff: true,
      expireInSeconds: 300,
      ...queue.options,
    });
  }
  const send: JobQueue['send'] = (name, data, options) =>
    options ? boss.send(name, data, options) : boss.send(name, data);
  const stopping = new AbortController();
  if (o.work) {
    for (const queue of o.queues) {
      await boss.work(
        queue.name,
        { pollingIntervalSeconds: o.pollingIntervalSeconds ?? 2, batchSize: 1 },
        async ([job]) =>
          asSystem(queue.name, () => queue.handler(job as Job<object>, { send, stopping: stopping.signal })),
      );
      if (queue.cron) await boss.schedule(queue.name, queue.cron, null, { tz: TIME_ZONE });
      else await boss.unschedule(queue.name).catch(() => undefined);
    }
  }
  return {
    boss,
    working: o.work,
    send,
    stop: (timeoutMs = 10_000) => {
      stopping.abort();
      return boss.stop({ graceful: true, timeout: timeoutMs, close: true });
    },
  };
}
