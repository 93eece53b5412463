// History (audit) speed on a large office: p50/p95 of GET /api/audit's first page, each filter and
// a deep page, and of a booking's and a trip's history, through the real routes (app.inject,
// signed in as an administrator), beside the same SQL statements run bare. DESIGN.md's budget:
// p95 ≤ 50 ms on PostgreSQL with 5,000,000 events.
//   npx tsx bench/audit.ts [--events 5000000] [--bookings 0] [--runs 30] [--keep] [--dir D] [--explain] [--only NAME]
// Uses PGlite in a temporary folder (or --dir, kept), or the PostgreSQL server of DATABASE_URL
// (it makes a database tripdesk_bench_audit of its own there and drops it unless --keep). With
// --keep (or --dir) an already seeded database is reused, so a second run skips the seeding.
// --bookings adds that many generated bookings before the events (the events are then spread
// over them, a few per booking, as in a real office). Prints tables; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { createDb, pgliteExtensions, queryRows } from '../src/db/client.ts';
import { insertUser } from '../src/db/factories/users.ts';
import { seedAuditEvents } from '../src/db/seed/audit-events.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { GENERATED_REFS, seedScale } from '../src/db/seed/scale.ts';
import { buildApp } from '../src/server/app.ts';
import { testConfig, TestClient } from '../tests/support/test-app.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000000' },
    bookings: { type: 'string', default: '0' },
    runs: { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
    dir: { type: 'string' },
    explain: { type: 'boolean', default: false },
    // only the scenarios whose name contains this
    only: { type: 'string' },
  },
});
const wantedEvents = Number(values.events.replace(/[_,]/g, ''));
const wantedBookings = Number(values.bookings.replace(/[_,]/g, ''));
const runs = Number(values.runs);
const url = process.env.DATABASE_URL;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-bench-audit-'));
const DB_NAME = 'tripdesk_bench_audit';

// ---- the SQL the route sends, recorded so that it can be run bare ----
type Statement = { text: string; values: unknown[] };
let recording: Statement[] | null = null;
const record = (text: unknown, params: unknown) => {
  const q = typeof text === 'string' ? { text, values: undefined } : (text as Partial<Statement>);
  const given = (params as unknown[] | undefined) ?? q.values ?? [];
  // the session, user and CSRF lookups are not the history's queries
  if (recording && q.text && /audit_events|"bookings"|"trips"|ilike/i.test(q.text) && !/"sessions"/.test(q.text))
    recording.push({ text: q.text, values: given });
};

