// Booking list speed on a large office: p50/p95 of the four views DESIGN.md budgets, through the
// real route, beside the same SQL statements run bare (DESIGN: "within 1.5× of the same query
// run bare in SQL").
//   npx tsx bench/bookings-list.ts [--bookings 1000000] [--runs 30] [--keep] [--explain]
// Uses PGlite in a temporary folder (or --dir, kept), or the PostgreSQL server of DATABASE_URL
// (it makes a database tripdesk_bench of its own there and drops it unless --keep). With --keep
// an already seeded database is reused, so a second run skips the seeding. Prints tables;
// asserts nothing.
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
import { GENERATED_REFS, seedScale } from '../src/db/seed/scale.ts';
import { buildApp } from '../src/server/app.ts';
import { testConfig, TestClient } from '../tests/support/test-app.ts';

const { values } = parseArgs({
  options: {
    bookings: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
    dir: { type: 'string' },
    explain: { type: 'boolean', default: false },
    // also time the header sorts of the list (on the default view)
    sorts: { type: 'boolean', default: false },
    // also time the Fundraising filter, after giving a third of the fundraisers an amount raised
    fundraising: { type: 'boolean', default: false },
  },
});
const total = Number(values.bookings);
const runs = Number(values.runs);
const url = process.env.DATABASE_URL;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-bench-'));

// ---- the SQL the route sends, recorded so that it can be run bare ----
type Statement = { text: string; values: unknown[] };
let recording: Statement[] | null = null;
const record = (text: unknown, params: unknown) => {
  const q = typeof text === 'string' ? { text, values: undefined } : (text as Partial<Statement>);
  const given = (params as unknown[] | undefined) ?? q.values ?? [];
  // the session, user and CSRF lookups are not the list's query
  if (recording && q.text && /"bookings"|\bbookings\b/.test(q.text)) recording.push({ text: q.text, values: given });
};

let dropDb: (() => Promise<void>) | undefined;
let databaseUrl: string | undefined;
let pglite: PGlite | undefined;
let bare: (s: Statement) => Promise<unknown>;
let closeBare = async () => {};
if (url) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const exists = (await admin.query(`select 1 from pg_database where datname = 'tripdesk_bench'`)).rowCount;
  if (!values.keep || !exists) {
    await admin.query('DROP DATABASE IF EXISTS tripdesk_bench WITH (FORCE)');
    await admin.query('CREATE DATABASE tripdesk_bench');
  }
  const u = new URL(url);
  u.pathname = '/tripdesk_bench';
  databaseUrl = u.toString();
  dropDb = async () => {
    if (!values.keep) await admin.query('DROP DATABASE IF EXISTS tripdesk_bench WITH (FORCE)');
    await admin.end();
  };
  const poolQuery = pg.Pool.prototype.query;
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    record(args[0], args[1]);
    return (poolQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof poolQuery;
  const plain = new pg.Client({ connectionString: databaseUrl });
  await plain.connect();
  bare = (s) => plain.query(s.text, s.values as unknown[]);
  closeBare = () => plain.end();
} else {
  const dir = values.dir ?? path.join(dataDir, 'pglite');
  pglite = await PGlite.create(dir, { extensions: pgliteExtensions() });
  const client = pglite;
  const litePrototype = Object.getPrototypeOf(client) as { query: (...a: unknown[]) => Promise<unknown> };
  const liteQuery = litePrototype.query;
  litePrototype.query = function (this: PGlite, ...args: unknown[]) {
    record(args[0], args[1]);
    return liteQuery.apply(this, args);
  };
  bare = (s) => liteQuery.call(client, s.text, s.values);
}
const database = await createDb(pglite ? { pglite } : { databaseUrl });
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
} else {
  await database.db.execute(sql`analyze bookings`);
  process.stderr.write(
    `reusing the seeded database (${Number(seeded!.n).toLocaleString('en-GB')} generated bookings)\n`,
  );
}

const email = `bench-${Date.now()}@example.test`;
await insertUser(database.db, { email, password: 'bench-password-123', roleId: 1 });
const app = await buildApp({ config: testConfig(dataDir), db: database.db });
await app.ready();
const client = new TestClient(app);
await client.login(email, 'bench-password-123');
const trips = (await queryRows<{ id: number }>(database.db, sql`select id from trips order by id limit 3`)).map(
  (r) => r.id,
);

