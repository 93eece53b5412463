// The dashboard's one call on a large office: p50/p95 of GET /api/dashboard through the
// real route, for the default season (the next 12 months) and a narrow one, with a million
// bookings and their invoices and payments. Budget: p95 under 150 ms on PostgreSQL.
//   DATABASE_URL=postgresql://… npx tsx bench/dashboard.ts [--bookings 1000000] [--runs 20] [--keep]
// Uses the PostgreSQL server of DATABASE_URL (a database tripdesk_bench of its own, shared with
// bench/bookings-list.ts: with --keep an already seeded one is reused) or PGlite in a temporary
// folder. Prints tables; asserts nothing.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { addDays, ukToday } from '../src/contract/dates.ts';
import { createDb, queryRows } from '../src/db/client.ts';
import { insertUser } from '../src/db/factories/users.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { GENERATED_REFS, seedScale } from '../src/db/seed/scale.ts';
import { buildApp } from '../src/server/app.ts';
import { testConfig, TestClient } from '../tests/support/test-app.ts';

const { values } = parseArgs({
  options: {
    bookings: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
  },
});
const total = Number(values.bookings);
const runs = Number(values.runs);
const url = process.env.DATABASE_URL;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-bench-'));

let databaseUrl: string | undefined;
let admin: pg.Client | undefined;
if (url) {
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const exists = (await admin.query(`select 1 from pg_database where datname = 'tripdesk_bench'`)).rowCount;
  if (!values.keep || !exists) {
    await admin.query('DROP DATABASE IF EXISTS tripdesk_bench WITH (FORCE)');
    await admin.query('CREATE DATABASE tripdesk_bench');
  }
  const u = new URL(url);
  u.pathname = '/tripdesk_bench';
  databaseUrl = u.toString();
}
const database = await createDb(databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, 'pglite') });
await database.migrate();
const db = database.db;
const [seeded] = await queryRows<{ n: number }>(
  db,
  sql`select count(*)::int as n from bookings where ref like ${GENERATED_REFS}`,
);
if (Number(seeded?.n ?? 0) < total) {
  await seedDemo(db, { dataDir });
  const started = Date.now();
  const missing = total - Number(seeded?.n ?? 0);
  await seedScale(db, missing, (done) =>
    process.stderr.write(`\rseeding bookings ${done.toLocaleString('en-GB')} / ${missing.toLocaleString('en-GB')}`),
  );
  process.stderr.write(`\nseeded in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

// their invoices: a deposit invoice for each booking that is not cancelled and has paid its
// deposit, dated the day it was made, and its payment; made in batches by id so that the
// money_owed triggers rebuild a batch at a time
const [invoiced] = await queryRows<{ n: number }>(
  db,
  sql`select count(*)::int as n from invoices where invoice_ref like 'TDSI%'`,
);
if (!Number(invoiced?.n ?? 0)) {
  const [range] = await queryRows<{ lo: number; hi: number }>(
    db,
    sql`select min(id)::int as lo, max(id)::int as hi from bookings where ref like ${GENERATED_REFS}`,
  );
  const started = Date.now();
  for (let lo = Number(range!.lo); lo <= Number(range!.hi); lo += 50_000) {
    const hi = lo + 49_999;
    await db.execute(sql`
      insert into invoices (booking_id, invoice_ref, type, description, invoice_date, due_date, created_at)
      select b.id, 'TDSI' || b.id, 'deposit', 'Deposit', (b.created_at at time zone 'Europe/London')::date, (b.created_at at time zone 'Europe/London')::date + 14, b.created_at
      from bookings b where b.ref like ${GENERATED_REFS} and b.id between ${lo} and ${hi} and b.status <> 'cancelled' and b.deposit_payment_date is not null`);
    await db.execute(sql`
      insert into invoice_items (invoice_id, description, amount_pence)
      select i.id, 'Deposit', 25000 + (i.booking_id % 4) * 5000 from invoices i where i.invoice_ref like 'TDSI%' and i.booking_id between ${lo} and ${hi}`);
    // four in five paid, by card or transfer
    await db.execute(sql`
      insert into transactions (booking_id, invoice_id, invoice_type, amount_pence, type, processor, date)
      select i.booking_id, i.id, 'deposit', ii.amount_pence, 'payment', case when i.booking_id % 2 = 0 then 'STRIPE' else 'BACS' end, i.invoice_date + 3
      from invoices i join invoice_items ii on ii.invoice_id = i.id where i.invoice_ref like 'TDSI%' and i.booking_id between ${lo} and ${hi} and i.booking_id % 5 <> 0`);
    process.stderr.write(`\rinvoicing bookings up to ${hi.toLocaleString('en-GB')}`);
  }
  process.stderr.write(`\ninvoiced in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  await db.execute(sql`vacuum analyze`);
}
const counts = (
  await queryRows<{ bookings: number; invoices: number; transactions: number; owed: number }>(
    db,
    sql`select (select count(*) from bookings)::int as bookings, (select count(*) from invoices)::int as invoices, (select count(*) from transactions)::int as transactions, (select count(*) from money_owed)::int as owed`,
  )
)[0]!;

const email = `bench-${Date.now()}@example.test`;
await insertUser(db, { email, password: 'bench-password-123', roleId: 1 });
const app = await buildApp({ config: testConfig(dataDir), db });
await app.ready();
const client = new TestClient(app);
await client.login(email, 'bench-password-123');

const today = ukToday(new Date());
const scenarios: Array<[string, string]> = [
  ['default season (next 12 months)', ''],
  ['one month', `?from=${addDays(today, 30)}&to=${addDays(today, 60)}`],
  ['last year', `?from=${addDays(today, -365)}&to=${today}`],
];
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const f1 = (n: number) => n.toFixed(1).padStart(8);
console.log(
  `\n${database.kind}: ${counts.bookings.toLocaleString('en-GB')} bookings, ${counts.invoices.toLocaleString('en-GB')} invoices, ${counts.transactions.toLocaleString('en-GB')} transactions, ${counts.owed.toLocaleString('en-GB')} money_owed entries; ${runs} runs each after 2 warm-up runs\n`,
);
console.log('| season                           |   p50 ms |   p95 ms |');
console.log('|----------------------------------|----------|----------|');
for (const [name, query] of scenarios) {
  const times: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const t0 = performance.now();
    const res = await client.get(`/api/dashboard${query}`);
    const ms = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    if (i >= 2) times.push(ms);
  }
  times.sort((a, b) => a - b);
  console.log(`| ${name.padEnd(32)} | ${f1(pct(times, 50))} | ${f1(pct(times, 95))} |`);
}
await app.close();
await database.close();
await admin?.end();
