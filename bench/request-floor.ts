// The fixed cost of a signed-in request ("the per-request floor"): p50/p95 of a call
// that does almost nothing — GET /api/bookings?booking_ref=<one booking> — through the whole
// server (Fastify inject: routing, session, user, CSRF-free GET, validation, the query, the
// reply), beside the same call's SQL alone and an unauthenticated /healthz. Budget: under 1 ms
// p50 on PostgreSQL for the signed-in call.
//   DATABASE_URL=postgresql://… npx tsx bench/request-floor.ts [--runs 3000]
// Uses the PostgreSQL server of DATABASE_URL (a database tripdesk_floor of its own, remade each
// run, with the demo office) or PGlite in a temporary folder. Prints a table; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { createDb, queryRows } from '../src/db/client.ts';
import { insertUser } from '../src/db/factories/users.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { bookingListQuery } from '../src/contract/bookings.ts';
import { listBookings } from '../src/server/modules/bookings/list.ts';
import { buildApp } from '../src/server/app.ts';
import { testConfig, TestClient } from '../tests/support/test-app.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3000' } } });
const runs = Number(values.runs);
const url = process.env.DATABASE_URL;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-floor-'));

let databaseUrl: string | undefined;
let admin: pg.Client | undefined;
if (url) {
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS tripdesk_floor WITH (FORCE)');
  await admin.query('CREATE DATABASE tripdesk_floor');
  const u = new URL(url);
  u.pathname = '/tripdesk_floor';
  databaseUrl = u.toString();
}
const database = await createDb(databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, 'pglite') });
await database.migrate();
const db = database.db;
await seedDemo(db, { dataDir });
await db.execute(sql`analyze`);
const [one] = await queryRows<{ ref: string }>(db, sql`select ref from bookings order by id limit 1`);
const ref = one!.ref;

const email = 'floor-bench@example.test';
await insertUser(db, { email, password: 'bench-password-123', roleId: 1 });
const app = await buildApp({ config: testConfig(dataDir), db });
await app.ready();
const client = new TestClient(app);
await client.login(email, 'bench-password-123');

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const f2 = (n: number) => n.toFixed(3).padStart(8);
async function measure(name: string, call: () => Promise<unknown>) {
  for (let i = 0; i < Math.min(300, runs); i++) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`| ${name.padEnd(56)} | ${f2(pct(times, 50))} | ${f2(pct(times, 95))} |`);
}

const check = await client.get(`/api/bookings?booking_ref=${ref}`);
if (check.statusCode !== 200 || check.json().data.length !== 1)
  throw new Error(`the call does not find one booking: ${check.statusCode} ${check.body.slice(0, 200)}`);

console.log(`\n${database.kind}, the demo office; ${runs} calls each after a warm-up, one at a time\n`);
console.log('| call                                                     |   p50 ms |   p95 ms |');
console.log('|----------------------------------------------------------|----------|----------|');
await measure('SQL: select 1', () => db.execute(sql`select 1`));
await measure('SQL: the session row and the user row (two queries)', async () => {
  await db.execute(sql`select data from sessions where id = 'none' and expires_at > now()`);
  await db.execute(sql`select id, user_role_id from users where id = 1`);
});
await measure('GET /healthz (no session)', () => app.inject({ method: 'GET', url: '/healthz' }));
await measure('GET /api/me (signed in: the session and the user only)', () => client.get('/api/me'));
await measure(`SQL: the call's own queries (EXPLAIN ANALYZE-free, through Drizzle)`, () =>
  db.execute(sql`select id from bookings where ref = ${ref}`),
);
const filter = bookingListQuery.parse({ booking_ref: ref });
await measure(`the route's service alone: listBookings (no HTTP, no session)`, () => listBookings(db, filter));
await measure(`GET /api/bookings?booking_ref=${ref} (signed in)`, () => client.get(`/api/bookings?booking_ref=${ref}`));

await app.close();
await database.close();
await admin?.end();
rmSync(dataDir, { recursive: true, force: true });
