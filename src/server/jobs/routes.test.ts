import { eq, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, sessions } from '../../db/schema/index.ts';
import { createTestApp, type TestApp, type TestClient } from '../../../tests/support/test-app.ts';
import { jobs as housekeeping } from './housekeeping.ts';
import { createFileStore } from '../../shared/storage/index.ts';

const until = async (check: () => Promise<boolean> | boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('/api/admin/jobs', () => {
  let t: TestApp;
  let admin: TestClient;
  let failNext = true;
  let runs = 0;
  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        queues: (database, config) => [
          ...housekeeping({ db: database.db, config, files: createFileStore(config.storage) }),
          {
            name: 'test-flaky',
            options: { retryLimit: 0 },
            handler: async () => {
              runs += 1;
              if (failNext) throw new Error('The mail server refused the connection');
            },
          },
        ],
      },
    );
    admin = await t.signedIn(1);
  });
  afterAll(() => t.close());

  it('shows each queue with its counts and schedule, and a failed job with its error but not its data', async () => {
    const id = await t.jobs!.send('test-flaky', { email: 'traveller@example.test' });
    await until(async () => (await t.jobs!.boss.getJobById('test-flaky', id!))?.state === 'failed');
    const res = await admin.get('/api/admin/jobs');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.queues.find((q: { name: string }) => q.name === 'housekeeping')).toMatchObject({
      schedule: '17 * * * *',
    });
    expect(body.queues.find((q: { name: string }) => q.name === 'test-flaky')).toMatchObject({
      failed: 1,
      schedule: null,
    });
    expect(body.failed).toEqual([
      expect.objectContaining({
        id,
        queue: 'test-flaky',
        error: 'The mail server refused the connection',
        attempts: 1,
      }),
    ]);
    expect(res.body).not.toContain('traveller@example.test');
  });

  it('Retry runs a failed job again, as an event in the history', async () => {
    const [failed] = (await admin.get('/api/admin/jobs')).json().failed;
    failNext = false;
    const before = runs;
    const res = await admin.post(`/api/admin/jobs/test-flaky/${failed.id}/retry`);
    expect(res.statusCode).toBe(200);
    await until(async () => (await t.jobs!.boss.getJobById('test-flaky', failed.id))?.state === 'completed');
    expect(runs).toBe(before + 1);
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'job.retried'));
    expect(event?.subjectId).toBe(failed.id);
    // a job that has not failed (any more) cannot be retried
    expect((await admin.post(`/api/admin/jobs/test-flaky/${failed.id}/retry`)).statusCode).toBe(404);
    expect((await admin.post('/api/admin/jobs/test-flaky/not-a-uuid/retry')).statusCode).toBe(422);
  });

  it('is for Administrators only', async () => {
    for (const role of [2, 3]) {
      const other = await t.signedIn(role);
      expect((await other.get('/api/admin/jobs')).statusCode).toBe(403);
    }
    expect((await t.client().get('/api/admin/jobs')).statusCode).toBe(401);
  });

  it('the hourly housekeeping job removes expired sessions, as the system', async () => {
    await t.db
      .insert(sessions)
      .values({ id: 'stale-session', userId: null, data: {}, expiresAt: new Date(Date.now() - 60_000) });
    const id = await t.jobs!.send('housekeeping', {});
    await until(async () => (await t.jobs!.boss.getJobById('housekeeping', id!))?.state === 'completed');
    expect(await t.db.select().from(sessions).where(lt(sessions.expiresAt, new Date()))).toEqual([]);
  });
});

describe('/api/admin/jobs without a job queue', () => {
  it('says the queue is not running on this server', async () => {
    const t = await createTestApp();
    const res = await (await t.signedIn(1)).get('/api/admin/jobs');
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toBe('The job queue is not running on this server.');
    await t.close();
  });
});
