import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../src/db/client.ts';
import { insertAddon, insertTrip } from '../../src/db/factories/trips.ts';
import { insertUser } from '../../src/db/factories/users.ts';
import { buildApp } from '../../src/server/app.ts';
import { startJobQueue, type JobQueue } from '../../src/server/jobs/queue.ts';
import { DATA_EXCEPTION_LOG } from '../../src/server/plugins/errors.ts';
import { createTestDatabase, PASSWORD, TestClient, testConfig } from '../support/test-app.ts';
import { arbitraryFor, defaultHints, hostileValue, type Hints, type JsonSchema } from './arbitraries.ts';

/**
 * The contract fuzzer: every route of the OpenAPI document the app serves, with requests made
 * from the route's own schemas and with hostile mutations of them, signed in as an
 * Administrator (cookie + CSRF) and again with a bearer token. No reply may be a 5xx or carry a
 * stack trace, every 4xx has the DESIGN.md shape, and a refused request changes nothing.
 *
 *   FUZZ_RUNS=200 npm run test:api -- tests/fuzz          longer runs (default 10 per route and mode)
 *   FUZZ_SEED=123 FUZZ_ROUTE='POST /api/trips' …          replay one route with one seed
 *
 * The routes are dealt to SHARDS test files (api-N.fuzz.test.ts), each with an office of its
 * own, so that the test runner's workers share the work.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const ONLY = process.env.FUZZ_ROUTE;

type Operation = {
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
};
type Route = { method: string; path: string; op: Operation };
type Auth = 'session' | 'bearer' | 'traveller';
type Req = { method: string; url: string; headers: Record<string, string>; payload?: string | Buffer };
type Failure = { route: string; auth: Auth; why: string; request: Req; status: number; body: string };

let database: Database;
let jobs: JobQueue | undefined;
let app: FastifyInstance;
let dataDir: string;
const logLines: string[] = [];
let routes: Route[] = [];
let allRoutes: Route[] = [];
let session: TestClient;
/** the booking's traveller (an End User), signed in to their own pages: /api/my is fuzzed as them */
let traveller: TestClient;
const TRAVELLER_EMAIL = 'ada@example.test';
let bearer = '';
const ids: Record<string, Array<number | string>> = {};
let sentTotal = 0;
const statuses = new Map<number, number>();

// ---- the office the fuzzer works in: one of everything, made through the API itself ----

async function signInAdmin() {
  const email = `fuzz.admin.${Date.now()}.${Math.random().toString(36).slice(2)}@example.test`;
  const user = await insertUser(database.db, {
    email,
    password: PASSWORD,
    roleId: 1,
    firstName: 'Fuzz',
    lastName: 'Admin',
  });
  session = new TestClient(app);
  const res = await session.login(email, PASSWORD);
  if (res.statusCode !== 204) throw new Error(`sign-in failed: ${res.statusCode}`);
  (ids.users ??= []).push(user.id);
  const token = await session.post('/oauth/personal-access-tokens', {
    name: 'fuzz',
    scopes: [
      'bookings:read',
      'bookings:write',
      'trips:read',
      'trips:write',
      'finance:read',
      'finance:write',
      'users:read',
    ],
  });
  if (token.statusCode !== 200 && token.statusCode !== 201)
    throw new Error(`token failed: ${token.statusCode} ${token.body}`);
  bearer = token.json().accessToken;
}

async function signInTraveller() {
  traveller = new TestClient(app);
  const res = await traveller.login(TRAVELLER_EMAIL, PASSWORD);
  if (res.statusCode !== 204) throw new Error(`traveller sign-in failed: ${res.statusCode}`);
  await traveller.refreshCsrf('/my');
}

async function made(res: { statusCode: number; body: string; json(): unknown }, what: string) {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
}

