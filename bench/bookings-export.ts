// Booking export: time and peak extra memory of exporting 5,000 bookings with every column
// through the real route (GET /bookings/export), as .xlsx and as the passport zip.
// DESIGN.md budget: ≤ 0.5 s and ≤ 100 MB extra memory, streamed.
//   node --expose-gc --import tsx bench/bookings-export.ts [--bookings 5000] [--runs 5] [--image-kb 30] [--format xls|passportZip]
// PGlite in a temporary folder by default, or the PostgreSQL server of DATABASE_URL (a database
// tripdesk_bench_export of its own, dropped at the end). The reply is read over a real HTTP
// connection and thrown away, so only the server side's memory is measured. Then, for 3,000 and
// 5,000 rows, how long the export holds up other requests: a signed-in GET /api/me every 20 ms
// while it runs, its latency (budget: under 100 ms). Prints tables; asserts nothing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { EXPORT_COLUMNS } from '../src/contract/bookings.ts';
import { createDb, queryRows } from '../src/db/client.ts';
import { createFileStore } from '../src/shared/storage/index.ts';
import { insertUser } from '../src/db/factories/users.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { GENERATED_REFS, seedScale } from '../src/db/seed/scale.ts';
import { buildApp } from '../src/server/app.ts';
import { testConfig, TestClient } from '../tests/support/test-app.ts';

const { values } = parseArgs({
  options: {
    bookings: { type: 'string', default: '5000' },
    runs: { type: 'string', default: '5' },
    'image-kb': { type: 'string', default: '30' },
    format: { type: 'string', default: 'both' },
  },
});
const total = Number(values.bookings);
const runs = Number(values.runs);
const imageKb = Number(values['image-kb']);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.error('run with node --expose-gc for steadier memory figures');

const url = process.env.DATABASE_URL;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-export-bench-'));
let databaseUrl: string | undefined;
let dropDb: (() => Promise<void>) | undefined;
if (url) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS tripdesk_bench_export WITH (FORCE)');
  await admin.query('CREATE DATABASE tripdesk_bench_export');
  const u = new URL(url);
  u.pathname = '/tripdesk_bench_export';
  databaseUrl = u.toString();
  dropDb = async () => {
    await admin.query('DROP DATABASE IF EXISTS tripdesk_bench_export WITH (FORCE)');
    await admin.end();
  };
}
const database = await createDb({ databaseUrl, pgliteDir: url ? undefined : path.join(dataDir, 'pglite') });
await database.migrate();
await seedDemo(database.db, { dataDir });
await seedScale(database.db, total, () => {});
// every generated booking gets a passport image of its own (random bytes: they do not compress,
// like the JPEGs people upload)
const ids = await queryRows<{ id: number }>(
  database.db,
  sql`select id from bookings where ref like ${GENERATED_REFS} order by id`,
);
const files = createFileStore({ driver: 'local', dataDir });
for (const { id } of ids) await files.put('passports', `bench-${id}.jpg`, randomBytes(imageKb * 1024));
await database.db.execute(
  sql`update bookings set passport_image_file = 'bench-' || id || '.jpg' where ref like ${GENERATED_REFS}`,
);
await database.db.execute(sql`analyze bookings`);

const email = 'export-bench@example.test';
await insertUser(database.db, { email, password: 'bench-password-123', roleId: 1 });
const app = await buildApp({ config: testConfig(dataDir), db: database.db });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;
const client = new TestClient(app);
await client.login(email, 'bench-password-123');
const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** Reads the reply over HTTP and throws it away; resolves with its size. */
function download(query: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: `/bookings/export?${query}`, headers: { cookie } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const MB = 1024 * 1024;
const columns = encodeURIComponent(JSON.stringify(EXPORT_COLUMNS.map((c) => c.key)));
const formats: Array<[string, string]> = [
  [`.xlsx, all ${EXPORT_COLUMNS.length} columns`, `format=xls&perPage=5000&timing=all&columns=${columns}`],
  [`passport zip (${imageKb} KB images)`, `format=passportZip&perPage=5000&timing=all`],
];
console.log(
  `\n${database.kind}, ${total.toLocaleString('en-GB')} generated bookings + the demo office, ${runs} runs each after one warm-up\n`,
);
console.log(
  '| export                       | rows  | size     | p50 s | max s | CPU p50 s | peak extra RSS | peak extra heap+external |',
);
console.log(
  '|------------------------------|-------|----------|-------|-------|-----------|----------------|--------------------------|',
);
for (const [name, query] of formats.filter(
  ([, q]) => values.format === 'both' || q.startsWith(`format=${values.format}&`),
)) {
  const times: number[] = [];
  const cpu: number[] = [];
  let rss = 0;
  let heap = 0;
  let size = 0;
  for (let i = 0; i <= runs; i++) {
    gc?.();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed + base.external;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed + m.external);
    }, 5);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    size = await download(query);
    const s = (performance.now() - t0) / 1000;
    // this process's CPU time (server, and PGlite when embedded): steadier than wall time when
    // other work shares the cores
    const c = process.cpuUsage(c0);
    clearInterval(sampler);
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed + m.external);
    if (i === 0) continue; // warm-up
    times.push(s);
    cpu.push((c.user + c.system) / 1e6);
    rss = Math.max(rss, peakRss - base.rss);
    heap = Math.max(heap, peakHeap - base.heapUsed - base.external);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const rows = name.startsWith('.xlsx') ? Math.min(5000, total) : ids.length;
  console.log(
    `| ${name.padEnd(28)} | ${String(rows).padStart(5)} | ${`${(size / MB).toFixed(1)} MB`.padStart(8)} | ${times[Math.floor(times.length / 2)]!.toFixed(2).padStart(5)} | ${times[times.length - 1]!.toFixed(2).padStart(5)} | ${cpu[Math.floor(cpu.length / 2)]!.toFixed(2).padStart(9)} | ${`${(rss / MB).toFixed(0)} MB`.padStart(14)} | ${`${(heap / MB).toFixed(0)} MB`.padStart(24)} |`,
  );
}

/** The latency of GET /api/me, asked every 20 ms over its own connection while `work` runs. */
async function latencyDuring(work: Promise<unknown>): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const me = () =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      http
        .get({ host: '127.0.0.1', port, path: '/api/me', headers: { cookie }, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(performance.now() - t0));
        })
        .on('error', reject);
    });
  await me();
  let done = false;
  void work.finally(() => (done = true));
  const times: number[] = [];
  while (!done) {
    times.push(await me());
    await new Promise((r) => setTimeout(r, 20));
  }
  agent.destroy();
  return times.sort((a, b) => a - b);
}

console.log('\nOther requests during an .xlsx export of every column (GET /api/me every 20 ms)\n');
console.log('| rows  | export s | requests | p50 ms | p95 ms | max ms |');
console.log('|-------|----------|----------|--------|--------|--------|');
for (const rows of [3000, 5000].filter((n) => n <= total)) {
  const t0 = performance.now();
  const times = await latencyDuring(download(`format=xls&perPage=${rows}&timing=all&columns=${columns}`));
  const s = (performance.now() - t0) / 1000;
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1).padStart(6);
  console.log(
    `| ${String(rows).padStart(5)} | ${s.toFixed(2).padStart(8)} | ${String(times.length).padStart(8)} | ${at(0.5)} | ${at(0.95)} | ${times.at(-1)!.toFixed(1).padStart(6)} |`,
  );
}

await app.close();
await database.close();
await dropDb?.();
rmSync(dataDir, { recursive: true, force: true });
