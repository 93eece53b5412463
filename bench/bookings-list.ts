// Booking list speed on a large office: p50/p95 of the four views DESIGN.md budgets.
//   npx tsx bench/bookings-list.ts [--bookings 1000000] [--runs 30]
// Uses PGlite in a temporary folder, or the PostgreSQL server of DATABASE_URL (it makes and
// drops a database of its own there). Prints a table; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createDb, queryRows } from '../src/db/client.ts';
import { insertUser } from '../src/db/factories/users.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { seedScale } from '../src/db/seed/scale.ts';
import { buildApp } from '../src/server/app.ts';
import { sql } from 'drizzle-orm';
import { testConfig, TestClient } from '../tests/support/test-app.ts';

const { values } = parseArgs({ options: { bookings: { type: 'string', default: '1000000' }, runs: { type: 'string', default: '30' } } });
const total = Number(values.bookings);
const runs = Number(values.runs);
const url = process.env.DATABASE_URL;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-bench-'));
let dropDb: (() => Promise<void>) | undefined;
let databaseUrl: string | undefined;
if (url) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS tripdesk_bench WITH (FORCE)');
  await admin.query('CREATE DATABASE tripdesk_bench');
  const u = new URL(url);
  u.pathname = '/tripdesk_bench';
  databaseUrl = u.toString();
  dropDb = async () => {
    await admin.query('DROP DATABASE IF EXISTS tripdesk_bench WITH (FORCE)');
    await admin.end();
  };
}
const database = await createDb({ databaseUrl, pgliteDir: url ? undefined : path.join(dataDir, 'pglite') });
await database.migrate();
await seedDemo(database.db, { dataDir });
const started = Date.now();
await seedScale(database.db, total, (done) => process.stderr.write(`\rseeding ${done.toLocaleString('en-GB')} / ${total.toLocaleString('en-GB')}`));
process.stderr.write(`\nseeded in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);

await insertUser(database.db, { email: 'bench@example.test', password: 'bench-password-123', roleId: 1 });
const app = await buildApp({ config: testConfig(dataDir), db: database.db });
await app.ready();
const client = new TestClient(app);
await client.login('bench@example.test', 'bench-password-123');
const trips = (await queryRows<{ id: number }>(database.db, sql`select id from trips order by id limit 3`)).map((r) => r.id);

const scenarios: Array<[string, string]> = [
  ['default view (future, newest first)', ''],
  ['name search "smith"', 'name=smith&timing=all'],
  ['three trips', `timing=all&${trips.map((t) => `trips[]=${t}`).join('&')}`],
  ['deep page (page 2000)', 'timing=all&page=2000'],
];

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
console.log(`\n${database.kind}, ${total.toLocaleString('en-GB')} generated bookings + the demo office, ${runs} runs each\n`);
console.log('| view                                 | p50 ms | p95 ms | matches   |');
console.log('|--------------------------------------|--------|--------|-----------|');
for (const [name, qs] of scenarios) {
  const times: number[] = [];
  let matches = 0;
  for (let i = 0; i < runs + 2; i++) {
    const t0 = performance.now();
    const res = await client.get(`/api/bookings?${qs}`);
    const ms = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body}`);
    matches = res.json().total;
    if (i >= 2) times.push(ms); // two warm-up runs
  }
  times.sort((a, b) => a - b);
  console.log(`| ${name.padEnd(36)} | ${pct(times, 50).toFixed(1).padStart(6)} | ${pct(times, 95).toFixed(1).padStart(6)} | ${matches.toLocaleString('en-GB').padStart(9)} |`);
}
await app.close();
await database.close();
await dropDb?.();
rmSync(dataDir, { recursive: true, force: true });