async function buildOffice() {
  // the booking's traveller, with a password so that the fuzzer can sign in as them
  await insertUser(database.db, {
    email: TRAVELLER_EMAIL,
    password: PASSWORD,
    roleId: 3,
    firstName: 'Ada',
    lastName: 'Lovelace',
  });
  const trip = await insertTrip(database.db, {});
  const addon = await insertAddon(database.db, trip.id);
  const charity = await made(await session.post('/api/charities', { name: 'Fuzz Charity' }), 'charity');
  const discount = await made(
    await session.post('/api/discounts', { code: 'FUZZ10', name: 'Fuzz', amount: 10, invoice_type: 'any' }),
    'discount',
  );
  const field = await made(
    await session.post('/api/customFields', { trip_id: trip.id, label: 'T-shirt size' }),
    'custom field',
  );
  const doc = await made(await session.post('/api/documents', { trip_id: trip.id, name: 'Kit list' }), 'document');
  const booking = await made(
    await session.post('/api/bookings', {
      trip_id: trip.id,
      title: 'Ms',
      first_name: 'Ada',
      last_name: 'Lovelace',
      preferred_name: 'Ada',
      email: 'ada@example.test',
      terms_accepted: true,
      as_on_passport: true,
    }),
    'booking',
  );
  const invoice = await made(
    await session.post(`/api/bookings/${booking.id}/invoices`, { invoice_type: 'deposit' }),
    'invoice',
  );
  const payment = await made(
    await session.post('/api/transactions', {
      booking_id: booking.id,
      invoice_id: invoice.id,
      invoice_type: 'deposit',
      amount: 50,
      type: 'payment',
      processor: 'BACS',
      date: new Date().toISOString().slice(0, 10),
    }),
    'payment',
  );
  const note = await made(
    await session.post('/api/bookingNotes', { booking_id: booking.id, note_text: '<p>hello</p>' }),
    'note',
  );
  const client = await made(
    await session.post('/oauth/clients', { name: 'Fuzz client', redirect: 'https://partner.example/cb' }),
    'client',
  );
  Object.assign(ids, {
    trips: [trip.id],
    addons: [addon.id],
    charities: [charity.id as number],
    discounts: [discount.id as number],
    customFields: [field.id as number],
    documents: [doc.id as number],
    bookings: [booking.id as number],
    invoices: [invoice.id as number],
    transactions: [payment.id as number],
    bookingNotes: [note.id as number],
    clients: [client.id as string],
  });
}

// ---- what "changed nothing" means: a checksum of every table but the session bookkeeping and the request counts ----

let checksumSql = '';
async function checksum(): Promise<string> {
  if (!checksumSql) {
    const columns = await queryRows<{ table_name: string; has_last_used: boolean }>(
      database.db,
      sql`select table_name, bool_or(column_name = 'last_used_at') as has_last_used from information_schema.columns
          where table_schema = 'public' and table_name not in ('sessions', 'login_failures', 'rate_limits', '__drizzle_migrations')
          group by table_name order by table_name`,
    );
    checksumSql =
      'select ' +
      columns
        .map(({ table_name, has_last_used }) => {
          const row = has_last_used ? `(to_jsonb(t) - 'last_used_at')::text` : 'to_jsonb(t)::text';
          return `(select count(*) || ':' || coalesce(md5(string_agg(${row}, ',' order by ${row})), '') from "${table_name}" t) as "${table_name}"`;
        })
        .join(', ');
  }
  const [row] = await queryRows<Record<string, string>>(database.db, sql.raw(checksumSql));
  return JSON.stringify(row);
}

// ---- requests from schemas ----

const idHints = (segment: string | undefined): fc.Arbitrary<unknown> => {
  const known = (segment && ids[segment]) || [];
  return known.length
    ? fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...known) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 50 }) },
      )
    : fc.integer({ min: 1, max: 50 });
};

function hintsFor(route: Route): Hints {
  const pick = (key: string) => (ids[key]?.length ? fc.constantFrom(...ids[key]!) : fc.integer({ min: 1, max: 50 }));
  return {
    ...defaultHints,
    trip_id: pick('trips'),
    booking_id: pick('bookings'),
    invoice_id: pick('invoices'),
    user_id: pick('users'),
    charity_id: pick('charities'),
    addons: fc.array(pick('addons'), { maxLength: 2 }),
    client_id: pick('clients'),
    country_id: fc.constantFrom(834, 826, 250),
    code: route.path.startsWith('/oauth') ? fc.string({ maxLength: 40 }) : fc.stringMatching(/^[A-Z0-9_-]{3,12}$/),
  };
}

