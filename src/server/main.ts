import { createFileStore } from '../shared/storage/index.ts';
import { createDb } from '../db/client.ts';
import { seedDemo } from '../db/seed/demo.ts';
import { embeddedTemplateFile } from '../db/template.ts';
import { buildApp } from './app.ts';
import { ensureAdministrator } from './modules/auth/service.ts';
import { startTripdeskJobs } from './job-registry.ts';
import { createMailer } from './mail/transport.ts';
import { createMetrics } from './ops/metrics.ts';
import { configOrExit, onStopSignals } from './ops/process.ts';
import { loggableUrl } from './ops/request-log.ts';
import { shutDown } from './ops/shutdown.ts';
import path from 'node:path';

async function main() {
  const config = configOrExit();
  const started = Date.now();
  const database = await createDb({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
    // a new data folder starts from the migrated copy `npm install` made
    template: config.databaseUrl ? undefined : embeddedTemplateFile(),
  });
  await database.migrate();

  const admin = await ensureAdministrator(database.db, { email: config.adminEmail, password: config.adminPassword });
  if (admin.created && admin.generatedPassword) {
    // printed once, to the console only (never the log stream), and never stored in clear
    console.log(
      `\nTripdesk made the first Administrator account:\n  email:    ${admin.email}\n  password: ${admin.generatedPassword}\n` +
        'Keep it safe: it is not shown again. Set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own.\n',
    );
  }
  // the process's one file store (for S3, one client and its connections), closed last
  const files = createFileStore(config.storage);
  if (config.seedDemo) {
    const seeded = await seedDemo(database.db, { dataDir: config.dataDir, files });
    if (seeded) console.log(`Loaded the demo office: ${seeded.bookings} bookings on ${seeded.trips} trips.`);
  }
  // what /metrics reports, made first so that the email the jobs send is counted too
  const metrics = createMetrics({ db: database.db });
  // the job queue: this server works it too unless WORKERS=0 (then `npm run worker` does)
  const jobs = await startTripdeskJobs(database, config, config.workers, {
    mailer: metrics.countMail(createMailer(config)),
    files,
  });
  // housekeeping once at start (one job, however many servers start together), then hourly
  await jobs.send('housekeeping', {}, { singletonKey: 'startup', singletonSeconds: 300 });
  // bookings made before payment plans existed get their schedules
  await jobs.send('schedule-backfill', {}, { singletonKey: 'startup', singletonSeconds: 300 });

  const app = await buildApp({
    config,
    db: database.db,
    jobs,
    metrics,
    files,
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]'],
      serializers: {
        // a signed download address, a sign-in link and a pay link are credentials: never logged whole
        req: (req: { method: string; url: string; id: string }) => ({
          method: req.method,
          url: loggableUrl(req.url),
          reqId: req.id,
        }),
      },
    },
  });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  // PORT=0 asks the system for a free port: say the one we got
  const port = address && typeof address === 'object' ? address.port : config.port;
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  console.log(
    `Tripdesk is ready at http://${shown}:${port} (Node ${process.version}, ${database.kind}, ${config.workers ? 'with workers' : 'web only'}, ${Date.now() - started} ms)`,
  );

  // stop listening at once, let the requests and the job in hand finish within
  // SHUTDOWN_GRACE_SECONDS, then close the database
  onStopSignals(config.shutdownGraceSeconds, async (signal) => {
    app.log.info({ signal, graceSeconds: config.shutdownGraceSeconds }, 'shutting down');
    console.log(
      `Tripdesk is stopping (${signal}): finishing the requests and the job in hand (up to ${config.shutdownGraceSeconds} s)`,
    );
    const code = await shutDown({
      app,
      jobs,
      database,
      graceMs: config.shutdownGraceSeconds * 1000,
      log: (message) => app.log.warn(message),
      onStoppedListening: () => console.log('Tripdesk no longer accepts connections'),
    });
    files.close();
    console.log(`Tripdesk stopped${code ? ' (something had to be cut short)' : ''}`);
    return code;
  });
}

main().catch((error: unknown) => {
  console.error('Tripdesk could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
