// How long a Stripe webhook takes to apply on a large office (budget, DESIGN.md: a payment
// recorded with its rollups and History in ≤ 50 ms p95 at 1,000,000 bookings on PostgreSQL):
// p50/p95/max of POST /webhooks/stripe for `checkout.session.completed`, each a new payment on its
// own invoice (the payment, the money-due rebuild, the dashboard rollups, refunds due, the History
// and the receipt email), then the same events delivered again (found applied, nothing written).
//   npx tsx bench/stripe-webhook.ts [--bookings 1000000] [--runs 200] [--keep]
// Uses PGlite in a temporary folder, or the PostgreSQL server of DATABASE_URL (a database
// tripdesk_bench_webhook of its own, dropped unless --keep, which also reuses a seeded one).
// Stripe is the tests' stand-in; the receipts are written as .eml files. Prints a table.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { createDb, queryRows } from '../src/db/client.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { GENERATED_REFS, seedScale } from '../src/db/seed/scale.ts';
import { buildApp } from '../src/server/app.ts';
import { startStripeStandIn, type StandInSession } from '../tests/support/stripe-stand-in.ts';
import { testConfig } from '../tests/support/test-app.ts';

const { values } = parseArgs({
  options: {
    bookings: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '200' },
    keep: { type: 'boolean', default: false },
  },
});
const total = Number(values.bookings.replace(/[_,]/g, ''));
const runs = Number(values.runs);
const url = process.env.DATABASE_URL;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-bench-webhook-'));
const DB_NAME = 'tripdesk_bench_webhook';

let databaseUrl: string | undefined;
let dropDb = async () => {};
if (url) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const exists = (await admin.query(`select 1 from pg_database where datname = '${DB_NAME}'`)).rowCount;
  if (!values.keep || !exists) {
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DB_NAME}`);
  }
  const u = new URL(url);
  u.pathname = `/${DB_NAME}`;
  databaseUrl = u.toString();
  dropDb = async () => {
    if (!values.keep) await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin.end();
  };
}
const database = await createDb(databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, 'pglite') });
await database.migrate();
const [seeded] = await queryRows<{ n: number }>(
  database.db,
  sql`select count(*)::int as n from bookings where ref like ${GENERATED_REFS}`,
);
if (Number(seeded?.n ?? 0) < total) {
  await seedDemo(database.db, { dataDir });
  const started = Date.now();
  const missing = total - Number(seeded?.n ?? 0);
  await seedScale(database.db, missing, (done) =>
    process.stderr.write(`\rseeding ${done.toLocaleString('en-GB')} / ${missing.toLocaleString('en-GB')}`),
  );
  process.stderr.write(`\nseeded in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}
await database.db.execute(sql`analyze`);

// one deposit invoice of £300 on each of `runs` generated bookings that are not cancelled, spread over the office
const stamp = Date.now().toString(36);
const picked = await queryRows<{ id: number }>(
  database.db,
  sql`select id from bookings where ref like ${GENERATED_REFS} and status <> 'cancelled' order by hashint4(id::int + ${Number(stamp.length)}) limit ${runs}`,
);
const invoiceIds: number[] = [];
for (const [i, b] of picked.entries()) {
  const [inv] = await queryRows<{ id: number }>(
    database.db,
    sql`insert into invoices (booking_id, invoice_date, due_date, type, invoice_ref, description) values (${b.id}, current_date, current_date + 14, 'deposit', ${`BENCH-${stamp}-${i}`}, 'Deposit') returning id`,
  );
  await database.db.execute(
    sql`insert into invoice_items (invoice_id, description, amount_pence, sort_order) values (${inv!.id}, 'Deposit', 30000, 0)`,
  );
  invoiceIds.push(inv!.id);
}

const stripe = await startStripeStandIn();
const config = testConfig(dataDir, {
  stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.url },
  publicUrl: 'http://bench.test',
});
const app = await buildApp({ config, db: database.db });
await app.ready();

// a paid session for each invoice, as Stripe reports it (the session row as Tripdesk made it)
const sessions: StandInSession[] = [];
for (const [i, invoiceId] of invoiceIds.entries()) {
  const id = `cs_test_bench_${stamp}_${i}`;
  const session: StandInSession = {
    id,
    object: 'checkout.session',
    mode: 'payment',
    status: 'complete',
    payment_status: 'paid',
    amount_total: 30000,
    currency: 'gbp',
    metadata: { invoice_id: String(invoiceId), booking_id: String(picked[i]!.id) },
    client_reference_id: null,
    payment_intent: `pi_test_bench_${stamp}_${i}`,
    success_url: '',
    cancel_url: '',
    url: null,
    created: Math.floor(Date.now() / 1000),
    expires_at: Math.floor(Date.now() / 1000) + 86_400,
    livemode: false,
    product_name: 'Deposit',
  };
  await database.db.execute(
    sql`insert into card_checkouts (id, invoice_id, booking_id, amount_pence) values (${id}, ${invoiceId}, ${picked[i]!.id}, 30000)`,
  );
  sessions.push(session);
}
const events = sessions.map((s) => stripe.signed(stripe.event('checkout.session.completed', s)));

const deliver = async (signed: { payload: string; header: string }) => {
  const started = process.hrtime.bigint();
  const res = await app.inject({
    method: 'POST',
    url: '/webhooks/stripe',
    payload: signed.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return { ms, outcome: (res.json() as { outcome: string }).outcome };
};
const summary = (name: string, times: number[], outcomes: string[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const kinds = [...new Set(outcomes)].join(', ');
  console.log(
    `| ${name.padEnd(44)} | ${String(times.length).padStart(4)} | ${at(0.5).toFixed(1).padStart(6)} | ${at(0.95).toFixed(1).padStart(6)} | ${sorted.at(-1)!.toFixed(1).padStart(7)} | ${kinds}`,
  );
};

// a few first, to warm the connections and the plans
for (const e of events.slice(0, 3)) await deliver(e);
const first = [];
for (const e of events.slice(3)) first.push(await deliver(e));
const again = [];
for (const e of events.slice(3)) again.push(await deliver(e));

const [count] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from bookings`);
console.log(
  `\n${Number(count!.n).toLocaleString('en-GB')} bookings, ${database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}; ms per webhook through app.inject\n`,
);
console.log('| event                                        | runs |    p50 |    p95 |     max | outcome');
console.log('|----------------------------------------------|------|--------|--------|---------|--------');
summary(
  'checkout.session.completed, a new payment',
  first.map((r) => r.ms),
  first.map((r) => r.outcome),
);
summary(
  'the same events delivered again',
  again.map((r) => r.ms),
  again.map((r) => r.outcome),
);

await app.close();
await stripe.close();
await database.close();
await dropDb();
rmSync(dataDir, { recursive: true, force: true });
