import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '../../src/db/client.ts';
import { insertUser } from '../../src/db/factories/users.ts';
import { seedDemo } from '../../src/db/seed/demo.ts';
import { buildApp } from '../../src/server/app.ts';
import { startTripdeskJobs, tripdeskQueues } from '../../src/server/jobs/index.ts';
import { TIME_ZONE } from '../../src/server/jobs/queue.ts';
import { loadConfig } from '../../src/server/config.ts';
import { ensureAdministrator } from '../../src/server/modules/auth/service.ts';
import { E2E_USERS } from './users.ts';

// The server the e2e specs drive: a fresh data folder, the demo office, and one account per role.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-e2e-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test', DATABASE_URL: '' });
const database = await createDb({ pgliteDir: path.join(dataDir, 'pglite') });
await database.migrate();
await ensureAdministrator(database.db, { email: E2E_USERS.admin.email, password: E2E_USERS.admin.password });
await seedDemo(database.db, { dataDir });
await insertUser(database.db, { ...E2E_USERS.charity, firstName: 'Carla', lastName: 'Charity', roleId: 2 });
await insertUser(database.db, { ...E2E_USERS.endUser, firstName: 'Evan', lastName: 'Enduser', roleId: 3 });
// The job queue, for /admin/jobs. Tripdesk's own jobs do not run here (they would raise invoices and
// send reminders under the other specs' feet), but their queues and schedules are shown; one queue
// of the specs' own fails its first job, for Retry.
const jobs = await startTripdeskJobs(database, config, false);
for (const queue of tripdeskQueues(database, config)) if (queue.cron) await jobs.boss.schedule(queue.name, queue.cron, null, { tz: TIME_ZONE });
let e2eRuns = 0;
await jobs.boss.createQueue('e2e-flaky', { retryLimit: 0 });
await jobs.boss.work('e2e-flaky', { pollingIntervalSeconds: 1 }, async () => {
  e2eRuns += 1;
  if (e2eRuns === 1) throw new Error('The mail server refused the connection');
});
await jobs.send('e2e-flaky', {});
const app = await buildApp({ config, db: database.db, jobs });
await app.listen({ port: Number(process.env.PORT ?? 3210), host: '127.0.0.1' });
console.log('e2e server ready');
