// Money due speed on a large office ("p95 under 50 ms for the first page"): p50/p95 of
// GET /api/money-due's first page, each filter, each sort and a deep page, through the real route
// (app.inject, signed in as an administrator), beside each SQL statement the route sent, run bare.
//   npx tsx bench/money-due.ts [--bookings 1000000] [--runs 30] [--warmup 2] [--no-bare] [--keep] [--dir D] [--explain] [--only NAME]
// Uses PGlite in a temporary folder (or --dir, kept), or the PostgreSQL server of DATABASE_URL
// (it makes a database tripdesk_bench_money_due of its own there and drops it unless --keep).
// With --keep (or --dir) an already seeded database is reused, so a second run skips the seeding.
// The office: the demo office, `seedScale`'s generated bookings, and for each generated booking
// its schedule (deposit + balance, monthly instalments on school trips), its invoices (most
// instalments due within INVOICE_LEAD_DAYS invoiced; most paid, some part paid, some not), their
// payments, refunds and struck-out entries, and the reminders of the last two months — made
// inside the database in batches (see seedMoney). Prints tables; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { createDb, pgliteExtensions, queryRows } from '../src/db/client.ts';
import { insertUser } from '../src/db/factories/users.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { seedMoney } from '../src/db/seed/money.ts';
import { GENERATED_REFS, seedScale } from '../src/db/seed/scale.ts';
import { buildApp } from '../src/server/app.ts';
import { testConfig, TestClient } from '../tests/support/test-app.ts';

const { values } = parseArgs({
  options: {
    bookings: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '2' },
    // --no-bare: do not run the route's statements again bare (halves a slow run)
    bare: { type: 'boolean', default: true },
    keep: { type: 'boolean', default: false },
    dir: { type: 'string' },
    explain: { type: 'boolean', default: false },
    // only the scenarios whose name contains this
    only: { type: 'string' },
  },
  allowNegative: true,
});
const wantedBookings = Number(values.bookings.replace(/[_,]/g, ''));
const runs = Number(values.runs);
const warmup = Number(values.warmup);
const url = process.env.DATABASE_URL;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-bench-money-due-'));
const DB_NAME = 'tripdesk_bench_money_due';

// ---- the SQL the route sends, recorded so that it can be run bare ----
type Statement = { text: string; values: unknown[] };
let recording: Statement[] | null = null;
const record = (text: unknown, params: unknown) => {
  const q = typeof text === 'string' ? { text, values: undefined } : (text as Partial<Statement>);
  const given = (params as unknown[] | undefined) ?? q.values ?? [];
  // the list's statements (and a `set local` before them); not the session, user and CSRF lookups
  if (
    recording &&
    q.text &&
    (/money_owed|schedule_rows|invoices/.test(q.text) || /^\s*set local/i.test(q.text)) &&
    !/"sessions"/.test(q.text)
  )
    recording.push({ text: q.text, values: given });
};
// the list's statements alone, as the route sent them: in a transaction when it set something for
// the transaction; the time of each statement that reads (a `set local` is not timed)
const timed = (s: Statement) => !/^\s*set local/i.test(s.text);

let dropDb: (() => Promise<void>) | undefined;
let databaseUrl: string | undefined;
let pglite: PGlite | undefined;
let bare: (statements: Statement[]) => Promise<number[]>;
let closeBare = async () => {};
const runEach = async (statements: Statement[], run: (s: Statement) => Promise<unknown>) => {
  const times: number[] = [];
  for (const s of statements) {
    const t0 = performance.now();
    await run(s);
    if (timed(s)) times.push(performance.now() - t0);
  }
  return times;
};
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
  // every statement goes through a client's query, the pool's own and those of transactions alike
  const clientQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    record(args[0], args[1]);
    return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof clientQuery;
  const plain = new pg.Client({ connectionString: databaseUrl });
  await plain.connect();
  bare = async (statements) => {
    const inTransaction = statements.some((s) => !timed(s));
    if (inTransaction) await plain.query('begin');
    const times = await runEach(statements, (s) => plain.query(s.text, s.values as unknown[]));
    if (inTransaction) await plain.query('commit');
    return times;
  };
  closeBare = () => plain.end();
} else {
  const dir = values.dir ?? path.join(dataDir, 'pglite');
  pglite = await PGlite.create(dir, { extensions: pgliteExtensions() });
  const client = pglite;
  type Queryable = { query: (...a: unknown[]) => Promise<unknown> };
  const litePrototype = Object.getPrototypeOf(client) as Queryable & {
    transaction: <T>(cb: (tx: Queryable) => Promise<T>) => Promise<T>;
  };
  const liteQuery = litePrototype.query;
  const liteTransaction = litePrototype.transaction;
  litePrototype.query = function (this: PGlite, ...args: unknown[]) {
    record(args[0], args[1]);
    return liteQuery.apply(this, args);
  };
  // a transaction's statements go through its own query, not the prototype's
  litePrototype.transaction = function <T>(this: PGlite, callback: (tx: Queryable) => Promise<T>) {
    return liteTransaction.call(this, (tx: Queryable) => {
      const txQuery = tx.query;
      tx.query = (...args: unknown[]) => {
        record(args[0], args[1]);
        return txQuery(...args);
      };
      return callback(tx);
    }) as Promise<T>;
  };
  bare = (statements) =>
    statements.some((s) => !timed(s))
      ? (liteTransaction.call(client, (tx: Queryable) =>
          runEach(statements, (s) => tx.query(s.text, s.values)),
        ) as Promise<number[]>)
      : runEach(statements, (s) => liteQuery.call(client, s.text, s.values));
}
const database = await createDb(pglite ? { pglite } : { databaseUrl });
const db = database.db;
await database.migrate();