const scenarios: Array<[string, string]> = [
  ['default view (future, newest first)', ''],
  ['name search "smith"', 'name=smith&timing=all'],
  ['three trips', `timing=all&${trips.map((t) => `trips[]=${t}`).join('&')}`],
  ['deep page (page 2000)', 'timing=all&page=2000'],
];
if (values.fundraising) {
  const [entries] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from fundraising_entries`,
  );
  if (!entries?.n) {
    // a third of the fundraisers have raised something, from nothing to a little over the minimum
    await database.db
      .execute(sql`insert into fundraising_entries (booking_id, amount_pence, entry_date, source, created_at)
      select id, 1 + abs(hashint4(id::int)) % 300000, current_date, 'page_total', now() from bookings where funding_type in ('fundraise', 'flexi') and id % 3 = 0`);
    await database.db.execute(sql`analyze fundraising_entries`);
  }
  for (const state of ['on_track', 'behind', 'met'])
    scenarios.push([`fundraising ${state}, all timings`, `timing=all&fundraising=${state}`]);
  scenarios.push([
    'fundraising behind, three trips',
    `timing=all&fundraising=behind&${trips.map((t) => `trips[]=${t}`).join('&')}`,
  ]);
}
if (values.sorts) {
  for (const [field, label] of [
    ['id', 'ID'],
    ['deposit_payment_date', 'Date Paid'],
    ['name', 'Traveller Name'],
    ['room_ref', 'Room Ref'],
    ['trip_name', 'Trip'],
  ]) {
    for (const dir of ['asc', 'desc']) scenarios.push([`sort ${label} ${dir}`, `sort_field=${field}&sort_dir=${dir}`]);
  }
}

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const f1 = (n: number) => n.toFixed(1).padStart(6);

// what any signed-in request costs before a route does its own work (session, user, role, reply)
const floorTimes: number[] = [];
for (let i = 0; i < runs + 2; i++) {
  const t0 = performance.now();
  const res = await client.get('/api/me');
  if (res.statusCode !== 200) throw new Error(`/api/me: ${res.statusCode}`);
  if (i >= 2) floorTimes.push(performance.now() - t0);
}
floorTimes.sort((a, b) => a - b);
const floor = pct(floorTimes, 50);
console.log(
  `\n${database.kind}, ${total.toLocaleString('en-GB')} generated bookings + the demo office, ${runs} runs each (after 2 warm-up runs)\n`,
);
console.log(
  '| view                                 | p50 ms | p95 ms | bare SQL p50 | bare p95 | p50 ratio | total (estimate?)  |',
);
console.log(
  '|--------------------------------------|--------|--------|--------------|----------|-----------|--------------------|',
);
const explained: Array<[string, Statement[]]> = [];
const ratios: string[] = [];
for (const [name, qs] of scenarios) {
  const times: number[] = [];
  const bareTimes: number[] = [];
  let shown = '';
  for (let i = 0; i < runs + 2; i++) {
    recording = [];
    const t0 = performance.now();
    const res = await client.get(`/api/bookings?${qs}`);
    const ms = performance.now() - t0;
    const statements = recording;
    recording = null;
    if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
    const page = res.json() as { total: number; total_is_estimate?: boolean };
    shown = `${page.total.toLocaleString('en-GB')}${page.total_is_estimate ? ' (about)' : ''}`;
    // the same statements, one after another as the route sends them, without the app around them
    const b0 = performance.now();
    for (const s of statements) await bare(s);
    const bareMs = performance.now() - b0;
    if (i >= 2) {
      times.push(ms);
      bareTimes.push(bareMs);
    }
    if (i === runs + 1) explained.push([name, statements]);
  }
  times.sort((a, b) => a - b);
  bareTimes.sort((a, b) => a - b);
  const ratio = pct(times, 50) / pct(bareTimes, 50);
  ratios.push(`${name}: ${((pct(times, 50) - floor) / pct(bareTimes, 50)).toFixed(2)}×`);
  console.log(
    `| ${name.padEnd(36)} | ${f1(pct(times, 50))} | ${f1(pct(times, 95))} | ${f1(pct(bareTimes, 50)).padStart(12)} | ${f1(pct(bareTimes, 95)).padStart(8)} | ${`${ratio.toFixed(2)}×`.padStart(9)} | ${shown.padStart(18)} |`,
  );
}

console.log(
  `\nA signed-in request's floor (GET /api/me: session, user, role, reply): p50 ${floor.toFixed(1)} ms, p95 ${pct(floorTimes, 95).toFixed(1)} ms.`,
);
console.log(`The route's p50 less that floor, over the bare SQL's p50: ${ratios.join('; ')}.`);

if (values.explain) {
  for (const [name, statements] of explained) {
    console.log(`\n### ${name}\n`);
    for (const s of statements) {
      if (/^\s*explain/i.test(s.text)) {
        console.log('```');
        console.log(
          `${s.text.slice(0, 300)}${s.text.length > 300 ? '…' : ''}\n(the estimate of the total, planned and not run)`,
        );
        console.log('```');
        continue;
      }
      // EXPLAIN cannot take parameters on every driver path: inline them as literals
      const inlined = s.text.replace(/\$(\d+)/g, (_, n: string) => {
        const v = s.values[Number(n) - 1];
        return v === null || v === undefined
          ? 'null'
          : typeof v === 'number'
            ? String(v)
            : `'${String(v).replace(/'/g, "''")}'`;
      });
      const plan = await queryRows<Record<string, string>>(
        database.db,
        sql.raw(`explain (analyze, buffers, costs off) ${inlined}`),
      );
      console.log('```');
      console.log(inlined.length > 600 ? `${inlined.slice(0, 600)}…` : inlined);
      console.log(plan.map((r) => Object.values(r)[0]).join('\n'));
      console.log('```');
    }
  }
}

await app.close();
await closeBare();
await database.close();
await dropDb?.();
// the PGlite database of --dir stays; the temporary one lives in dataDir and goes with it
rmSync(dataDir, { recursive: true, force: true });
