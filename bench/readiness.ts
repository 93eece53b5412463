// Readiness board speed ("the readiness endpoint on a trip of 500 bookings under 100 ms"):
// p50/p95 of GET /api/trips/{id}/readiness and of one booking's GET /api/bookings/{id}/readiness,
// through the real routes (app.inject, signed in as an administrator).
//   npx tsx bench/readiness.ts [--travellers 500] [--bookings 0] [--runs 30]
// Uses PGlite in a temporary folder, or the PostgreSQL server of DATABASE_URL (it makes a database
// tripdesk_bench_readiness of its own there and drops it). The office: the demo office,
// --bookings generated bookings spread over its trips (seedScale), and one trip of --travellers
// bookings with a mix of every check's states: passports missing, short for the destination or
// fine, forms and trip questions, next of kin, rooms with sharers, invoices paid, unpaid and overdue.
// Prints a table; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { addDays, ukToday } from '../src/contract/dates.ts';
import { createDb, queryRows } from '../src/db/client.ts';
import { insertUser } from '../src/db/factories/users.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { seedScale } from '../src/db/seed/scale.ts';
import { buildApp } from '../src/server/app.ts';
import { testConfig, TestClient } from '../tests/support/test-app.ts';

const { values } = parseArgs({
  options: {
    travellers: { type: 'string', default: '500' },
    bookings: { type: 'string', default: '0' },
    runs: { type: 'string', default: '30' },
  },
});
const travellers = Number(values.travellers);
const extra = Number(values.bookings.replace(/[_,]/g, ''));
const runs = Number(values.runs);
const url = process.env.DATABASE_URL;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-bench-readiness-'));
const DB_NAME = 'tripdesk_bench_readiness';

let dropDb: (() => Promise<void>) | undefined;
let databaseUrl: string | undefined;
if (url) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const u = new URL(url);
  u.pathname = `/${DB_NAME}`;
  databaseUrl = u.toString();
  dropDb = async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.end();
  };
}
const database = await createDb(databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, 'pglite') });
const db = database.db;
await database.migrate();
await seedDemo(db, { dataDir });
if (extra > 0)
  await seedScale(db, extra, (done) =>
    process.stderr.write(`\rseeding bookings ${done.toLocaleString('en-GB')} / ${extra.toLocaleString('en-GB')}`),
  );

// the trip: to Peru (6 months after the return), departing in 40 days (what is to do is red)
const today = ukToday();
const [peru] = await queryRows<{ id: number }>(db, sql`select id from countries where code = 'PE'`);
const [trip] = await queryRows<{ id: number }>(
  db,
  sql`insert into trips (name, country_id, departure_date, return_date, type, level, status, deposit_pence, cost_pence, require_passport, funding)
      values ('Readiness Bench Trek', ${peru!.id}, ${addDays(today, 40)}, ${addDays(today, 52)}, 'charity', 2, 'open', 20000, 150000, true, 'both') returning id`,
);
const tripId = trip!.id;
await db.execute(
  sql`insert into trip_custom_fields (trip_id, label) values (${tripId}, 'T-shirt size'), (${tripId}, 'Dietary needs'), (${tripId}, 'Emergency phone')`,
);
await db.execute(sql`
  insert into bookings (ref, trip_id, status, title, first_name, last_name, email, form_complete, passport_expiry_date, passport_image_file,
    medical_conditions, medical_detail, nok_name, nok_telephone, room_type, share_with, created_at)
  select 'RB-' || g, ${tripId}, case when g % 9 = 0 then 'provisional' else 'confirmed' end, 'Ms', 'Tra' || g, 'Veller' || g, 'rb' || g || '@example.test',
    g % 5 <> 0,
    case when g % 11 = 0 then null when g % 7 = 0 then ${addDays(today, 60)}::date else ${addDays(today, 1200)}::date end,
    case when g % 4 = 0 then null else 'passport-' || g || '.jpg' end,
    g % 13 = 0, case when g % 26 = 0 then 'Asthma' end,
    case when g % 17 = 0 then null else 'Kin ' || g end, case when g % 19 = 0 then null else '07700 900' || lpad((g % 1000)::text, 3, '0') end,
    case when g % 23 = 0 then null else 'Twin' end,
    case when g % 2 = 0 then 'Tra' || (g - 1) || ' Veller' || (g - 1) when g % 3 = 0 then 'Tra' || (g + 1) || ' Veller' || (g + 1) end,
    now() - interval '30 days'
  from generate_series(1, ${travellers}) g`);
