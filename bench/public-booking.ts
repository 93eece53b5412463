// Launch day (issue 34): the public booking routes, the hottest Tripdesk has. Prints two tables.
//   1. GET /api/public/trips/{slug} from 32 clients at once for a few seconds: requests a second,
//      p50 and p95, with the server's page cache (PUBLIC_PAGE_CACHE_MS, 2 s) and without it (the SQL of every read).
//   2. 200 bookings posted at once for 150 places: how many were made (exactly 150), how many were
//      told the trip is full, none lost (the database holds exactly the 150), and p50/p95/max.
//      Then how long the bookings that replied from their rows alone (decision 030) took to get their
//      schedules, deposit invoices and emails after the last reply, and that each has one deposit invoice.
//   DATABASE_URL=postgresql://… npx tsx bench/public-booking.ts [--seconds 5] [--warmup 3] [--clients 32] [--bookers 200] [--places 150] [--burst 2] [--profile FILE] [--profile-read FILE]
// Uses the PostgreSQL server of DATABASE_URL (a database tripdesk_bench_public of its own, dropped
// at the end), or PGlite in a temporary folder. A web-only server (no job queue) on a free port;
// the clients run in a worker thread with their own keep-alive connections, as browsers elsewhere.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { addDays, ukToday } from '../src/contract/dates.ts';
import { createDb, queryRows } from '../src/db/client.ts';
import { insertTrip } from '../src/db/factories/trips.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { buildApp } from '../src/server/app.ts';
import { startStripeStandIn } from '../tests/support/stripe-stand-in.ts';
import { testConfig } from '../tests/support/test-app.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    // each server is read this long by all the clients before it is measured
    warmup: { type: 'string', default: '3' },
    clients: { type: 'string', default: '32' },
    bookers: { type: 'string', default: '200' },
    places: { type: 'string', default: '150' },
    // BOOKING_BURST: 1000 to make every booking's schedule and deposit invoice before its reply, as before decision 030
    burst: { type: 'string', default: '2' },
    // a CPU profile of the server's thread during the 200 posts (open it in Chrome's DevTools)
    profile: { type: 'string' },
    // and one during the cached page's reads
    'profile-read': { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const clients = Number(values.clients);
const bookers = Number(values.bookers);
const placesOnSale = Number(values.places);
const burst = Number(values.burst);

const url = process.env.DATABASE_URL;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-bench-public-'));
const DB_NAME = 'tripdesk_bench_public';
let databaseUrl: string | undefined;
let dropDb = async () => {};
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
const database = await createDb(
  databaseUrl ? { databaseUrl, poolSize: 20 } : { pgliteDir: path.join(dataDir, 'pglite') },
);
await database.migrate();
await seedDemo(database.db, { dataDir });

const stripe = await startStripeStandIn();
const config = testConfig(dataDir, {
  databaseUrl,
  stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.url },
  publicUrl: 'https://book.example.test',
  // the bookers all come from this one address
  publicBookingsPerAddress: 1_000_000,
  logLevel: 'silent',
  bookingBurst: burst,
});

/** A trip on sale with this many places, 200 days away, with a plan, add-ons and a description. */
async function tripOnSale(name: string, capacity: number) {
  const departure = addDays(ukToday(), 200);
  const trip = await insertTrip(database.db, {
    name,
    departureDate: departure,
    returnDate: addDays(departure, 8),
    capacity,
    type: 'open',
    onlineBooking: true,
    bookingSlug: name.toLowerCase().replace(/\s+/g, '-'),
    description: 'Eight days on foot with guides, all meals and camping.',
  });
  return trip;
}

const readTrip = await tripOnSale('Launch Day Read', 1000);
const bookTrip = await tripOnSale('Launch Day Book', placesOnSale);
// the server has been up all morning: its pooled connections have made bookings before
const warmTrip = await tripOnSale('Launch Day Warm Up', 40);

