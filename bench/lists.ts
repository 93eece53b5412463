// Every list and filter the office uses, on one production-size data set, over HTTP: for each,
// p50 and p95 of calls one at a time (at least --runs calls, and for a quick list as many as two
// seconds take, up to 1,000), p95 of calls eight at a time, and beside them the SQL the
// route sent, run bare (p50 of its statements' sum, run in turn with blocks of the calls; a
// statement the server prepares under a name is prepared under it here too, so its planning is
// counted as the server pays it), and what the server spends outside it: p50 − SQL, and, of each
// call itself, the time with none of the server's statements in flight (its own work and the
// HTTP round trip, free of the SQL's variance from one call to the next). The floor rows are what
// a bare route around one statement of 0, 2 or 10 ms spends outside it on this machine: the part
// of that column no server code can remove; "over the floor" is the rest, the list's time outside
// SQL less the floor's after a statement as long as its SQL (drawn straight between the rows).
// Budget (DESIGN.md, issue 33): every list and filter ≤ 50 ms p95 at a million bookings; a one-row
// list within 1 ms of its SQL; GET /api/me ≤ 0.5 ms.
//   npm run db:seed -- --bookings 1000000        (once, with the same DATABASE_URL)
//   DATABASE_URL=postgresql://… npx tsx bench/lists.ts [--runs 40] [--concurrent 200] [--only NAME] [--explain]
// Uses the database of DATABASE_URL as it is (a server started on a free port of this process,
// web only; the calls are made from a worker thread, as a client elsewhere would make them, so
// that the client's own work is not counted as the server's); adds one administrator to sign in
// with. Prints tables; asserts nothing.
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { createDb, PARALLEL_WORKERS, queryRows } from '../src/db/client.ts';
import { insertUser } from '../src/db/factories/users.ts';
import { GENERATED_REFS } from '../src/db/seed/scale.ts';
import { buildApp } from '../src/server/app.ts';
import { testConfig } from '../tests/support/test-app.ts';
import { startClient, timeInside, timeStatements } from './support/timing.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '40' },
    concurrent: { type: 'string', default: '200' },
    only: { type: 'string' },
    // start at the first scenario whose name contains this
    from: { type: 'string' },
    explain: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const concurrentCalls = Number(values.concurrent);
const url = process.env.DATABASE_URL;
if (!url?.startsWith('postgres')) {
  console.error(
    'bench/lists.ts runs on PostgreSQL: DATABASE_URL=postgresql://… (seeded by npm run db:seed -- --bookings 1000000)',
  );
  process.exit(1);
}
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-lists-'));

// ---- the SQL each route sent, recorded so that it can be run bare ----
// a named statement is prepared once on each connection (the page's rows, the dashboard's reads):
// run bare under its name too, so that the SQL column counts its planning as the server pays it
type Statement = { text: string; values: unknown[]; name?: string };
let recording: Statement[] | null = null;
// when each of the server's statements was sent and answered (absolute ms, as the client worker times its calls)
const spans: Array<[number, number]> = [];
// the bench's own client, which runs the statements bare: not the server's
const bare = new WeakSet<pg.Client>();
timeStatements((client, q) => {
  // the request's own statements: not the session lookup every signed-in request makes (GET /api/me shows that)
  if (recording && q.text && !/"sessions"|\bsessions\b/.test(q.text))
    recording.push({ text: q.text, values: q.values ?? [], ...(q.name ? { name: q.name } : {}) });
  return bare.has(client) ? undefined : (start, end) => spans.push([start, end]);
});
/** Of each call, the time the server spent with no statement of its own in flight (its own work, and the HTTP round trip). */
function outsideSql(calls: Array<[number, number]>): number[] {
  const taken = spans.splice(0);
  return calls.map(([from, to]) => to - from - timeInside(taken, from, to));
}
const WARMUP = 5;
const BLOCK = 10;
// a quick list is called until this much time has passed too (up to MAX_CALLS): the p50 of 40 calls
// of a 2 ms list, and of its SQL beside it, each move by a few tenths of a millisecond from one run
// to the next, as much as the 1 ms the one-row list is allowed outside its SQL
const MIN_SAMPLE_MS = 2000;
const MAX_CALLS = 1000;
/** The next block's size: the calls still owed, or (once `runs` are made) a block more while the sample is short. */
function nextBlock(made: number, began: number): number {
  if (made < runs) return Math.min(BLOCK, runs - made);
  return performance.now() - began < MIN_SAMPLE_MS && made < MAX_CALLS ? BLOCK : 0;
}
const isSet = (s: Statement) => /^\s*(set local|begin|commit|rollback)/i.test(s.text);

