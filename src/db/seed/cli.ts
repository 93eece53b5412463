import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../server/config.ts';
import { ensureAdministrator } from '../../server/modules/auth/service.ts';
import { createDb } from '../client.ts';
import { seedDemo } from './demo.ts';
import { seedScale } from './scale.ts';

/**
 * npm run db:seed                      load the demo office into an empty database
 * npm run db:seed -- --bookings 1000000  then add that many generated bookings (benchmarks)
 * Uses the same DATA_DIR / DATABASE_URL as the server; stop the server first when on PGlite.
 */
const { values } = parseArgs({ options: { bookings: { type: 'string' } } });
const extra = values.bookings ? Number(values.bookings.replace(/_/g, '')) : 0;
if (!Number.isInteger(extra) || extra < 0) {
  console.error('--bookings must be a whole number, e.g. --bookings 1000000');
  process.exit(1);
}

const config = loadConfig();
const database = await createDb({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
await database.migrate();
await ensureAdministrator(database.db, { email: config.adminEmail, password: config.adminPassword });
const demo = await seedDemo(database.db, { dataDir: config.dataDir });
console.log(demo ? `Loaded the demo office: ${demo.bookings} bookings on ${demo.trips} trips.` : 'The database already holds trips: the demo office was not loaded again.');

if (extra > 0) {
  const started = Date.now();
  const width = 30;
  await seedScale(database.db, extra, (done) => {
    const share = done / extra;
    const bar = '█'.repeat(Math.round(share * width)).padEnd(width, '░');
    const rate = Math.round(done / Math.max(0.001, (Date.now() - started) / 1000));
    process.stderr.write(`\r${bar} ${done.toLocaleString('en-GB')} / ${extra.toLocaleString('en-GB')} bookings (${rate.toLocaleString('en-GB')}/s)`);
  });
  process.stderr.write('\n');
  console.log(`Added ${extra.toLocaleString('en-GB')} bookings in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
await database.close();