const countOf = async (q: ReturnType<typeof sql>) => Number((await queryRows<{ n: number }>(db, q))[0]?.n ?? 0);

if (!(await countOf(sql`select count(*)::int as n from trips`))) await seedDemo(db, { dataDir });
const haveBookings = await countOf(sql`select count(*)::int as n from bookings where ref like ${GENERATED_REFS}`);
if (haveBookings < wantedBookings) {
  const started = Date.now();
  const missing = wantedBookings - haveBookings;
  await seedScale(db, missing, (done) =>
    process.stderr.write(`\rseeding bookings ${done.toLocaleString('en-GB')} / ${missing.toLocaleString('en-GB')}`),
  );
  process.stderr.write(`\nbookings seeded in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}
{
  const started = Date.now();
  const made = await seedMoney(db, (done, of) =>
    process.stderr.write(
      `\rseeding schedules, invoices and payments: ${done.toLocaleString('en-GB')} / ${of.toLocaleString('en-GB')} bookings`,
    ),
  );
  if (made) process.stderr.write(`\nmoney seeded in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  else {
    for (const table of [
      'bookings',
      'schedule_rows',
      'invoices',
      'invoice_items',
      'transactions',
      'payment_reminders',
      'money_owed',
      'money_owed_days',
    ])
      await db.execute(sql.raw(`analyze ${table}`));
    process.stderr.write('reusing the seeded database\n');
  }
}
const sizes = (
  await queryRows<Record<string, number>>(
    db,
    sql`select (select count(*) from bookings)::int as bookings, (select count(*) from schedule_rows)::int as schedule_rows,
      (select count(*) from schedule_rows where invoice_id is null and not waived)::int as uninvoiced, (select count(*) from invoices)::int as invoices,
      (select count(*) from transactions)::int as transactions, (select count(*) from payment_reminders)::int as reminders`,
  )
)[0]!;

const email = `bench-${Date.now()}@example.test`;
await insertUser(db, { email, password: 'bench-password-123', roleId: 1 });
const app = await buildApp({ config: testConfig(dataDir), db });
await app.ready();
const client = new TestClient(app);
await client.login(email, 'bench-password-123');

// the trip with the most money due not yet invoiced (a big future trip), and a school trip
const [bigTrip] = await queryRows<{ id: number; name: string }>(
  db,
  sql`select t.id, t.name from trips t where t.departure_date > current_date + 90 and t.deleted_at is null order by (select count(*) from bookings b where b.trip_id = t.id) desc, t.id limit 1`,
);
const [smallTrip] = await queryRows<{ id: number; name: string }>(
  db,
  sql`select t.id, t.name from trips t where t.departure_date between current_date and current_date + 90 and t.deleted_at is null order by t.departure_date, t.id limit 1`,
);

const allScenarios: Array<[string, string]> = [
  ['first page (default: due date)', '/api/money-due'],
  [`trip_id (future trip: ${bigTrip?.name ?? '-'})`, `/api/money-due?trip_id=${bigTrip?.id ?? 1}`],
  [`trip_id (departs soon: ${smallTrip?.name ?? '-'})`, `/api/money-due?trip_id=${smallTrip?.id ?? 1}`],
  ['trip_type=school', '/api/money-due?trip_type=school'],
  ['trip_type=open', '/api/money-due?trip_type=open'],
  ['overdue=1', '/api/money-due?overdue=1'],
  ['due_within=30', '/api/money-due?due_within=30'],
  ['due_within=0', '/api/money-due?due_within=0'],
  ['trip_type=charity + overdue=1', '/api/money-due?trip_type=charity&overdue=1'],
  ['sort due_date desc', '/api/money-due?sort=due_date&dir=desc'],
  ['sort days_overdue desc', '/api/money-due?sort=days_overdue&dir=desc'],
  ['sort days_overdue asc', '/api/money-due?sort=days_overdue'],
  ['sort outstanding desc', '/api/money-due?sort=outstanding&dir=desc'],
  ['sort outstanding asc', '/api/money-due?sort=outstanding'],
  ['sort departure', '/api/money-due?sort=departure'],
  ['sort traveller', '/api/money-due?sort=traveller'],
  ['sort trip', '/api/money-due?sort=trip'],
  ['sort last_reminder desc', '/api/money-due?sort=last_reminder&dir=desc'],
  ['overdue=1, sort outstanding desc', '/api/money-due?overdue=1&sort=outstanding&dir=desc'],
  ['deep page (page 400)', '/api/money-due?page=400'],
  ['deep page, overdue (page 100)', '/api/money-due?overdue=1&page=100'],
];
const scenarios = allScenarios.filter(([name]) => !values.only || name.includes(values.only));

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const f1 = (n: number) => n.toFixed(1).padStart(6);

const floorTimes: number[] = [];
for (let i = 0; i < runs + 2; i++) {
  const t0 = performance.now();
  const res = await client.get('/api/me');
  if (res.statusCode !== 200) throw new Error(`/api/me: ${res.statusCode}`);
  if (i >= 2) floorTimes.push(performance.now() - t0);
}
floorTimes.sort((a, b) => a - b);

const n = (v: number) => v.toLocaleString('en-GB');
console.log(
  `\n${database.kind}, ${n(sizes.bookings!)} bookings, ${n(sizes.schedule_rows!)} schedule rows (${n(sizes.uninvoiced!)} not invoiced or waived), ${n(sizes.invoices!)} invoices, ${n(sizes.transactions!)} transactions, ${n(sizes.reminders!)} reminders; ${runs} runs each (after ${warmup} warm-up runs)\n`,
);
console.log(
  'Each statement the route sent is also run bare, one by one: "st. 1" and "st. 2" are their p50 / p95 ms (in the order sent).\n',
);
console.log(
  '| query                                        | p50 ms | p95 ms | st. 1 p50 / p95 | st. 2 p50 / p95 | total due | rows |',
);
console.log(
  '|----------------------------------------------|--------|--------|-----------------|-----------------|-----------|------|',
);
const explained: Array<[string, Statement[]]> = [];
for (const [name, target] of scenarios) {
  const times: number[] = [];
  const bareTimes: number[][] = [];
  let shown = '';
  let rows = 0;
  for (let i = 0; i < runs + warmup; i++) {
    recording = [];
    const t0 = performance.now();
    const res = await client.get(target);
    const ms = performance.now() - t0;
    const statements = recording;
    recording = null;
    if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
    const page = res.json() as { total: number; data: unknown[] };
    shown = n(page.total);
    rows = page.data.length;
    const each = values.bare ? await bare(statements) : [];
    if (i >= warmup) {
      times.push(ms);
      each.forEach((v, k) => (bareTimes[k] ??= []).push(v));
    }
    if (i === runs + warmup - 1) explained.push([name, statements]);
  }
  times.sort((a, b) => a - b);
  const st = (k: number) => {
    const xs = bareTimes[k]?.sort((a, b) => a - b);
    return xs?.length ? `${pct(xs, 50).toFixed(1)} / ${pct(xs, 95).toFixed(1)}`.padStart(15) : '–'.padStart(15);
  };
  console.log(
    `| ${name.padEnd(44)} | ${f1(pct(times, 50))} | ${f1(pct(times, 95))} | ${st(0)} | ${st(1)} | ${shown.padStart(9)} | ${String(rows).padStart(4)} |`,
  );
}
console.log(
  `\nA signed-in request's floor (GET /api/me): p50 ${pct(floorTimes, 50).toFixed(1)} ms, p95 ${pct(floorTimes, 95).toFixed(1)} ms.`,
);

if (values.explain) {
  for (const [name, statements] of explained) {
    console.log(`\n### ${name}\n`);
    for (const s of statements.filter(timed)) {
      const inlined = s.text.replace(/\$(\d+)/g, (_, k: string) => {
        const v = s.values[Number(k) - 1];
        return v === null || v === undefined
          ? 'null'
          : typeof v === 'number'
            ? String(v)
            : `'${String(v).replace(/'/g, "''")}'`;
      });
      // as the route ran it (with what it set for its transaction)
      const plan = await db.transaction(async (tx) => {
        for (const set of statements.filter((x) => !timed(x))) await tx.execute(sql.raw(set.text));
        return queryRows<Record<string, string>>(tx, sql.raw(`explain (analyze, buffers, costs off) ${inlined}`));
      });
      console.log('```');
      console.log(plan.map((r) => Object.values(r)[0]).join('\n'));
      console.log('```');
    }
  }
}

await app.close();
await closeBare();
await database.close();
await dropDb?.();
if (!values.dir) rmSync(dataDir, { recursive: true, force: true });