const database = await createDb({ databaseUrl: url });
await database.migrate();
const db = database.db;
const sizes = (
  await queryRows<Record<string, number>>(
    db,
    sql`select (select count(*) from bookings)::int as bookings, (select count(*) from invoices)::int as invoices,
      (select count(*) from transactions)::int as transactions, (select count(*) from schedule_rows)::int as schedule_rows,
      (select count(*) from fundraising_entries)::int as fundraising_entries, (select count(*) from booking_notes)::int as notes,
      (select count(*) from audit_events)::int as history`,
  )
)[0]!;
if (sizes.bookings! < 1000)
  console.error('The database is nearly empty: seed it first (npm run db:seed -- --bookings 1000000).');

const plain = new pg.Client({ connectionString: url });
bare.add(plain);
await plain.connect();
// the SQL run bare as the server's connections run it (decision 034)
await plain.query(`set max_parallel_workers_per_gather = ${PARALLEL_WORKERS}`);
const runBare = async (statements: Statement[]) => {
  const inTransaction = statements.some(isSet);
  const t0 = performance.now();
  if (inTransaction) await plain.query('begin');
  for (const s of statements)
    if (!/^\s*(begin|commit|rollback)/i.test(s.text))
      await plain.query(s.name ? { name: s.name, text: s.text, values: s.values } : { text: s.text, values: s.values });
  if (inTransaction) await plain.query('commit');
  return performance.now() - t0;
};

const email = `lists-bench-${Date.now()}@example.test`;
await insertUser(db, { email, password: 'bench-password-123', roleId: 1 });
const app = await buildApp({ config: testConfig(dataDir, { env: 'production' }), db });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

// The floor of this machine: a bare Fastify route around one statement that takes a given time
// (pg_sleep), on a plain pool in the same process, called the same way. What any Node server
// spends outside its SQL on a call that waits that long: the HTTP round trip, and waking up
// after the wait (which grows with it).
const barePool = new pg.Pool({ connectionString: url, max: 2 });
const bareApp = Fastify();
bareApp.get<{ Params: { ms: string } }>('/bare/:ms', async (request) => {
  const ms = Number(request.params.ms);
  await barePool.query(ms > 0 ? `select pg_sleep(${ms / 1000})` : 'select 1');
  return { ok: true };
});
await bareApp.listen({ port: 0, host: '127.0.0.1' });
const barePort = (bareApp.server.address() as { port: number }).port;

