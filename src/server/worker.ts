import { createDb } from '../db/client.ts';
import { createFileStore } from '../shared/storage/index.ts';
import { startTripdeskJobs } from './job-registry.ts';
import { configOrExit, onStopSignals } from './ops/process.ts';
import { shutDown } from './ops/shutdown.ts';

/**
 * `npm run worker`: a process that only works the job queue, beside web-only servers
 * (WORKERS=0). It needs PostgreSQL: the embedded database belongs to one process, so with it
 * the workers run inside `npm start`.
 */
async function main() {
  const config = configOrExit();
  if (!config.databaseUrl) {
    console.error(
      'npm run worker needs a PostgreSQL server (DATABASE_URL). With the embedded database, the workers run inside npm start (WORKERS=1).',
    );
    process.exit(1);
  }
  const database = await createDb({ databaseUrl: config.databaseUrl });
  await database.migrate();
  const files = createFileStore(config.storage);
  const jobs = await startTripdeskJobs(database, config, true, { files });
  console.log(`Tripdesk worker is ready (Node ${process.version}, postgres)`);

  onStopSignals(config.shutdownGraceSeconds, async (signal) => {
    console.log(
      `Tripdesk worker stopping (${signal}): finishing the job in hand (up to ${config.shutdownGraceSeconds} s)`,
    );
    const code = await shutDown({
      jobs,
      database,
      graceMs: config.shutdownGraceSeconds * 1000,
      log: (message) => console.error(message),
    });
    files.close();
    return code;
  });
}

main().catch((error: unknown) => {
  console.error('The Tripdesk worker could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
