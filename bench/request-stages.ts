// Where a request's time goes outside its SQL, stage by stage, over HTTP: for GET /api/me, the
// refunds owed (one statement), the default booking list and the one-row lists of bench/lists.ts,
// the median of each stage of `--calls` calls (after a warm-up of as many), in µs. Each stage is
// marked by a Fastify hook added last, so it ends after the app's own hooks of that kind; the
// statements are timed from the pg client's call to its answer. Calls come from a worker thread,
// as in bench/lists.ts, so that the client's own work is not counted as the server's.
// With --hooks, also each of the app's hooks on its own: from its call to its done() or its
// promise settling, so that what runs after it (the next hooks, the write) is not counted as its.
//   DATABASE_URL=postgresql://… npx tsx bench/request-stages.ts [--calls 300] [--only NAME] [--hooks]
// Prints a table; asserts nothing. Seeded as bench/lists.ts (npm run db:seed -- --bookings 1000000).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDb, queryRows } from '../src/db/client.ts';
import { insertUser } from '../src/db/factories/users.ts';
import { GENERATED_REFS } from '../src/db/seed/scale.ts';
import { buildApp } from '../src/server/app.ts';
import { testConfig } from '../tests/support/test-app.ts';
import { at, startClient, timeInside, timeStatements } from './support/timing.ts';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '300' }, only: { type: 'string' }, hooks: { type: 'boolean' } },
});
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

// --hooks: every hook the app adds is wrapped as it is added (Fastify's own Hooks.add), named by
// its kind, its order and the start of its source
type Hook = (this: unknown, ...args: unknown[]) => unknown;
const hookTimes = new Map<string, number[]>();
let stopWrapping = () => {};
if (values.hooks) {
  const { Hooks } = createRequire(import.meta.url)('fastify/lib/hooks.js') as {
    Hooks: { prototype: { add(this: unknown, kind: string, fn: Hook): void } };
  };
  const add = Hooks.prototype.add;
  // the app's hooks only: the marks this bench adds after it are left alone
  stopWrapping = () => (Hooks.prototype.add = add);
  let order = 0;
  Hooks.prototype.add = function (kind, fn) {
    const source = String(fn).replace(/\s+/g, ' ');
    const name = `${kind} ${++order}: ${fn.name || source.slice(0, 50)}`;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      const start = at();
      let done = false;
      const end = () => {
        if (done) return;
        done = true;
        const times = hookTimes.get(name) ?? [];
        hookTimes.set(name, times);
        times.push(at() - start);
      };
      const next = args.at(-1);
      if (typeof next === 'function')
        args[args.length - 1] = (...a: unknown[]) => {
          end();
          return (next as Hook)(...a);
        };
      const result = fn.apply(this, args);
      if (result instanceof Promise) return result.finally(end);
      return result;
    };
    // Fastify tells a hook that takes a callback from one that returns a promise by its arity
    Object.defineProperty(wrapped, 'length', { value: fn.length });
    add.call(this, kind, wrapped);
  };
}

const database = await createDb({ databaseUrl: url });
await database.migrate();
const db = database.db;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-stages-'));
const email = `stages-bench-${Date.now()}@example.test`;
await insertUser(db, { email, password: 'bench-password-123', roleId: 1 });
const app = await buildApp({ config: testConfig(dataDir, { env: 'production' }), db });
stopWrapping();
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
  sql`select ref, email from bookings where trip_departure >= current_date order by (ref like ${GENERATED_REFS}) desc, id desc limit 1`,
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
const hookColumns: Array<Map<string, number>> = [];
for (const [name, target] of chosen) {
  await timed(target, calls);
  marks.length = 0;
  hookTimes.clear();
  const { spans, status } = await timed(target, calls);
  if (status !== 200) throw new Error(`${name}: not 200`);
  if (marks.length !== spans.length) throw new Error(`${name}: ${marks.length} requests for ${spans.length} calls`);
  const each = spans.map((span, i) => stagesOf(span, marks[i]!));
  columns.push(Object.fromEntries(stages.map((s) => [s, median(each.map((e) => e[s]))])) as Record<Stage, number>);
  hookColumns.push(new Map([...hookTimes].map(([hook, times]) => [hook, median(times)])));
}
for (const stage of stages) console.log(`| ${stage} | ${columns.map((c) => cell(c[stage])).join(' | ')} |`);
if (values.hooks) {
  console.log(`\neach hook on its own, median µs (– where it did not run)\n`);
  console.log(`| hook | ${chosen.map(([n]) => n).join(' | ')} |`);
  console.log(`|---|${chosen.map(() => '---:').join('|')}|`);
  const names = [...new Set(hookColumns.flatMap((c) => [...c.keys()]))].sort(
    (a, b) => Number(a.split(' ')[1]!.slice(0, -1)) - Number(b.split(' ')[1]!.slice(0, -1)),
  );
  for (const hook of names)
    console.log(`| ${hook.replace(/\|/g, '¦')} | ${hookColumns.map((c) => cell(c.get(hook) ?? NaN)).join(' | ')} |`);
}

await client.close();
await app.close();
await db.execute(sql`delete from users where email = ${email}`);
await database.close();
rmSync(dataDir, { recursive: true, force: true });
