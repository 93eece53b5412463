import path from 'node:path';
import { loadConfig } from '../config.ts';
import { createDb } from '../../db/client.ts';

// npm run db:migrate: the server also migrates at start; this is for deploy pipelines
const config = loadConfig();
const database = await createDb({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
await database.migrate();
await database.close();
console.log('The database is up to date.');