await db.execute(sql`
  insert into booking_custom_field_answers (booking_id, custom_field_id, answer)
  select b.id, f.id, 'M' from bookings b join trip_custom_fields f on f.trip_id = b.trip_id
  where b.trip_id = ${tripId} and (b.id + f.id) % 6 <> 0`);
// a deposit invoice each (most paid), and a balance invoice for half (some overdue)
await db.execute(sql`
  insert into invoices (booking_id, invoice_ref, type, description, invoice_date, due_date)
  select b.id, 'RB-D-' || b.id, 'deposit', 'Deposit', ${addDays(today, -30)}::date, ${addDays(today, -16)}::date from bookings b where b.trip_id = ${tripId}
  union all
  select b.id, 'RB-B-' || b.id, 'balance', 'Balance', ${addDays(today, -20)}::date, case when b.id % 3 = 0 then ${addDays(today, -16)}::date else ${addDays(today, 10)}::date end
  from bookings b where b.trip_id = ${tripId} and b.id % 2 = 0`);
await db.execute(sql`
  insert into invoice_items (invoice_id, description, amount_pence)
  select i.id, i.description, case when i.type = 'deposit' then 20000 else 130000 end from invoices i join bookings b on b.id = i.booking_id where b.trip_id = ${tripId}`);
await db.execute(sql`
  insert into transactions (booking_id, invoice_id, invoice_type, amount_pence, type, processor, date)
  select i.booking_id, i.id, i.type, 20000, 'payment', 'BACS', ${addDays(today, -20)}::date
  from invoices i join bookings b on b.id = i.booking_id where b.trip_id = ${tripId} and i.type = 'deposit' and b.id % 8 <> 0`);
for (const table of [
  'bookings',
  'invoices',
  'invoice_items',
  'transactions',
  'money_owed',
  'booking_custom_field_answers',
])
  await db.execute(sql.raw(`analyze ${table}`));

const email = `bench-${Date.now()}@example.test`;
await insertUser(db, { email, password: 'bench-password-123', roleId: 1 });
const app = await buildApp({ config: testConfig(dataDir), db });
await app.ready();
const client = new TestClient(app);
await client.login(email, 'bench-password-123');
const [one] = await queryRows<{ id: number }>(
  db,
  sql`select id from bookings where trip_id = ${tripId} order by id limit 1 offset 7`,
);

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const scenarios: Array<[string, string]> = [
  [`trip board (${travellers} travellers)`, `/api/trips/${tripId}/readiness`],
  ['one booking', `/api/bookings/${one!.id}/readiness`],
];
const [counts] = await queryRows<{ bookings: number }>(db, sql`select count(*)::int as bookings from bookings`);
console.log(
  `\n${database.kind}, ${counts!.bookings.toLocaleString('en-GB')} bookings in all; ${runs} runs each (after 3 warm-up runs)\n`,
);
console.log('| request                          | p50 ms | p95 ms | ready / rows |');
console.log('|----------------------------------|--------|--------|--------------|');
for (const [name, target] of scenarios) {
  const times: number[] = [];
  let shown = '';
  for (let i = 0; i < runs + 3; i++) {
    const t0 = performance.now();
    const res = await client.get(target);
    const ms = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
    const body = res.json() as { summary?: { ready: number; bookings: number }; ready?: boolean };
    shown = body.summary ? `${body.summary.ready} / ${body.summary.bookings}` : String(body.ready);
    if (i >= 3) times.push(ms);
  }
  times.sort((a, b) => a - b);
  console.log(
    `| ${name.padEnd(32)} | ${pct(times, 50).toFixed(1).padStart(6)} | ${pct(times, 95).toFixed(1).padStart(6)} | ${shown.padStart(12)} |`,
  );
}

await app.close();
await database.close();
await dropDb?.();
rmSync(dataDir, { recursive: true, force: true });
