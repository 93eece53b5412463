import { createFileStore } from '../../shared/storage/index.ts';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { ensureAdministrator } from '../modules/auth/service.ts';
import { createDb } from '../../db/client.ts';
import { seedAuditEvents } from '../../db/seed/audit-events.ts';
import { seedDemo } from '../../db/seed/demo.ts';
import { seedFundraising, seedNotes } from '../../db/seed/fundraising-notes.ts';
import { seedMoney } from '../../db/seed/money.ts';
import { seedScale } from '../../db/seed/scale.ts';

/**
 * npm run db:seed                           load the demo office into an empty database
 * npm run db:seed -- --bookings 1000000     then add that many generated bookings and what they
 *                                           would have: schedules, invoices, payments, refunds,
 *                                           reminders, fundraising entries, notes, and three
 *                                           history events a booking (the one data set of every
 *                                           bench: bench/lists.ts)
 * npm run db:seed -- --audit-events 5000000 add that many history events over the last three
 *                                           years instead, about the bookings there are by then
 * Uses the same DATA_DIR / DATABASE_URL as the server; stop the server first when on PGlite.
 */
const { values } = parseArgs({ options: { bookings: { type: 'string' }, 'audit-events': { type: 'string' } } });

function count(option: string, given: string | undefined): number {
  const n = given ? Number(given.replace(/[_,]/g, '')) : 0;
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${option} must be a whole number, e.g. --${option} 1000000`);
    process.exit(1);
  }
  return n;
}
const extra = count('bookings', values.bookings);
const events = values['audit-events'] === undefined ? extra * 3 : count('audit-events', values['audit-events']);

const config = loadConfig();
const database = await createDb({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
await database.migrate();
await ensureAdministrator(database.db, { email: config.adminEmail, password: config.adminPassword });
const files = createFileStore(config.storage);
const demo = await seedDemo(database.db, { dataDir: config.dataDir, files });
files.close();
console.log(
  demo
    ? `Loaded the demo office: ${demo.bookings} bookings on ${demo.trips} trips.`
    : 'The database already holds trips: the demo office was not loaded again.',
);

/** "███░░░ 150,000 / 1,000,000 bookings (12,000/s)", rewritten in place */
function progress(total: number, noun: string) {
  const started = Date.now();
  const width = 30;
  return (done: number, of = total) => {
    const share = done / of;
    const bar = '█'.repeat(Math.round(share * width)).padEnd(width, '░');
    const rate = Math.round(done / Math.max(0.001, (Date.now() - started) / 1000));
    process.stderr.write(
      `\r${bar} ${done.toLocaleString('en-GB')} / ${of.toLocaleString('en-GB')} ${noun} (${rate.toLocaleString('en-GB')}/s)`,
    );
  };
}

if (extra > 0) {
  const started = Date.now();
  await seedScale(database.db, extra, progress(extra, 'bookings'));
  process.stderr.write('\n');
  console.log(`Added ${extra.toLocaleString('en-GB')} bookings in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
// what the generated bookings have (each step fills only the bookings that have none yet)
for (const [noun, step] of [
  ['schedules, invoices, payments and reminders', seedMoney],
  ['fundraising entries', seedFundraising],
  ['notes', seedNotes],
] as const) {
  const started = Date.now();
  const made = await step(database.db, progress(0, `bookings: ${noun}`));
  if (made) {
    process.stderr.write('\n');
    console.log(`Added ${noun} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  }
}
if (events > 0) {
  const started = Date.now();
  await seedAuditEvents(database.db, events, progress(events, 'history events'));
  process.stderr.write('\n');
  console.log(
    `Added ${events.toLocaleString('en-GB')} history events in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
}
await database.close();