/** encodeURIComponent, and for text it refuses (a lone surrogate) the bytes Node would send */
const enc = (v: string) => {
  try {
    return encodeURIComponent(v);
  } catch {
    return [...Buffer.from(v)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  }
};
const encodeQuery = (query: Record<string, unknown>) =>
  Object.entries(query)
    .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x] as const) : [[k, v] as const]))
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${enc(k)}=${enc(typeof v === 'string' ? v : JSON.stringify(v))}`)
    .join('&');

const multipartBody = (
  fields: Record<string, unknown>,
  file?: { field: string; name: string; bytes: Buffer; type: string },
) => {
  const boundary = '----tripdeskfuzz';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`,
      ),
    );
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
};

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const fileArb = fc.record({
  field: fc.constantFrom('charity_logo', 'document', 'file', 'x'),
  name: fc.constantFrom('a.png', 'doc.pdf', 'evil.exe', '../../x.png', 'a\u0000.png', 'ü.pdf'),
  bytes: fc.constantFrom(PNG, PDF, Buffer.from('not really a file'), Buffer.alloc(0)),
  type: fc.constantFrom('image/png', 'application/pdf', 'text/plain'),
});

type Shape = {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  bodyType: 'json' | 'multipart' | 'form' | 'none';
  file?: fc.Arbitrary<unknown>;
};

function validArb(route: Route): fc.Arbitrary<Shape> {
  const hints = hintsFor(route);
  const params = route.op.parameters ?? [];
  const pathArbs: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of params.filter((x) => x.in === 'path')) {
    const before = route.path.split('/').at(route.path.split('/').indexOf(`{${p.name}}`) - 1);
    pathArbs[p.name] = p.name === 'invoiceId' ? idHints('invoices') : idHints(before);
  }
  const queryArbs: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const p of params.filter((x) => x.in === 'query')) {
    queryArbs[p.name] = arbitraryFor(p.schema, hints, p.name);
    if (p.required) required.push(p.name);
  }
  const json = route.op.requestBody?.content['application/json']?.schema;
  const writes = !['GET', 'HEAD', 'DELETE'].includes(route.method);
  const bodyType: Shape['bodyType'] = json
    ? 'json'
    : route.path === '/oauth/token'
      ? 'form'
      : writes && /logo|upload/.test(route.path)
        ? 'multipart'
        : 'none';
  const bodyArb: fc.Arbitrary<unknown> = json
    ? arbitraryFor(json, hints)
    : bodyType === 'form'
      ? fc.record(
          {
            grant_type: fc.constantFrom('client_credentials', 'authorization_code', 'refresh_token', 'password', ''),
            client_id: hints.client_id!,
            client_secret: fc.string(),
            scope: fc.constantFrom('', 'trips:read', 'nope'),
          },
          { requiredKeys: [] },
        )
      : bodyType === 'multipart'
        ? fc.record({
            fields: fc.dictionary(fc.constantFrom('charity_id', 'id', 'name'), fc.string({ maxLength: 10 }), {
              maxKeys: 2,
            }),
            file: fc.option(fileArb, { nil: undefined }),
          })
        : fc.constant(undefined);
  return fc.record({
    params: fc.record(pathArbs),
    query: fc.record(queryArbs, { requiredKeys: required }),
    body: bodyArb,
    bodyType: fc.constant(bodyType),
  });
}

type Mutation = (
  s: Shape,
  v: unknown,
  key: string,
) => { shape?: Shape; raw?: { payload: string | Buffer; contentType: string }; extraQuery?: string };

const fieldOf = (o: unknown, key: string): string | undefined => {
  if (!o || typeof o !== 'object') return undefined;
  const keys = Object.keys(o);
  return keys.length ? keys[Math.abs(hash(key)) % keys.length] : undefined;
};
const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7);