function call(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: target, method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers }),
      );
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}
const login = await call(
  'POST',
  '/login',
  { 'content-type': 'application/json' },
  JSON.stringify({ email, password: 'bench-password-123' }),
);
if (login.status !== 204) throw new Error(`sign-in: ${login.status} ${login.body}`);
const cookie = (login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
const get = (target: string) => call('GET', target, { cookie, accept: 'application/json' });

// the timed calls come from a worker thread with its own keep-alive connections (bench/support/timing.ts)
const client = startClient();
function timedCalls(target: string, calls: number, inFlight: number, untilMs = 0, to = port) {
  spans.length = 0;
  return client.timed({
    port: to,
    path: target,
    headers: { cookie, accept: 'application/json' },
    calls,
    inFlight,
    untilMs,
  });
}

// what the scenarios are about: the future trip with the most bookings, a charity with fundraisers, one booking of a future trip
const [bigTrip] = await queryRows<{ id: number; n: number }>(
  db,
  sql`select trip_id as id, count(*)::int as n from bookings where trip_departure >= current_date group by trip_id order by 2 desc limit 1`,
);
// the charity with the most fundraisers (provisional and confirmed bookings that fundraise, over the years)
const [charity] = await queryRows<{ id: number; n: number }>(
  db,
  sql`select charity_id as id, count(*)::int as n from bookings
    where charity_id is not null and status in ('provisional', 'confirmed') and funding_type in ('fundraise', 'flexi')
    group by 1 order by 2 desc limit 1`,
);
const [one] = await queryRows<{ ref: string; last_name: string; email: string; post_code: string }>(
  db,
  sql`select ref, last_name, email, post_code from bookings where ref like ${GENERATED_REFS} and trip_departure >= current_date order by id desc limit 1`,
);
// the list shows future trips unless asked otherwise: its pages are those of the bookings of future trips
const [future] = await queryRows<{ n: number }>(
  db,
  sql`select count(*)::int as n from bookings where trip_departure >= current_date`,
);
const total = future?.n ?? sizes.bookings!;
const deepPage = Math.max(1, Math.round(total / 25 / 2));

// a month of departures six months ahead (the list's default shows future trips) and one six months back (with timing=all)
const monthOf = (months: number) => {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months + 1, 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
};
const ahead = monthOf(6);
const back = monthOf(-6);

const allScenarios: Array<[string, string]> = [
  ['bookings: default first page', '/api/bookings'],
  ['bookings: one row by reference', `/api/bookings?booking_ref=${one?.ref}`],
  ['bookings: one row by email', `/api/bookings?email=${encodeURIComponent(one?.email ?? '')}`],
  [`bookings: deep page (${deepPage.toLocaleString('en-GB')})`, `/api/bookings?page=${deepPage}`],
  ['bookings: last page', `/api/bookings?page=${Math.ceil(total / 25)}`],
  ['bookings: status confirmed', '/api/bookings?status=confirmed'],
  ['bookings: timing future', '/api/bookings?timing=future'],
  ['bookings: timing past', '/api/bookings?timing=past'],
  ['bookings: passport missing', '/api/bookings?passport=missing'],
  ['bookings: passport expired', '/api/bookings?passport=expired'],
  ['bookings: passport expires', '/api/bookings?passport=expires'],
  ['bookings: fundraising on track', '/api/bookings?fundraising=on_track'],
  ['bookings: fundraising behind', '/api/bookings?fundraising=behind'],
  ['bookings: fundraising met', '/api/bookings?fundraising=met'],
  ['bookings: fundraising behind, one trip', `/api/bookings?fundraising=behind&trip_id=${bigTrip?.id}`],
  ['bookings: one trip', `/api/bookings?trip_id=${bigTrip?.id}`],
  ['bookings: name', `/api/bookings?name=${encodeURIComponent(one?.last_name ?? 'Smith')}`],
  ['bookings: post code (address)', `/api/bookings?address=${encodeURIComponent(one?.post_code ?? 'LS1')}`],
  ['bookings: telephone', '/api/bookings?telephone=0712'],
  ['bookings: ages 18–25, medical', '/api/bookings?age_min=18&age_max=25&medical=1'],
  ['bookings: departures in a month (6 ahead)', `/api/bookings?departure_from=${ahead.from}&departure_to=${ahead.to}`],
  [
    'bookings: departures in a month (6 back, all)',
    `/api/bookings?timing=all&departure_from=${back.from}&departure_to=${back.to}`,
  ],
  ['bookings: booked before', '/api/bookings?booked_before=2024-01-01'],
  ['bookings: sort trip name', '/api/bookings?sort_field=trip_name&sort_dir=asc'],
  ['bookings: sort name', '/api/bookings?sort_field=name&sort_dir=asc'],
  ['bookings: sort room', '/api/bookings?sort_field=room_ref&sort_dir=asc'],
  ['money due: first page', '/api/money-due'],
  ['money due: overdue', '/api/money-due?overdue=1'],
  ['money due: sort outstanding', '/api/money-due?sort=outstanding&dir=desc'],
  ['money due: deep page (400)', '/api/money-due?page=400'],
  ['refunds owed', '/api/money-due/refunds'],
  ['history: first page', '/api/audit'],
  ['history: a trip', `/api/trips/${bigTrip?.id}/history`],
  ['history: through the API', '/api/audit?source=api'],
  ['charity fundraisers (biggest charity)', `/api/charities/${charity?.id}/fundraisers`],
  ['charity fundraisers: behind', `/api/charities/${charity?.id}/fundraisers?state=behind`],
  [
    'charity fundraisers: last page',
    `/api/charities/${charity?.id}/fundraisers?page=${Math.max(1, Math.ceil((charity?.n ?? 0) / 50))}`,
  ],
  ['readiness board (biggest trip)', `/api/trips/${bigTrip?.id}/readiness`],
  ['dashboard', '/api/dashboard'],
  ['trips', '/api/trips'],
];
const start = values.from
  ? Math.max(
      0,
      allScenarios.findIndex(([name]) => name.includes(values.from!)),
    )
  : 0;
const scenarios = allScenarios.slice(start).filter(([name]) => !values.only || name.includes(values.only));
// a list far over budget is not also run 200 times at concurrency 8 (it would take minutes to say so)
const SLOW_MS = 200;

const pct = (xs: number[], p: number) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const f = (n: number, w = 7) => (Number.isNaN(n) ? '–' : n < 10 ? n.toFixed(2) : n.toFixed(1)).padStart(w);
const n = (v: number) => v.toLocaleString('en-GB');

/**
 * p50 and p95 one at a time (from the worker, after WARMUP calls and one call from here whose
 * statements are recorded), in blocks of BLOCK calls; after each block, its statements run bare
 * as many times: their p50 is the SQL column, timed in turn with the calls, so that both see the
 * machine in the same state. (Run bare after every call, each call would start cold: the client
 * waking to make it, after a wait of the SQL's length.)
 */
async function sequential(target: string, bare: boolean) {
  await timedCalls(target, WARMUP, 1);
  recording = [];
  const last = await get(target);
  const statements = recording;
  recording = null;
  if (last.status !== 200) return { error: `${last.status} ${last.body.slice(0, 120)}` };
  const times: number[] = [];
  const outside: number[] = [];
  const sqlTimes: number[] = [];
  const began = performance.now();
  // a list far over budget says so in fewer calls
  for (
    let block = nextBlock(0, began);
    block > 0 && !(performance.now() - began > 30_000 && times.length > 10);
    block = nextBlock(times.length, began)
  ) {
    const timed = await timedCalls(target, block, 1);
    if (timed.status !== 200) return { error: `${timed.status} in call ${times.length + 1} or after` };
    times.push(...timed.times);
    outside.push(...outsideSql(timed.spans));
    // a statement that cannot run bare (one of the job queue's tables on a web-only server) is not timed
    if (bare)
      for (const _ of timed.times)
        sqlTimes.push(
          await runBare(statements).catch(async () => {
            await plain.query('rollback').catch(() => {});
            return NaN;
          }),
        );
  }
  return { times, outside, sqlTimes, statements, body: last.body };
}

/** p95 of `concurrentCalls` calls, eight in flight at a time */
async function concurrent(target: string) {
  return pct((await timedCalls(target, concurrentCalls, 8)).times, 95);
}

console.log(
  `\n${database.kind}: ${n(sizes.bookings!)} bookings, ${n(sizes.invoices!)} invoices, ${n(sizes.transactions!)} payments and refunds, ${n(sizes.schedule_rows!)} schedule rows, ${n(sizes.fundraising_entries!)} fundraising entries, ${n(sizes.notes!)} notes, ${n(sizes.history!)} history events; over HTTP (keep-alive), at least ${runs} calls one at a time (and as many as ${MIN_SAMPLE_MS / 1000} s take, up to ${n(MAX_CALLS)}) after ${WARMUP} warm-up calls, ${concurrentCalls} at concurrency 8\n`,
);
console.log(
  '| list | p50 ms | p95 ms | c8 p95 ms | SQL p50 ms | p50 − SQL | outside SQL p50 | over the floor | total |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|',
);
// the server warmed first (JIT, connections, plans): a second of each floor call and of the simplest list
for (const target of ['/healthz', '/api/me', '/api/bookings']) await timedCalls(target, 1_000_000, 1, 1000);
const floorTargets: Array<[string, string]> = [
  ['GET /healthz (no session)', '/healthz'],
  ['GET /api/me (signed in)', '/api/me'],
];
for (const [name, target] of floorTargets) {
  const r = await sequential(target, false);
  if ('error' in r) throw new Error(`${name}: ${r.error}`);
  console.log(
    `| ${name} | ${f(pct(r.times, 50))} | ${f(pct(r.times, 95))} | ${f(await concurrent(target))} | | | ${f(pct(r.outside, 50))} | | |`,
  );
}
// the floor's time outside SQL after a statement of each length (ms): [SQL p50, outside SQL p50]
const floors: Array<[number, number]> = [];
/**
 * What the bare route spends outside a statement as long as `sqlMs`, drawn straight between the
 * floor rows (the last one's beyond it): what of a list's time outside SQL is this machine's
 */
function floorAt(sqlMs: number): number {
  const [first] = floors;
  if (!first || sqlMs <= first[0]) return first?.[1] ?? NaN;
  for (let i = 1; i < floors.length; i++) {
    const [x0, y0] = floors[i - 1]!;
    const [x1, y1] = floors[i]!;
    if (sqlMs <= x1) return y0 + ((y1 - y0) * (sqlMs - x0)) / (x1 - x0);
  }
  return floors.at(-1)![1];
}
for (const ms of [0, 2, 10]) {
  const target = `/bare/${ms}`;
  await timedCalls(target, 1_000_000, 1, 500, barePort);
  const statement = { text: ms > 0 ? `select pg_sleep(${ms / 1000})` : 'select 1', values: [] };
  const times: number[] = [];
  const outside: number[] = [];
  const sqlTimes: number[] = [];
  // as the lists: in blocks, the statement run bare after each
  const began = performance.now();
  for (let block = nextBlock(0, began); block > 0; block = nextBlock(times.length, began)) {
    const timed = await timedCalls(target, block, 1, 0, barePort);
    times.push(...timed.times);
    outside.push(...outsideSql(timed.spans));
    for (const _ of timed.times) sqlTimes.push(await runBare([statement]));
  }
  const p50 = pct(times, 50);
  floors.push([pct(sqlTimes, 50), pct(outside, 50)]);
  console.log(
    `| floor: a bare route, one statement of ${ms} ms | ${f(p50)} | ${f(pct(times, 95))} | | ${f(pct(sqlTimes, 50))} | ${f(p50 - pct(sqlTimes, 50))} | ${f(pct(outside, 50))} | | |`,
  );
}
const explained: Array<[string, Statement[]]> = [];
for (const [name, target] of scenarios) {
  const r = await sequential(target, true);
  if ('error' in r) {
    console.log(`| ${name} | ${r.error} | | | | | | | |`);
    continue;
  }
  const page = JSON.parse(r.body) as { total?: number; total_is_estimate?: boolean };
  const shown = page.total === undefined ? '' : `${page.total_is_estimate ? '≈' : ''}${n(page.total)}`;
  const p50 = pct(r.times, 50);
  const sqlP50 = pct(r.sqlTimes, 50);
  const c8 = p50 > SLOW_MS ? NaN : await concurrent(target);
  console.log(
    `| ${name} | ${f(p50)} | ${f(pct(r.times, 95))} | ${f(c8)} | ${f(sqlP50)} | ${f(p50 - sqlP50)} | ${f(pct(r.outside, 50))} | ${f(pct(r.outside, 50) - floorAt(sqlP50))} | ${shown} |`,
  );
  explained.push([name, r.statements]);
}

if (values.explain) {
  for (const [name, statements] of explained) {
    console.log(`\n### ${name}\n`);
    for (const s of statements.filter((x) => !isSet(x) && /^\s*(select|with)\b/i.test(x.text))) {
      const inlined = s.text.replace(/\$(\d+)/g, (_, k: string) => {
        const v = s.values[Number(k) - 1];
        return v === null || v === undefined
          ? 'null'
          : typeof v === 'number'
            ? String(v)
            : `'${String(v).replace(/'/g, "''")}'`;
      });
      const plan = await plain.query(`explain (analyze, buffers, costs off) ${inlined}`);
      console.log('```');
      console.log(plan.rows.map((row: Record<string, string>) => Object.values(row)[0]).join('\n'));
      console.log('```');
    }
  }
}

await client.close();
await bareApp.close();
await barePool.end();
await app.close();
agent.destroy();
await db.execute(sql`delete from users where email = ${email}`);
await plain.end();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
