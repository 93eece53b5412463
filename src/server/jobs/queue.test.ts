import { TestClock } from 'pg-boss';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { createTestDatabase } from '../../../tests/support/test-app.ts';
import { startJobQueue, type JobQueue } from './queue.ts';

const until = async (check: () => Promise<boolean> | boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('the job queue', () => {
  let database: Database;
  const queues: JobQueue[] = [];
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    for (const q of queues.splice(0)) await q.stop(1000);
    await database.close();
  });

  it('works a job once, retries a failing one, then keeps it as failed with its error', async () => {
    const seen: string[] = [];
    let attempts = 0;
    const q = await startJobQueue({
      database,
      work: true,
      pollingIntervalSeconds: 0.5,
      queues: [
        { name: 'test-ok', handler: async (job) => void seen.push((job.data as { n: string }).n) },
        {
          name: 'test-fail',
          options: { retryLimit: 1, retryDelay: 0, retryBackoff: false },
          handler: async () => {
            attempts += 1;
            throw new Error('the SMTP server said no');
          },
        },
      ],
    });
    queues.push(q);
    await q.send('test-ok', { n: 'a' });
    const failing = await q.send('test-fail', {});
    await until(() => seen.length === 1);
    await until(async () => (await q.boss.getJobById('test-fail', failing!))?.state === 'failed');
    expect(seen).toEqual(['a']);
    expect(attempts).toBe(2);
    const job = await q.boss.getJobById('test-fail', failing!);
    expect(JSON.stringify(job?.output)).toContain('the SMTP server said no');
  });

  it('a web-only server sends jobs that a worker then works', async () => {
    const seen: number[] = [];
    const web = await startJobQueue({
      database,
      work: false,
      queues: [
        {
          name: 'test-split',
          handler: async () => {
            throw new Error('a web-only server must not work jobs');
          },
        },
      ],
    });
    queues.push(web);
    await web.send('test-split', { n: 1 });
    await new Promise((r) => setTimeout(r, 300));
    const worker = await startJobQueue({
      database,
      work: true,
      pollingIntervalSeconds: 0.5,
      queues: [{ name: 'test-split', handler: async (job) => void seen.push((job.data as { n: number }).n) }],
    });
    queues.push(worker);
    await until(() => seen.length === 1);
    expect(seen).toEqual([1]);
  });

  it('runs a schedule when the injected clock reaches it', async () => {
    const clock = new TestClock('2030-03-04T08:59:30Z');
    const runs: number[] = [];
    const q = await startJobQueue({
      database,
      work: true,
      clock,
      pollingIntervalSeconds: 0.5,
      queues: [{ name: 'test-cron', cron: '0 9 * * *', handler: async () => void runs.push(clock.now()) }],
    });
    queues.push(q);
    expect(runs).toEqual([]);
    await clock.tick(5 * 60_000);
    await until(() => runs.length === 1);
  });

  it('a graceful stop lets the job in hand finish', async () => {
    let started = false;
    let finished = false;
    const q = await startJobQueue({
      database,
      work: true,
      pollingIntervalSeconds: 0.5,
      queues: [
        {
          name: 'test-slow',
          handler: async () => {
            started = true;
            await new Promise((r) => setTimeout(r, 800));
            finished = true;
          },
        },
      ],
    });
    const id = await q.send('test-slow', {});
    await until(() => started);
    await q.stop(5000);
    expect(finished).toBe(true);
    const check = await startJobQueue({ database, work: false, queues: [] });
    queues.push(check);
    expect((await check.boss.getJobById('test-slow', id!))?.state).toBe('completed');
  });
});
