import { createDb } from '../db/client.ts';
import { seedDemo } from '../db/seed/demo.ts';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { ensureAdministrator, purgeExpired } from './modules/auth/service.ts';
import { purgeExpiredOAuth } from './modules/oauth/purge.ts';
import { purgeAuditEvents } from './audit/retention.ts';
import { sweepOrphanFiles } from './files-sweep.ts';
import path from 'node:path';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const started = Date.now();
  const database = await createDb({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
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
  if (config.seedDemo) {
    const seeded = await seedDemo(database.db, { dataDir: config.dataDir });
    if (seeded) console.log(`Loaded the demo office: ${seeded.bookings} bookings on ${seeded.trips} trips.`);
  }
  // expired sessions, old sign-in failures, OAuth rows long expired, history past its retention
  const purgeAll = async () => {
    await purgeExpired(database.db);
    await purgeExpiredOAuth(database.db);
    await purgeAuditEvents(database.db, config.auditRetentionDays);
    // files a crash left behind with no row naming them (an hour old at least)
    const swept = await sweepOrphanFiles(database.db, config.dataDir);
    const n = swept.logos + swept.documents + swept.passports;
    if (n) console.log(`Removed ${n} uploaded file${n === 1 ? '' : 's'} that no record names.`);
  };
  await purgeAll();
  const purge = setInterval(() => purgeAll().catch(() => undefined), 3_600_000);
  purge.unref();

  const app = await buildApp({
    config,
    db: database.db,
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]'],
      serializers: {
        // a signed download address is a credential for an hour: log the path only
        req: (req: { method: string; url: string; id: string }) => ({
          method: req.method,
          url: req.url.startsWith('/files/') ? req.url.split('?')[0] : req.url,
          reqId: req.id,
        }),
      },
    },
  });
  await app.listen({ port: config.port, host: config.host });
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  console.log(
    `Tripdesk is ready at http://${shown}:${config.port} (Node ${process.version}, ${database.kind}, ${Date.now() - started} ms)`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('Tripdesk could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
