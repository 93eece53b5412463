import { createDb } from '../db/client.ts';
import { createFileStore } from '../shared/storage/index.ts';
import { ConfigError, loadConfig } from './config.ts';
import { startTripdeskJobs } from './job-registry.ts';
import { shutDown } from './ops/shutdown.ts';

/**
 * `npm run worker`: a process that only works the job queue, beside web-only servers
 * (WORKERS=0). It needs PostgreSQL: the embedded database belongs to one process, so with it
 * the workers run inside `npm start`.
 */
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
  if (!config.databaseUrl) {
    console.error('npm run worker needs a PostgreSQL server (DATABASE_URL). With the embedded database, the workers run inside npm start (WORKERS=1).');
    process.exit(1);
  }
  const database = await createDb({ databaseUrl: config.databaseUrl });
  await database.migrate();
  const files = createFileStore(config.storage);
  const jobs = await startTripdeskJobs(database, config, true, { files });
  console.log(`Tripdesk worker is ready (Node ${process.version}, postgres)`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Tripdesk worker stopping (${signal}): finishing the job in hand (up to ${config.shutdownGraceSeconds} s)`);
    const graceMs = config.shutdownGraceSeconds * 1000;
    // the last resort, should stopping itself hang
    setTimeout(() => process.exit(1), graceMs + 5_000).unref();
    const code = await shutDown({ jobs, database, graceMs, log: (message) => console.error(message) });
    files.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error('The Tripdesk worker could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
