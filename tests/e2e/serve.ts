import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createDb } from '../../src/db/client.ts';
import { insertUser } from '../../src/db/factories/users.ts';
import { seedDemo } from '../../src/db/seed/demo.ts';
import { buildApp } from '../../src/server/app.ts';
import { startTripdeskJobs, tripdeskQueues } from '../../src/server/job-registry.ts';
import { TIME_ZONE } from '../../src/server/jobs/queue.ts';
import { loadConfig, operatorOf } from '../../src/server/config.ts';
import { ensureAdministrator } from '../../src/server/modules/auth/service.ts';
import { InvoiceService } from '../../src/server/modules/invoices/service.ts';
import { moneyRun } from '../../src/server/modules/schedules/money-run.ts';
import { ReminderService } from '../../src/server/modules/schedules/reminders.ts';
import { createMailer } from '../../src/server/mail/transport.ts';
import { startStripeStandIn } from '../support/stripe-stand-in.ts';
import { E2E_USERS } from './users.ts';

// The server the e2e specs drive: a fresh data folder, the demo office, and one account per role.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-e2e-'));
const port = Number(process.env.PORT ?? 3210);
// card payments go to the stand-in Stripe, whose payment page sends its events back to this server
const stripe = await startStripeStandIn({ webhookUrl: `http://127.0.0.1:${port}/webhooks/stripe` });
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  NODE_ENV: 'test',
  DATABASE_URL: '',
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
  STRIPE_API_BASE: stripe.url,
  PUBLIC_URL: `http://127.0.0.1:${port}`,
});
const database = await createDb({ pgliteDir: path.join(dataDir, 'pglite') });
await database.migrate();
await ensureAdministrator(database.db, { email: E2E_USERS.admin.email, password: E2E_USERS.admin.password });
await seedDemo(database.db, { dataDir });
await insertUser(database.db, { ...E2E_USERS.charity, firstName: 'Carla', lastName: 'Charity', roleId: 2 });
await insertUser(database.db, { ...E2E_USERS.endUser, firstName: 'Evan', lastName: 'Enduser', roleId: 3 });
await insertUser(database.db, { ...E2E_USERS.partner, firstName: 'Pat', lastName: 'Partner', roleId: 2 });
// The job queue, for /admin/jobs. Tripdesk's own jobs do not run here (they would raise invoices and
// send reminders under the other specs' feet), but their queues and schedules are shown; one queue
// of the specs' own fails its first job, for Retry.
const jobs = await startTripdeskJobs(database, config, false);
for (const queue of tripdeskQueues(database, config))
  if (queue.cron) await jobs.boss.schedule(queue.name, queue.cron, null, { tz: TIME_ZONE });
let e2eRuns = 0;
await jobs.boss.createQueue('e2e-flaky', { retryLimit: 0 });
await jobs.boss.work('e2e-flaky', { pollingIntervalSeconds: 1 }, async () => {
  e2eRuns += 1;
  if (e2eRuns === 1) throw new Error('The mail server refused the connection');
});
await jobs.send('e2e-flaky', {});
const app = await buildApp({ config, db: database.db, jobs });
await app.listen({ port, host: '127.0.0.1' });

// The specs' own control, on the next port: POST /money-run {"at": ISO time} runs the money job as
// if it were that moment (the clock moved for the job, not under the other specs), and
// GET /mail?to=address gives the last email written to an address. Not part of Tripdesk: only this
// harness listens there.
const operator = operatorOf(config);
const mailer = createMailer(config);
const control = http.createServer(async (req, res) => {
  // GET /mail?to=address: the last email written to that address (no mail server here: .eml files)
  if (req.method === 'GET' && req.url?.startsWith('/mail?')) {
    const to = new URL(req.url, 'http://control').searchParams.get('to') ?? '';
    const dir = path.join(dataDir, 'mail');
    const last = (existsSync(dir) ? readdirSync(dir).sort().reverse() : [])
      .map((file) => readFileSync(path.join(dir, file), 'utf8'))
      .find((text) => to && text.includes(`<${to}>`));
    res.statusCode = last ? 200 : 404;
    res.end(last ?? '');
    return;
  }
  if (req.method !== 'POST' || req.url !== '/money-run') {
    res.statusCode = 404;
    res.end();
    return;
  }
  let body = '';
  for await (const chunk of req) body += String(chunk);
  const at = new Date((JSON.parse(body) as { at: string }).at);
  const clock = { now: () => at.getTime() };
  try {
    const result = await moneyRun(
      database.db,
      new InvoiceService(database.db, operator, mailer),
      new ReminderService(database.db, mailer, operator, clock, config.reminderDays),
      clock,
      config.invoiceLeadDays,
    );
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(result));
  } catch (error) {
    res.statusCode = 500;
    res.end(String(error));
  }
});
control.listen(Number(process.env.PORT ?? 3210) + 1, '127.0.0.1');
console.log('e2e server ready');
