import { sql } from 'drizzle-orm';
import type { FailedJob, JobsOverview } from '../../contract/jobs.ts';
import type { Db } from '../../db/client.ts';
import { audit } from '../audit/audit.ts';
import { HttpError } from '../errors.ts';
import { JOBS_SCHEMA, type JobQueue } from './queue.ts';

const FAILED_SHOWN = 100;

/** What a failed job said, as text: pg-boss keeps the thrown error (message, stack) as its output. */
function errorText(output: unknown): string {
  if (output && typeof output === 'object') {
    const o = output as { message?: unknown; value?: unknown };
    if (typeof o.message === 'string') return o.message;
    if (typeof o.value === 'string') return o.value;
  }
  return output == null ? 'No error was recorded.' : JSON.stringify(output).slice(0, 500);
}

export class JobsService {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobQueue | undefined,
  ) {}

  private queue(): JobQueue {
    if (!this.jobs) throw new HttpError(503, 'The job queue is not running on this server.');
    return this.jobs;
  }

  async overview(): Promise<JobsOverview> {
    const boss = this.queue().boss;
    const [queues, schedules] = await Promise.all([boss.getQueues(), boss.getSchedules()]);
    const cron = new Map(schedules.map((s) => [s.name, s.cron]));
    type Row = {
      id: string;
      name: string;
      output: unknown;
      retry_count: number;
      created_on: Date | string;
      completed_on: Date | string | null;
    };
    // both drivers answer { rows }
    const { rows } = (await this.db.execute(sql`
      select id, name, output, retry_count, created_on, completed_on
      from ${sql.identifier(JOBS_SCHEMA)}.job
      where state = 'failed'
      order by completed_on desc nulls last
      limit ${FAILED_SHOWN}`)) as unknown as { rows: Row[] };
    const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
    const failed: FailedJob[] = rows.map((j) => ({
      id: j.id,
      queue: j.name,
      error: errorText(j.output),
      attempts: Number(j.retry_count) + 1,
      created_at: iso(j.created_on)!,
      failed_at: iso(j.completed_on),
    }));
    // counted now (pg-boss's own counts are refreshed by its monitor, up to a minute late)
    const counted = (await this.db.execute(sql`
      select name,
        count(*) filter (where state in ('created', 'retry'))::int as queued,
        count(*) filter (where state in ('created', 'retry') and start_after > now())::int as deferred,
        count(*) filter (where state = 'active')::int as active,
        count(*) filter (where state = 'failed')::int as failed
      from ${sql.identifier(JOBS_SCHEMA)}.job
      where state in ('created', 'retry', 'active', 'failed')
      group by name`)) as unknown as {
      rows: Array<{ name: string; queued: number; deferred: number; active: number; failed: number }>;
    };
    const counts = new Map(counted.rows.map((c) => [c.name, c]));
    return {
      queues: queues
        .map((q) => {
          const c = counts.get(q.name);
          return {
            name: q.name,
            queued: c?.queued ?? 0,
            deferred: c?.deferred ?? 0,
            active: c?.active ?? 0,
            failed: c?.failed ?? 0,
            schedule: cron.get(q.name) ?? null,
          };
        })
        .sort((a, b) => a.name.localeCompare(b.name)),
      failed,
    };
  }

  async retry(queue: string, id: string): Promise<{ message: string }> {
    const boss = this.queue().boss;
    const job = await boss.getJobById(queue, id).catch(() => null);
    if (!job || job.state !== 'failed') throw new HttpError(404, 'There is no failed job with that id in that queue.');
    await this.db.transaction(async (tx) => {
      await audit(tx, {
        action: 'job.retried',
        subject: { type: 'job', id },
        summary: `ran the failed ${queue} job again`,
        details: { queue },
      });
    });
    await boss.retry(queue, id);
    return { message: 'The job will run again shortly.' };
  }
}
