// Where a request's time goes outside its SQL, stage by stage, over HTTP: for GET /api/me, the
// refunds owed (one statement), the default booking list and the one-row lists of bench/lists.ts,
// the median of each stage of `--calls` calls (after a warm-up of as many), in µs. Each stage is
// marked by a Fastify hook added last, so it ends after the app's own hooks of that kind; the
// statements are timed from the pg client's call to its answer. Calls come from a worker thread,
// as in bench/lists.ts, so that the client's own work is not counted as the server's.
//   DATABASE_URL=postgresql://… npx tsx bench/request-stages.ts [--calls 300] [--only NAME]
// Prints a table; asserts nothing. Seeded as bench/lists.ts (npm run db:seed -- --bookings 1000000).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDb, queryRows } from '../src/db/client.ts';
import { insertUser } from '../src/db/factories/users.ts';
import { buildApp } from '../src/server/app.ts';
import { testConfig } from '../tests/support/test-app.ts';
import { at, startClient, timeInside, timeStatements } from './support/timing.ts';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '300' }, only: { type: 'string' } } });
const calls = Number(values.calls);
const url = process.env.DATABASE_URL;
if (!url?.startsWith('postgres')) {
  console.error('bench/request-stages.ts runs on PostgreSQL: DATABASE_URL=postgresql://…');
  process.exit(1);
}

type Marks = {
  arrive: number;
  onRequest?: number;
  preValidation?: number;
  preHandler?: number;
  preSerialization?: number;
  onSend?: number;
  statements: Array<[number, number]>;
};
// the request being served (the calls are one at a time), and every request's marks in order
let current: Marks = { arrive: 0, statements: [] };
const marks: Marks[] = [];

// each statement timed from the client's call to its answer, as part of the request being served
timeStatements(() => {
  const request = current;
  return (start, end) => request.statements.push([start, end]);
});

const database = await createDb({ databaseUrl: url });
await database.migrate();
const db = database.db;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-stages-'));
const email = `stages-bench-${Date.now()}@example.test`;
await insertUser(db, { email, password: 'bench-password-123', roleId: 1 });
const app = await buildApp({ config: testConfig(dataDir, { env: 'production' }), db });
for (const hook of ['onRequest', 'preValidation', 'preHandler', 'preSerialization', 'onSend'] as const)
  app.addHook(hook, async () => {
    current[hook] = at();
  });
await app.listen({ port: 0, host: '127.0.0.1' });
// before Fastify's own listener: the moment the request reached the server
app.server.prependListener('request', () => {
  current = { arrive: at(), statements: [] };
  marks.push(current);
});
const port = (app.server.address() as { port: number }).port;
const login = await app.inject({
  method: 'POST',
  url: '/login',
  payload: { email, password: 'bench-password-123' },
});
if (login.statusCode !== 204) throw new Error(`sign-in: ${login.statusCode} ${login.body}`);
const cookie = String(login.headers['set-cookie']).split(';')[0]!;

const [one] = await queryRows<{ ref: string; email: string }>(
  db,
  sql`select ref, email from bookings where trip_departure >= current_date order by (ref like 'TDS%') desc, id desc limit 1`,
);
const targets: Array<[string, string]> = [
  ['GET /api/me', '/api/me'],
  ['refunds owed', '/api/money-due/refunds'],
  ['bookings: default first page', '/api/bookings'],
  ['bookings: one row by reference', `/api/bookings?booking_ref=${one?.ref}`],
  ['bookings: one row by email', `/api/bookings?email=${encodeURIComponent(one?.email ?? '')}`],
];

// the calls come from a worker thread (bench/support/timing.ts)
const client = startClient();
const timed = async (target: string, n: number) => {
  const { spans, status } = await client.timed({
    port,
    path: target,
    headers: { cookie, accept: 'application/json' },
    calls: n,
    inFlight: 1,
  });
  return { spans, status };
};

const stages = [
  'client → server',
  'onRequest hooks',
  'preValidation hooks',
  'validation, preHandler',
  'handler → 1st statement',
  'in statements',
  'between statements',
  'last statement → return',
  'serialization, onSend',
  'write, server → client',
  'total',
  'outside statements',
] as const;
type Stage = (typeof stages)[number];

function stagesOf([from, to]: [number, number], m: Marks): Record<Stage, number> {
  const s = [...m.statements].sort((a, b) => a[0] - b[0]);
  const inside = timeInside(s, from, to);
  const first = s[0]?.[0];
  const lastEnd = s.length ? Math.max(...s.map((x) => x[1])) : undefined;
  const handlerEnd = m.preSerialization ?? m.onSend ?? to;
  return {
    'client → server': m.arrive - from,
    'onRequest hooks': (m.onRequest ?? NaN) - m.arrive,
    'preValidation hooks': (m.preValidation ?? NaN) - (m.onRequest ?? NaN),
    'validation, preHandler': (m.preHandler ?? NaN) - (m.preValidation ?? NaN),
    'handler → 1st statement': first === undefined ? NaN : first - (m.preHandler ?? NaN),
    'in statements': inside,
    'between statements': first === undefined || lastEnd === undefined ? NaN : lastEnd - first - inside,
    'last statement → return': handlerEnd - (lastEnd ?? m.preHandler ?? NaN),
    'serialization, onSend': (m.onSend ?? NaN) - handlerEnd,
    'write, server → client': to - (m.onSend ?? NaN),
    total: to - from,
    'outside statements': to - from - inside,
  };
}

const median = (xs: number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? s[s.length >> 1]! : NaN;
};
const cell = (ms: number) => (Number.isNaN(ms) ? '–' : String(Math.round(ms * 1000))).padStart(6);

console.log(`\nmedian µs of ${calls} calls one at a time over HTTP (keep-alive), after ${calls} warm-up calls\n`);
console.log(
  `| stage | ${targets
    .filter(([n]) => !values.only || n.includes(values.only))
    .map(([n]) => n)
    .join(' | ')} |`,
);
const chosen = targets.filter(([name]) => !values.only || name.includes(values.only));
console.log(`|---|${chosen.map(() => '---:').join('|')}|`);
const columns: Array<Record<Stage, number>> = [];
for (const [name, target] of chosen) {
  await timed(target, calls);
  marks.length = 0;
  const { spans, status } = await timed(target, calls);
  if (status !== 200) throw new Error(`${name}: not 200`);
  if (marks.length !== spans.length) throw new Error(`${name}: ${marks.length} requests for ${spans.length} calls`);
  const each = spans.map((span, i) => stagesOf(span, marks[i]!));
  columns.push(Object.fromEntries(stages.map((s) => [s, median(each.map((e) => e[s]))])) as Record<Stage, number>);
}
for (const stage of stages) console.log(`| ${stage} | ${columns.map((c) => cell(c[stage])).join(' | ')} |`);

await client.close();
await app.close();
await db.execute(sql`delete from users where email = ${email}`);
await database.close();
rmSync(dataDir, { recursive: true, force: true });