async function serve(pageCacheOff: boolean) {
  const app = await buildApp({ config: { ...config, publicPageCacheMs: pageCacheOff ? 0 : 2000 }, db: database.db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port };
}

// the clients: a worker thread with its own connections
const clientSource = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const call = (port, method, path, headers, body) => new Promise((resolve, reject) => {
  const t0 = performance.now();
  const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
  });
  req.on('error', reject);
  if (body) req.write(body);
  req.end();
});
let people = [];
parentPort.on('message', async (m) => {
  if (m.kind === 'read') {
    const times = [];
    const codes = {};
    const began = performance.now();
    await Promise.all(Array.from({ length: m.clients }, async () => {
      while (performance.now() - began < m.ms) {
        const r = await call(m.port, 'GET', m.path, { accept: 'application/json' });
        codes[r.status] = (codes[r.status] ?? 0) + 1;
        times.push(r.ms);
      }
    }));
    parentPort.postMessage({ times, codes, elapsed: performance.now() - began });
  } else if (m.kind === 'visit') {
    // each booker opens the page first (its session cookie and CSRF token)
    people = await Promise.all(Array.from({ length: m.bookers }, async (_, i) => {
      const page = await call(m.port, 'GET', m.page, { accept: 'text/html' });
      const cookie = (page.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
      const token = /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)[1];
      return { cookie, token, i };
    }));
    parentPort.postMessage({ visited: people.length });
  } else {
    // then all post at once
    const results = await Promise.all(people.map((p) => call(m.port, 'POST', m.path, {
      'content-type': 'application/json', accept: 'application/json', cookie: p.cookie, 'x-csrf-token': p.token,
    }, JSON.stringify({
      title: 'Ms', first_name: 'Launch', last_name: 'Booker' + p.i, email: m.prefix + p.i + '@example.test',
      mobile: '07700 900' + String(p.i).padStart(3, '0'), date_of_birth: '1990-01-01', address_1: '1 Launch Row',
      post_code: 'N1 1AA', funding_type: 'self', as_on_passport: true, terms_accepted: true,
    }))));
    parentPort.postMessage({ results: results.map((r) => ({ status: r.status, ms: r.ms })) });
  }
});`;
const worker = new Worker(clientSource, { eval: true });
const ask = <T>(message: Record<string, unknown>) =>
  new Promise<T>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (answer: T) => {
      worker.off('error', reject);
      resolve(answer);
    });
    worker.postMessage(message);
  });

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const f = (n: number) => n.toFixed(2);

// 1. reading the page
const rows: string[][] = [];
for (const cacheOff of [false, true]) {
  const { app, port } = await serve(cacheOff);
  const path = `/api/public/trips/${readTrip.bookingSlug}`;
  // warmed up as a server that has run a while is: its hot code compiled, its heap grown (a short
  // warm-up put the first seconds' compiling and collecting into the p95)
  await ask({ kind: 'read', port, path, clients, ms: Number(values.warmup) * 1000 });
  const profiling = !cacheOff && values['profile-read'] ? new inspector.Session() : null;
  if (profiling) {
    profiling.connect();
    await profiling.post('Profiler.enable');
    await profiling.post('Profiler.setSamplingInterval', { interval: 200 });
    await profiling.post('Profiler.start');
  }
  const r = await ask<{ times: number[]; codes: Record<string, number>; elapsed: number }>({
    kind: 'read',
    port,
    path,
    clients,
    ms: seconds * 1000,
  });
  if (profiling) {
    const { profile } = await profiling.post('Profiler.stop');
    writeFileSync(values['profile-read']!, JSON.stringify(profile));
    profiling.disconnect();
  }
  const sorted = [...r.times].sort((a, b) => a - b);
  rows.push([
    cacheOff ? 'without the page cache' : 'with the page cache (production)',
    String(clients),
    (r.times.length / (r.elapsed / 1000)).toFixed(0),
    f(pct(sorted, 50)),
    f(pct(sorted, 95)),
    JSON.stringify(r.codes),
  ]);
  await app.close();
}
console.log(
  `\nGET /api/public/trips/{slug}, ${clients} clients for ${seconds} s (${databaseUrl ? 'PostgreSQL' : 'PGlite'}; budget ≥ 1,000 a second, p95 ≤ 20 ms)\n`,
);
console.log('| server | clients | requests a second | p50 ms | p95 ms | replies |');
console.log('|---|---:|---:|---:|---:|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);

/**
 * What the posts cost: this process's CPU (the server, and the clients' thread beside it) and
 * PostgreSQL's (its processes' user and system time, when it runs on this machine), over the wall
 * time; with --profile FILE, a CPU profile of the server's thread during the posts alone.
 */
class Measure {
  private session: inspector.Session | null = null;
  private at = { wall: 0, cpu: process.cpuUsage(), pg: 0 };
  private took = { wall: 0, cpuMs: 0, pgMs: 0 };

  private static pgCpuMs(): number {
    let ticks = 0;
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (!stat.includes('(postgres)')) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // gone meanwhile
      }
    }
    return ticks * 10; // 100 ticks a second
  }

  async start() {
    if (values.profile) {
      this.session = new inspector.Session();
      this.session.connect();
      await this.session.post('Profiler.enable');
      await this.session.post('Profiler.setSamplingInterval', { interval: 200 });
      await this.session.post('Profiler.start');
    }
    this.at = { wall: performance.now(), cpu: process.cpuUsage(), pg: Measure.pgCpuMs() };
  }

  async stop() {
    const cpu = process.cpuUsage(this.at.cpu);
    this.took = {
      wall: performance.now() - this.at.wall,
      cpuMs: (cpu.user + cpu.system) / 1000,
      pgMs: Measure.pgCpuMs() - this.at.pg,
    };
    if (this.session) {
      const { profile } = await this.session.post('Profiler.stop');
      writeFileSync(values.profile!, JSON.stringify(profile));
      this.session.disconnect();
    }
  }

  report(): string {
    const { wall, cpuMs, pgMs } = this.took;
    return `During the posts: ${f(wall)} ms of wall time; this process ${f(cpuMs)} ms of CPU, PostgreSQL ${f(pgMs)} ms${values.profile ? `; the server's profile in ${values.profile}` : ''}`;
  }
}

// 2. booking at once
{
  const { app, port } = await serve(false);
  const book = async (trip: typeof bookTrip, n: number, prefix: string, during?: Measure) => {
    await ask({ kind: 'visit', port, page: `/book/${trip.bookingSlug}`, bookers: n });
    await during?.start();
    const r = await ask<{ results: Array<{ status: number; ms: number }> }>({
      kind: 'book',
      port,
      path: `/api/public/trips/${trip.bookingSlug}/bookings`,
      prefix,
    });
    await during?.stop();
    return r;
  };
  const setupsMade = async () => {
    for (;;) {
      const [left] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from booking_setups`);
      if (Number(left!.n) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  await book(warmTrip, 40, 'warm');
  // the warm-up's own setups are not part of the launch's figures
  await setupsMade();
  const measure = new Measure();
  const r = await book(bookTrip, bookers, 'launch', measure);
  const made = r.results.filter((x) => x.status === 201).length;
  const full = r.results.filter((x) => x.status === 409).length;
  const other = r.results.filter((x) => x.status !== 201 && x.status !== 409);
  const sorted = r.results.map((x) => x.ms).sort((a, b) => a - b);
  const [kept] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from bookings where trip_id = ${bookTrip.id} and status <> 'cancelled'`,
  );
  console.log(
    `\n${bookers} bookings posted at once for ${placesOnSale} places (budget: exactly ${placesOnSale} made, none lost, p95 ≤ 500 ms)\n`,
  );
  console.log('| made (201) | told full (409) | other replies | in the database | p50 ms | p95 ms | max ms |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  console.log(
    `| ${made} | ${full} | ${other.length ? JSON.stringify(other.map((o) => o.status)) : 0} | ${kept!.n} | ${f(pct(sorted, 50))} | ${f(pct(sorted, 95))} | ${f(sorted.at(-1)!)} |`,
  );
  console.log(`\n${measure.report()}`);
  // the setups the server makes once the burst is over
  const after = performance.now();
  await setupsMade();
  const setupMs = performance.now() - after;
  const [bills] = await queryRows<{ bookings: number; one: number }>(
    database.db,
    sql`select count(*)::int as bookings, count(*) filter (where (select count(*) from invoices i where i.booking_id = b.id and i.type = 'deposit') = 1)::int as one
      from bookings b where b.trip_id = ${bookTrip.id} and b.status <> 'cancelled'`,
  );
  console.log(
    `\nBOOKING_BURST=${burst}: the schedules, deposit invoices and emails of the bookings made ${f(setupMs)} ms after the last reply; ${bills!.one} of ${bills!.bookings} with one deposit invoice\n`,
  );
  await app.close();
}

await worker.terminate();
await stripe.close();
await database.close();
await dropDb();