const mutations: Record<string, Mutation> = {
  'body field hostile': (s, v, key) => {
    if (s.bodyType !== 'json' || !s.body || typeof s.body !== 'object') return { shape: { ...s, body: v } };
    const f = fieldOf(s.body, key) ?? key;
    return { shape: { ...s, body: { ...(s.body as object), [f]: v } } };
  },
  'body field missing': (s, _v, key) => {
    if (!s.body || typeof s.body !== 'object') return { shape: { ...s, body: {} } };
    const f = fieldOf(s.body, key);
    const copy = { ...(s.body as Record<string, unknown>) };
    if (f) delete copy[f];
    return { shape: { ...s, body: copy } };
  },
  'extra field': (s, v, key) => ({
    shape: {
      ...s,
      body: { ...((s.body && typeof s.body === 'object' ? s.body : {}) as object), [`extra_${key}`]: v, __proto__x: v },
    },
  }),
  'array where a scalar goes': (s, v, key) => {
    const f = fieldOf(s.body, key);
    return f ? { shape: { ...s, body: { ...(s.body as object), [f]: [v, v] } } } : { shape: { ...s, body: [v] } };
  },
  'whole body hostile': (s, v) => ({ shape: { ...s, body: v } }),
  'malformed JSON': (_s, _v, key) => ({
    raw: {
      payload: ['{"a":', '{"a":1}}', '\u0000', '[', '{"a":"\\ud800"}', 'null', '"x"', '{"__proto__":{"x":1}}'][
        Math.abs(hash(key)) % 8
      ]!,
      contentType: 'application/json',
    },
  }),
  'wrong content type': (s, _v, key) => {
    const body = s.body && typeof s.body === 'object' ? (s.body as Record<string, unknown>) : { a: String(s.body) };
    const kind = Math.abs(hash(key)) % 4;
    if (kind === 0) return { raw: { payload: encodeQuery(body), contentType: 'application/x-www-form-urlencoded' } };
    if (kind === 1) return { raw: multipartBody(body) };
    if (kind === 2) return { raw: { payload: JSON.stringify(body), contentType: 'text/plain' } };
    return { raw: { payload: '<a>1</a>', contentType: 'application/xml' } };
  },
  'query param hostile': (s, v, key) => {
    const f = fieldOf(s.query, key) ?? 'q';
    return { shape: { ...s, query: { ...s.query, [f]: typeof v === 'string' ? v : JSON.stringify(v) } } };
  },
  'query param duplicated': (s, _v, key) => {
    const f = fieldOf(s.query, key) ?? 'page';
    return { extraQuery: `${encodeURIComponent(f)}=1&${encodeURIComponent(f)}=x&${encodeURIComponent(f)}[]=2` };
  },
  'path id hostile': (s, v) => {
    const k = Object.keys(s.params)[0];
    const bad = typeof v === 'string' || typeof v === 'number' ? v : '9223372036854775808';
    return { shape: k ? { ...s, params: { ...s.params, [k]: bad } } : s };
  },
};

function toRequest(route: Route, shape: Shape, auth: Auth, extra?: ReturnType<Mutation>): Req {
  let url = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => enc(String(shape.params[name] ?? 1)));
  const q = [encodeQuery(shape.query), extra?.extraQuery].filter(Boolean).join('&');
  if (q) url += `?${q}`;
  const headers: Record<string, string> = {};
  if (auth === 'bearer') headers.authorization = `Bearer ${bearer}`;
  let payload: string | Buffer | undefined;
  if (extra?.raw) {
    payload = extra.raw.payload;
    headers['content-type'] = extra.raw.contentType;
  } else if (shape.bodyType === 'json' || (shape.bodyType === 'none' && shape.body !== undefined)) {
    if (!['GET', 'HEAD'].includes(route.method)) {
      payload = JSON.stringify(shape.body ?? {});
      headers['content-type'] = 'application/json';
    }
  } else if (shape.bodyType === 'form') {
    payload = encodeQuery((shape.body ?? {}) as Record<string, unknown>);
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (shape.bodyType === 'multipart') {
    const b = (shape.body ?? {}) as {
      fields?: Record<string, unknown>;
      file?: { field: string; name: string; bytes: Buffer; type: string };
    };
    const fields = b.fields && typeof b.fields === 'object' ? b.fields : { value: b.fields ?? b };
    const m = multipartBody(fields, Buffer.isBuffer(b.file?.bytes) ? b.file : undefined);
    payload = m.payload;
    headers['content-type'] = m.contentType;
  }
  if (['GET', 'HEAD'].includes(route.method)) payload = undefined;
  return { method: route.method, url, headers, payload };
}