let dropDb: (() => Promise<void>) | undefined;
let databaseUrl: string | undefined;
let pglite: PGlite | undefined;
let bare: (s: Statement) => Promise<unknown>;
let closeBare = async () => {};
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
const haveEvents = await countOf(sql`select count(*)::int as n from audit_events`);
if (haveEvents < wantedEvents) {
  const started = Date.now();
  const missing = wantedEvents - haveEvents;
  await seedAuditEvents(db, missing, (done) =>
    process.stderr.write(`\rseeding events ${done.toLocaleString('en-GB')} / ${missing.toLocaleString('en-GB')}`),
  );
  process.stderr.write(`\nevents seeded in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
} else {
  await db.execute(sql`analyze audit_events`);
  process.stderr.write(`reusing the seeded database (${haveEvents.toLocaleString('en-GB')} events)\n`);
}
const events = await countOf(sql`select count(*)::int as n from audit_events`);
const bookingCount = await countOf(sql`select count(*)::int as n from bookings`);

const email = `bench-${Date.now()}@example.test`;
await insertUser(db, { email, password: 'bench-password-123', roleId: 1 });
const app = await buildApp({ config: testConfig(dataDir), db });
await app.ready();
const client = new TestClient(app);
await client.login(email, 'bench-password-123');

// what the scenarios look for: the busiest administrator, a booking and a trip with history
const [priya] = await queryRows<{ id: number }>(db, sql`select id from users where email = 'priya.shah@tripdesk.test'`);
const actorId = Number(priya!.id);
// the booking with the most events (the worst history of one booking)
const [busy] = await queryRows<{ id: number; ref: string; n: number }>(
  db,
  sql`select b.id, b.ref, x.n::int as n from (select booking_id, count(*) n from audit_events where booking_id in (select id from bookings order by id limit 400) group by 1 order by 2 desc limit 1) x join bookings b on b.id = x.booking_id`,
);
// a generated booking's, when there are generated bookings: a few events, as most bookings have
const [typical] = await queryRows<{ id: number; ref: string; n: number }>(
  db,
  sql`select b.id, b.ref, (select count(*)::int from audit_events e where e.booking_id = b.id) as n from bookings b where b.ref like ${GENERATED_REFS} order by b.id desc limit 1`,
);
const [trip] = await queryRows<{ id: number; n: number }>(
  db,
  sql`select t.id, (select count(*)::int from audit_events e where e.trip_id = t.id and e.booking_id is null) as n from trips t order by t.id limit 1`,
);
const year = new Date().getFullYear();

const allScenarios: Array<[string, string]> = [
  ['first page (no filter)', '/api/audit'],
  ['actor "priya" (name, 1 user)', '/api/audit?actor=priya'],
  ['actor "tripdesk.test" (email, 2 users)', '/api/audit?actor=tripdesk.test'],
  ['actor "zz-nobody" (no user)', '/api/audit?actor=zz-nobody'],
  ['actor_id (busiest administrator)', `/api/audit?actor_id=${actorId}`],
  ['actor_type=oauth_client', '/api/audit?actor_type=oauth_client'],
  ['action = invoice.sent', '/api/audit?action=invoice.sent'],
  ['action = trip.archived (rare)', '/api/audit?action=trip.archived'],
  ['action prefix "booking."', '/api/audit?action=booking.'],
  ['action prefix "oauth." (rare)', '/api/audit?action=oauth.'],
  ['action prefix "nothing." (none)', '/api/audit?action=nothing.'],
  ['subject booking + id', `/api/audit?subject_type=booking&subject_id=${busy!.id}`],
  ['subject_type = trip', '/api/audit?subject_type=trip'],
  ['booking_ref', `/api/audit?booking_ref=${busy!.ref}`],
  ...(typical
    ? [
        ['booking_ref of a generated booking, lower case', `/api/audit?booking_ref=${typical.ref.toLowerCase()}`] as [
          string,
          string,
        ],
      ]
    : []),
  ['booking_ref unknown', '/api/audit?booking_ref=TDS9999999'],
  ['source = api', '/api/audit?source=api'],
  ['source = system', '/api/audit?source=system'],
  ['from/to: one month', `/api/audit?from=${year - 1}-03-01&to=${year - 1}-03-31`],
  ['from only (last 2 years)', `/api/audit?from=${year - 2}-01-01`],
  ['to only (before 2 years ago)', `/api/audit?to=${year - 2}-06-30`],
  [
    'combination: booking. + api + 6 months',
    `/api/audit?action=booking.&source=api&from=${year - 1}-01-01&to=${year - 1}-06-30`,
  ],
  [
    'combination: actor_id + email.sent + year',
    `/api/audit?actor_id=${actorId}&action=email.sent&from=${year - 1}-01-01&to=${year - 1}-12-31`,
  ],
  ['deep page (page 2000)', '/api/audit?page=2000'],
  ['deep page, action prefix (page 400)', '/api/audit?action=booking.&page=400'],
  [`booking history (busiest, ${busy!.n.toLocaleString('en-GB')} events)`, `/api/bookings/${busy!.id}/history`],
  ...(typical
    ? [[`booking history (generated, ${typical.n} events)`, `/api/bookings/${typical.id}/history`] as [string, string]]
    : []),
  [`trip history (${trip!.n.toLocaleString('en-GB')} trip events)`, `/api/trips/${trip!.id}/history`],
  ['trip history, page 100', `/api/trips/${trip!.id}/history?page=100`],
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

console.log(
  `\n${database.kind}, ${events.toLocaleString('en-GB')} history events, ${bookingCount.toLocaleString('en-GB')} bookings, ${runs} runs each (after 2 warm-up runs)\n`,
);
console.log(
  '| query                                        | p50 ms | p95 ms | bare SQL p50 | bare p95 | total given        | rows |',
);
console.log(
  '|----------------------------------------------|--------|--------|--------------|----------|--------------------|------|',
);
const explained: Array<[string, Statement[]]> = [];
for (const [name, target] of scenarios) {
  const times: number[] = [];
  const bareTimes: number[] = [];
  let shown = '';
  let rows = 0;
  for (let i = 0; i < runs + 2; i++) {
    recording = [];
    const t0 = performance.now();
    const res = await client.get(target);
    const ms = performance.now() - t0;
    const statements = recording;
    recording = null;
    if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
    const page = res.json() as { total: number; data: unknown[]; last_page: number };
    shown = `${page.total.toLocaleString('en-GB')}`;
    rows = page.data.length;
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
  console.log(
    `| ${name.padEnd(44)} | ${f1(pct(times, 50))} | ${f1(pct(times, 95))} | ${f1(pct(bareTimes, 50)).padStart(12)} | ${f1(pct(bareTimes, 95)).padStart(8)} | ${shown.padStart(18)} | ${String(rows).padStart(4)} |`,
  );
}
console.log(
  `\nA signed-in request's floor (GET /api/me): p50 ${pct(floorTimes, 50).toFixed(1)} ms, p95 ${pct(floorTimes, 95).toFixed(1)} ms.`,
);

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
      const inlined = s.text.replace(/\$(\d+)/g, (_, n: string) => {
        const v = s.values[Number(n) - 1];
        return v === null || v === undefined
          ? 'null'
          : typeof v === 'number'
            ? String(v)
            : `'${String(v).replace(/'/g, "''")}'`;
      });
      const plan = await queryRows<Record<string, string>>(
        db,
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
rmSync(dataDir, { recursive: true, force: true });