// ---- the checks ----

const STACK = /\n\s+at .+:\d+:\d+|node_modules|\/work\/|\.ts:\d+/;

function problems(route: Route, status: number, body: string, contentType: string): string | null {
  if (status >= 500) return `answered ${status}`;
  if (STACK.test(body)) return 'a stack trace or a source path in the reply';
  if (status < 400) return null;
  if (route.path === '/oauth/authorize' && contentType.startsWith('text/html')) return null;
  if (!contentType.startsWith('application/json')) return `a ${status} as ${contentType || 'no content type'}`;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return `a ${status} that is not JSON`;
  }
  const o = json as Record<string, unknown>;
  if (route.path === '/oauth/token')
    return typeof o.error === 'string' || typeof o.message === 'string' ? null : 'an OAuth error without error';
  if (typeof o.message !== 'string') return `a ${status} without a message`;
  if (o.errors !== undefined) {
    const e = o.errors as Record<string, unknown>;
    if (
      typeof e !== 'object' ||
      e === null ||
      Object.values(e).some((v) => !Array.isArray(v) || v.some((m) => typeof m !== 'string'))
    )
      return 'errors not as {field: [message]}';
  }
  return null;
}

async function send(req: Req, auth: Auth) {
  if (auth === 'session' || auth === 'traveller') {
    return (auth === 'session' ? session : traveller).request({
      method: req.method as InjectOptions['method'] & string,
      url: req.url,
      headers: req.headers,
      payload: req.payload as never,
    });
  }
  return app.inject({ method: req.method as never, url: req.url, headers: req.headers, payload: req.payload as never });
}

async function fuzzRoute(route: Route, auth: Auth, failures: Failure[]) {
  const name = `${route.method} ${route.path}`;
  const seed = SEED + hash(`${name} ${auth}`);
  const valid = fc.sample(validArb(route), { seed, numRuns: RUNS });
  const hostile = fc.sample(
    fc.tuple(fc.constantFrom(...Object.keys(mutations)), hostileValue, fc.string({ minLength: 1, maxLength: 6 })),
    { seed: seed + 1, numRuns: RUNS * 2 },
  );
  const cases: Req[] = [
    ...valid.map((s) => toRequest(route, s, auth)),
    ...hostile.map(([m, v, key], i) => {
      const shape = valid[i % valid.length]!;
      const extra = mutations[m]!(shape, v, key);
      return toRequest(route, extra.shape ?? shape, auth, extra);
    }),
  ];
  // and every field once with a value known to have broken servers (cycled, so each field gets a different one per mode)
  const base = valid[0]!;
  const sweep: Req[] = [];
  const fields = [
    ...Object.keys(base.params).map((k) => ['params', k] as const),
    ...(route.op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ['query', p.name] as const),
    ...Object.keys(route.op.requestBody?.content['application/json']?.schema.properties ?? {}).map(
      (k) => ['body', k] as const,
    ),
  ];
  fields.forEach(([part, key], i) => {
    for (const value of [
      'a\u0000b',
      CRITICAL[(i + (auth === 'bearer' ? 5 : 0) + Math.abs(hash(name))) % CRITICAL.length],
    ]) {
      const shape: Shape = {
        ...base,
        [part]: {
          ...((base[part] as object | undefined) ?? {}),
          [key]: part === 'body' ? value : typeof value === 'string' ? value : JSON.stringify(value),
        },
      };
      sweep.push(toRequest(route, shape, auth));
    }
  });
  cases.push(...sweep);
  let before = await checksum();
  sentTotal += cases.length;
  for (const req of cases) {
    if (auth === 'bearer') req.headers.authorization = `Bearer ${bearer}`;
    const res = await send(req, auth);
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    const body = typeof res.body === 'string' ? res.body : '';
    const why = problems(route, res.statusCode, body, String(res.headers['content-type'] ?? ''));
    const after = await checksum();
    if (why) failures.push({ route: name, auth, why, request: req, status: res.statusCode, body: body.slice(0, 300) });
    else if (res.statusCode >= 400 && after !== before)
      failures.push({
        route: name,
        auth,
        why: `refused with ${res.statusCode} but the database changed`,
        request: req,
        status: res.statusCode,
        body: body.slice(0, 300),
      });
    before = after;
    // the fuzzer may sign itself out, revoke its token or change its own account: start again
    if (res.statusCode === 401 || res.statusCode === 419) {
      if (auth === 'traveller') await signInTraveller();
      else await signInAdmin();
      before = await checksum();
    }
  }
}

const CRITICAL: unknown[] = [
  2_147_483_648,
  '9223372036854775808',
  ['x', 'y'],
  'x'.repeat(100 * 1024),
  -1,
  'x\ud800',
  1e308,
  32_768,
  { a: 1 },
  '',
  1.5,
];

const replay = (f: Failure) => {
  const payload =
    f.request.payload === undefined
      ? ''
      : typeof f.request.payload === 'string'
        ? f.request.payload.slice(0, 400)
        : `<${f.request.payload.length} bytes>`;
  return `${f.why} — ${f.auth}: ${f.request.method} ${f.request.url.slice(0, 300)} ${JSON.stringify(f.request.headers['content-type'] ?? '')} ${JSON.stringify(payload)} → ${f.status} ${f.body}`;
};

export const SHARDS = 3;

/** The fuzzer over the routes of one shard: route i goes to shard i mod SHARDS. */
export function fuzzShard(shard: number) {
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-fuzz-'));
    const stream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    // the job queue (sending only) for the Administrators' job routes
    jobs = await startJobQueue({ database, work: false, queues: [] });
    app = await buildApp({
      config: testConfig(dataDir, { logLevel: 'warn' }),
      db: database.db,
      jobs,
      logger: { level: 'warn', stream },
    });
    await app.ready();
    await signInAdmin();
    await buildOffice();
    await signInTraveller();
    const doc = (await session.get('/api/docs/json')).json() as { paths: Record<string, Record<string, Operation>> };
    allRoutes = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path: p, op })),
    );
    // deletions last, so that the rest works on an office that still has one of everything
    allRoutes.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    routes = allRoutes.filter((_route, i) => i % SHARDS === shard);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await jobs?.stop(1000);
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  describe(`the contract fuzzer, routes ${shard + 1} of every ${SHARDS}`, () => {
    it('walks every route of the OpenAPI document', () => {
      expect(allRoutes.length).toBeGreaterThan(60);
      expect(allRoutes.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/trips');
      expect(routes.length).toBeGreaterThan(allRoutes.length / SHARDS - 1);
    });

    it('gets no 5xx, no stack trace, the DESIGN.md shape on every 4xx, and no change from any refused request', async () => {
      const failures: Failure[] = [];
      for (const route of routes) {
        if (ONLY && `${route.method} ${route.path}` !== ONLY) continue;
        // a traveller's own pages are fuzzed as the traveller too (staff and tokens only meet their 403)
        const auths: Auth[] = route.path.startsWith('/api/my/') ? ['traveller', 'session'] : ['session', 'bearer'];
        for (const auth of auths) await fuzzRoute(route, auth, failures);
      }
      const report = failures.slice(0, 15).map(replay).join('\n');
      console.log(
        `fuzz: ${sentTotal} requests over ${routes.length} routes (seed ${SEED}, ${RUNS} runs); replies: ${[...statuses]
          .sort((a, b) => a[0] - b[0])
          .map(([k, v]) => `${k}×${v}`)
          .join(' ')}`,
      );
      expect(
        failures.length,
        `${failures.length} failures (FUZZ_SEED=${SEED}); replay with FUZZ_ROUTE='<method> <path>':\n${report}`,
      ).toBe(0);
      expect(sentTotal).toBeGreaterThan(ONLY ? -1 : 2000 / SHARDS);
    }, 600_000);

    it('never reaches the database-error fallback: the contract refused every bad value first', () => {
      const fallbacks = logLines.filter((l) => l.includes(DATA_EXCEPTION_LOG) || l.includes('unexpected error'));
      expect(fallbacks.slice(0, 5)).toEqual([]);
    });
  });
}
