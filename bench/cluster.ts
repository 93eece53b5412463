// Several servers as one: two web servers (WORKERS=0) and one worker, each a child
// process with its own DATA_DIR, sharing one PostgreSQL database and one S3-protocol bucket,
// behind a small round-robin proxy. A realistic session is driven through the proxy (and, where
// a step needs it, straight at one server) and every step is checked:
//   - a session made on one server works on the other (cookie + CSRF token);
//   - a booking made on one is read on the other;
//   - a document uploaded on one is downloaded, byte for byte, from the other (files are not on
//     local disk);
//   - one payment with one Idempotency-Key sent to both servers at once is recorded once;
//   - the per-address sign-in limit counts across both servers (the 6th try is refused);
//   - a personal access token revoked on one is refused on the other;
//   - the worker, not the web servers, works the jobs, and the start-up jobs both servers send
//     are one job per slot;
//   - one web server is killed (SIGKILL) in the middle of a load of writes: no acknowledged
//     write is lost, the only failures are the kill's (502s, cut connections), and the proxy
//     goes on serving from the other server.
// Prints a table (step | result | ms); exits 1 when a step failed, 2 without DATABASE_URL.
//   DATABASE_URL=postgresql://… npx tsx bench/cluster.ts [--short]
// --short (CI): 200 writes in the kill step; by default 2000. The database tripdesk_cluster on the
// server of DATABASE_URL is made afresh and left behind for inspection.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { makePdf } from '../src/db/seed/images.ts';
import { multipart } from '../tests/support/multipart.ts';
import { startS3, type S3Server } from '../tests/support/s3.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { short: { type: 'boolean', default: false } } });
const SHORT = values.short;
/** writes in the kill step, how many at once, and how many of the last must all succeed */
const LOAD = SHORT ? 200 : 2000;
const CONCURRENCY = 16;
const LAST_K = SHORT ? 40 : 200;

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error(
    'bench/cluster.ts needs a PostgreSQL server: DATABASE_URL=postgresql://user@host:5432/postgres npx tsx bench/cluster.ts [--short]',
  );
  process.exit(2);
}

const DB_NAME = 'tripdesk_cluster';
const ADMIN_EMAIL = 'cluster-admin@example.test';
const ADMIN_PASSWORD = 'cluster-bench-password-123';
const SESSION_SECRET = 'cluster-bench-session-secret-shared-by-every-server';
const started = performance.now();

// ---------------------------------------------------------------------------------------------
// The child processes: web servers and the worker

type Proc = { name: string; child: ChildProcess; output: string; port: number; exit: Promise<void> };
const procs: Proc[] = [];
const tempDirs: string[] = [];

/** Spawns `node --import tsx <script>` and waits for its ready line (the port, for a web server). */
function startTripdesk(name: string, script: string, env: NodeJS.ProcessEnv, ready: RegExp): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const proc: Proc = { name, child, output: '', port: 0, exit };
  procs.push(proc);
  const keep = (chunk: Buffer) => {
    // the last 64 kB is plenty to say why something failed
    proc.output = (proc.output + chunk.toString()).slice(-65_536);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} was not ready after 120 s:\n${tail(proc)}`)), 120_000);
    const onData = () => {
      const m = ready.exec(proc.output);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      proc.port = Number(m[1] ?? 0);
      resolve(proc);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${signal ?? code}) before it was ready:\n${tail(proc)}`));
    });
  });
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${output.slice(-2000)}`)),
    );
  });
}

const tail = (proc: Proc, lines = 30) =>
  proc.output
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .map((l) => `    ${proc.name}| ${l}`)
    .join('\n');
const alive = (proc: Proc) => proc.child.exitCode === null && proc.child.signalCode === null;

/** SIGTERM (a clean stop), then SIGKILL after 8 s. */
async function stopAll(): Promise<void> {
  await Promise.all(
    procs.filter(alive).map(async (proc) => {
      proc.child.kill('SIGTERM');
      const timer = setTimeout(() => proc.child.kill('SIGKILL'), 8_000);
      await proc.exit;
      clearTimeout(timer);
    }),
  );
}
// should the bench itself die, none of its servers outlives it
process.on('exit', () => {
  for (const proc of procs) if (alive(proc)) proc.child.kill('SIGKILL');
});

// ---------------------------------------------------------------------------------------------
// The proxy: round robin over the live backends, as a load balancer would be

type Backend = { name: string; port: number; up: boolean; downAt?: number };

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
]);
const endToEnd = (headers: http.IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k.toLowerCase())));

/**
 * Each request goes to the next live backend, body and reply piped; `x-backend` says which one
 * answered. A connection refused or reset before any reply marks the backend down; a GET or HEAD
 * is then tried on the next one, anything else gets a 502 (it may have been done: the client
 * decides whether to send it again). X-Forwarded-For passes as the client sent it.
 */
async function startProxy(backends: Backend[]): Promise<{ port: number; close(): Promise<void> }> {
  let turn = 0;
  // a fresh connection per request: a reset then always means the backend went away
  const agent = new http.Agent({ keepAlive: false });
  const pick = (tried: Set<Backend>) => {
    for (let i = 0; i < backends.length; i++) {
      const backend = backends[turn++ % backends.length]!;
      if (backend.up && !tried.has(backend)) return backend;
    }
    return undefined;
  };
  const server = http.createServer((req, res) => {
    const idempotent = req.method === 'GET' || req.method === 'HEAD';
    const tried = new Set<Backend>();
    const attempt = () => {
      const backend = pick(tried);
      if (!backend) {
        res
          .writeHead(502, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: 'No backend is up.' }));
        return;
      }
      tried.add(backend);
      let answered = false;
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: backend.port,
          method: req.method,
          path: req.url,
          headers: endToEnd(req.headers),
          agent,
        },
        (reply) => {
          answered = true;
          res.writeHead(reply.statusCode ?? 502, { ...endToEnd(reply.headers), 'x-backend': backend.name });
          reply.pipe(res);
          // the backend died in the middle of its reply: the client must see a cut, not a short body
          reply.on('aborted', () => res.destroy());
          reply.on('error', () => res.destroy());
        },
      );
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (answered) return void res.destroy();
        const connectionLost = error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET';
        if (connectionLost && backend.up) {
          backend.up = false;
          backend.downAt = performance.now();
        }
        if (connectionLost && idempotent) return attempt();
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json', 'x-backend': backend.name });
        res.end(JSON.stringify({ message: `Backend ${backend.name}: ${error.code ?? error.message}` }));
      });
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      if (idempotent) upstream.end();
      else req.pipe(upstream);
    };
    attempt();
  });
  // longer than any pause of the driver, so that a kept-alive connection is never closed under it
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// The driver: a browser-like client (cookies, the page's CSRF token) over fetch

type Reply = {
  status: number;
  headers: Headers;
  body: Buffer;
  backend: string;
  ms: number;
  text: string;
  json<T = unknown>(): T;
};

const cookies = new Map<string, string>();
let csrf = '';
const sessionHeaders = (): Record<string, string> => ({
  cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  'x-csrf-token': csrf,
  'x-requested-with': 'XMLHttpRequest',
  accept: 'application/json',
});

/** One request; `json` is sent as JSON; the session's cookie and CSRF token unless `session: false`. */
async function call(
  base: string,
  method: string,
  url: string,
  opts: { json?: unknown; body?: Buffer; headers?: Record<string, string>; session?: boolean } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(opts.session === false ? {} : sessionHeaders()), ...opts.headers };
  // a copy in an ArrayBuffer of its own, as fetch's types ask
  let body: Uint8Array<ArrayBuffer> | string | undefined = opts.body ? new Uint8Array(opts.body) : undefined;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  }
  const t0 = performance.now();
  const res = await fetch(base + url, {
    method,
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  for (const c of res.headers.getSetCookie()) {
    const [pair = ''] = c.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) cookies.delete(name);
    else cookies.set(name, value);
  }
  const text = bytes.toString();
  return {
    status: res.status,
    headers: res.headers,
    body: bytes,
    backend: res.headers.get('x-backend') ?? '?',
    ms: performance.now() - t0,
    text,
    json: <T>() => JSON.parse(text) as T,
  };
}

/** A GET through the proxy, sent again until a backend other than `not` answers it. */
async function getVia(proxy: string, not: string, url: string, opts: Parameters<typeof call>[3] = {}): Promise<Reply> {
  for (let i = 0; i < 4; i++) {
    const res = await call(proxy, 'GET', url, opts);
    if (res.backend !== not) return res;
  }
  throw new Error(`GET ${url} was answered by ${not} four times in a row: the proxy does not alternate`);
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
const expectStatus = (res: Reply, status: number, what: string) =>
  check(
    res.status === status,
    `${what}: ${res.status} from ${res.backend} (expected ${status}): ${res.text.slice(0, 300)}`,
  );

const fetchError = (error: unknown) => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
};

// ---------------------------------------------------------------------------------------------
// The steps, each timed and checked

type Row = { step: string; ok: boolean; result: string; ms: number };
const rows: Row[] = [];
async function step(name: string, work: () => Promise<string>): Promise<void> {
  const t0 = performance.now();
  let row: Row;
  try {
    row = { step: name, ok: true, result: await work(), ms: performance.now() - t0 };
  } catch (error) {
    row = {
      step: name,
      ok: false,
      result: `FAILED: ${error instanceof Error ? error.message : String(error)}`,
      ms: performance.now() - t0,
    };
  }
  rows.push(row);
  console.error(`${row.ok ? 'ok  ' : 'FAIL'} ${name} (${row.ms.toFixed(0)} ms)${row.ok ? '' : `\n     ${row.result}`}`);
}
const need = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`skipped: ${what} is missing (an earlier step failed)`);
  return value;
};

// ---------------------------------------------------------------------------------------------

let s3: S3Server | undefined;
let proxy: { port: number; close(): Promise<void> } | undefined;
let db: pg.Client | undefined;
const admin = new pg.Client({ connectionString: databaseUrl });
try {
  // ---- a database of its own, and the bucket
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  const clusterUrl = new URL(databaseUrl);
  clusterUrl.pathname = `/${DB_NAME}`;
  s3 = await startS3('tripdesk-cluster');

  const env = (name: string, over: Record<string, string>): NodeJS.ProcessEnv => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `tripdesk-cluster-${name}-`));
    tempDirs.push(dataDir);
    return {
      ...process.env,
      DATABASE_URL: clusterUrl.toString(),
      PORT: '0',
      HOST: '127.0.0.1',
      // each its own: nothing another server needs may live on local disk
      DATA_DIR: dataDir,
      SESSION_SECRET,
      NODE_ENV: 'production',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      STORAGE: 's3',
      S3_BUCKET: s3!.storage.bucket,
      S3_ENDPOINT: s3!.storage.endpoint!,
      S3_REGION: s3!.storage.region,
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: '',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      LOGIN_RATE_LIMIT: '5',
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...over,
    };
  };
  const READY = /Tripdesk is ready at http:\/\/127\.0\.0\.1:(\d+)/;
  let a: Proc | undefined;
  let b: Proc | undefined;
  let worker: Proc | undefined;
  await step('start: server A (migrations, demo office), then B and the worker', async () => {
    const t0 = performance.now();
    a = await startTripdesk('A', 'src/server/main.ts', env('a', { WORKERS: '0', SEED_DEMO: '1' }), READY);
    const aMs = performance.now() - t0;
    const t1 = performance.now();
    [b, worker] = await Promise.all([
      startTripdesk('B', 'src/server/main.ts', env('b', { WORKERS: '0', SEED_DEMO: '0' }), READY),
      startTripdesk('worker', 'src/server/worker.ts', env('worker', {}), /Tripdesk worker is ready/),
    ]);
    return `A on :${a.port} in ${aMs.toFixed(0)} ms; B on :${b!.port} and the worker in ${(performance.now() - t1).toFixed(0)} ms`;
  });
  if (!a || !b || !worker) throw new Error('the cluster did not start');
  const A = `http://127.0.0.1:${a.port}`;
  const B = `http://127.0.0.1:${b.port}`;
  const backends: Backend[] = [
    { name: 'A', port: a.port, up: true },
    { name: 'B', port: b.port, up: true },
  ];
  proxy = await startProxy(backends);
  const P = `http://127.0.0.1:${proxy.port}`;
  db = new pg.Client({ connectionString: clusterUrl.toString() });
  await db.connect();

  // ---- a session made through the proxy works on both servers
  await step('sign in through the proxy; the session works on A and on B', async () => {
    const login = await call(P, 'POST', '/login', {
      json: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      session: false,
    });
    expectStatus(login, 204, 'POST /login');
    check(cookies.has('tripdesk_session'), 'POST /login set no tripdesk_session cookie');
    const page = await call(P, 'GET', '/', { headers: { accept: 'text/html' } });
    expectStatus(page, 200, 'GET /');
    const m = /<meta name="csrf-token" content="([^"]+)">/.exec(page.text);
    check(m, `GET / (via ${page.backend}) has no <meta name="csrf-token">`);
    csrf = m[1]!;
    const seen = new Map<string, number>();
    for (let i = 0; i < 4 && seen.size < 2; i++) {
      const res = await call(P, 'GET', '/api/bookings?per_page=1');
      expectStatus(res, 200, `GET /api/bookings?per_page=1 via ${res.backend}`);
      seen.set(res.backend, res.status);
    }
    check(seen.has('A') && seen.has('B'), `the bookings list was answered only by ${[...seen.keys()].join(', ')}`);
    return `signed in via ${login.backend}, page via ${page.backend}; /api/bookings 200 via A and via B`;
  });

  // ---- a booking made on one server, read on the other
  let tripId: number | undefined;
  let bookingId: number | undefined;
  await step('create a booking on one server, read it on the other', async () => {
    const trips = await call(P, 'GET', '/api/trips');
    expectStatus(trips, 200, 'GET /api/trips');
    const trip = trips
      .json<{ data: Array<{ id: number; name: string; status: string }> }>()
      .data.find((t) => t.status === 'open');
    check(trip, 'no open trip in GET /api/trips');
    tripId = trip.id;
    const made = await call(P, 'POST', '/api/bookings', {
      json: {
        trip_id: trip.id,
        title: 'Ms',
        first_name: 'Joanne',
        last_name: 'Cluster',
        preferred_name: 'Jo',
        email: `jo.cluster.${Date.now()}@example.test`,
        mobile: '07700 900123',
        as_on_passport: true,
        terms_accepted: true,
      },
    });
    expectStatus(made, 201, 'POST /api/bookings');
    const booking = made.json<{ id: number; ref: string }>();
    bookingId = booking.id;
    const read = await getVia(P, made.backend, `/api/bookings/${booking.id}`);
    expectStatus(read, 200, `GET /api/bookings/${booking.id}`);
    const got = read.json<{ id: number; ref: string }>();
    check(
      got.id === booking.id && got.ref === booking.ref,
      `GET /api/bookings/${booking.id} via ${read.backend} says ${got.id} ${got.ref}, not ${booking.id} ${booking.ref}`,
    );
    return `${booking.ref} made via ${made.backend} (201), read via ${read.backend} (200)`;
  });

  // ---- a document uploaded on one server, downloaded from the other
  await step('upload a document on one server, download it from the other', async () => {
    const doc = await call(P, 'POST', '/api/documents', {
      json: { trip_id: need(tripId, 'the trip'), name: 'Cluster dossier' },
    });
    expectStatus(doc, 201, 'POST /api/documents');
    const { id } = doc.json<{ id: number }>();
    const pdf = makePdf('Cluster dossier', [
      'Uploaded to one server, downloaded from the other.',
      `at ${new Date().toISOString()}`,
    ]);
    const form = multipart(
      { document_id: String(id) },
      { field: 'document_file', filename: 'dossier.pdf', contentType: 'application/pdf', bytes: pdf },
    );
    const up = await call(P, 'POST', `/api/documents/${id}/upload`, { body: form.payload, headers: form.headers });
    expectStatus(up, 200, `POST /api/documents/${id}/upload`);
    const signed = up.json<{ signed_url: string | null }>().signed_url;
    check(signed, 'the upload reply has no signed_url');
    const down = await getVia(P, up.backend, signed, { session: false });
    expectStatus(down, 200, `GET ${signed.split('?')[0]}`);
    check(
      down.body.equals(pdf),
      `the file downloaded via ${down.backend} (${down.body.length} bytes) is not the one uploaded via ${up.backend} (${pdf.length} bytes)`,
    );
    return `${pdf.length} bytes uploaded via ${up.backend}, the same bytes downloaded via ${down.backend} (${down.headers.get('content-type')})`;
  });

  // ---- the demo office's files, stored by A as it started, are B's too
  await step('the demo office seeded by A: its logos and dossiers served by B', async () => {
    const charities = await call(B, 'GET', '/api/charities');
    expectStatus(charities, 200, 'GET /api/charities via B');
    const withLogo = charities.json<Array<{ id: number; logo_url: string | null }>>().filter((c) => c.logo_url);
    check(withLogo.length > 0, 'the demo office has no charity with a logo');
    const logo = await call(B, 'GET', withLogo[0]!.logo_url!);
    expectStatus(logo, 200, `GET ${withLogo[0]!.logo_url} via B`);
    check(logo.body.subarray(1, 4).toString() === 'PNG', 'the logo B serves is not a PNG');
    const trips = await call(B, 'GET', '/api/trips?per_page=50');
    expectStatus(trips, 200, 'GET /api/trips via B');
    let served = 0;
    for (const trip of trips.json<{ data: Array<{ id: number }> }>().data) {
      const docs = await call(B, 'GET', `/api/trips/${trip.id}/documents`);
      for (const d of docs.json<Array<{ signed_url: string | null }>>()) {
        if (!d.signed_url) continue;
        const file = await call(B, 'GET', d.signed_url, { session: false });
        expectStatus(file, 200, `GET ${d.signed_url.split('?')[0]} via B`);
        check(file.body.subarray(0, 5).toString() === '%PDF-', 'a demo dossier B serves is not a PDF');
        served += 1;
      }
    }
    check(served > 0, 'the demo office has no document to download');
    return `${withLogo.length} logos and ${served} dossiers, stored by A at its start, served by B`;
  });

  // ---- one payment, one Idempotency-Key, both servers at once
  await step('a payment with one Idempotency-Key sent to A and B at once', async () => {
    const due = await call(P, 'GET', '/api/money-due');
    expectStatus(due, 200, 'GET /api/money-due');
    const row = due
      .json<{ data: Array<{ kind: string; invoice_id: number | null; booking_id: number; outstanding: number }> }>()
      .data.find((r) => r.kind === 'invoice' && r.invoice_id !== null && r.outstanding >= 10);
    check(row, 'GET /api/money-due lists no invoice with £10 or more outstanding');
    const invoices = await call(P, 'GET', `/api/invoices?booking_id=${row.booking_id}`);
    expectStatus(invoices, 200, 'GET /api/invoices');
    const invoice = invoices
      .json<Array<{ id: number; type: string; outstanding: number }>>()
      .find((i) => i.id === row.invoice_id);
    check(invoice, `invoice ${row.invoice_id} is not among booking ${row.booking_id}'s invoices`);
    // yesterday in UTC is never after today in London
    const date = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const key = `cluster-payment-${Date.now()}`;
    const body = {
      booking_id: row.booking_id,
      invoice_id: invoice.id,
      invoice_type: invoice.type,
      amount: '10.00',
      type: 'payment',
      processor: 'BACS',
      date,
      notes: 'cluster bench',
    };
    const replies = await Promise.all(
      [A, B].map((base) =>
        call(base, 'POST', '/api/transactions', { json: body, headers: { 'idempotency-key': key } }),
      ),
    );
    const [ra, rb] = replies as [Reply, Reply];
    expectStatus(ra, 201, 'POST /api/transactions on A');
    expectStatus(rb, 201, 'POST /api/transactions on B');
    const ids = replies.map((r) => r.json<{ id: number }>().id);
    check(ids[0] === ids[1], `A recorded transaction ${ids[0]}, B transaction ${ids[1]}`);
    const replayed = replies.map((r) => r.headers.get('idempotent-replayed') === 'true');
    check(
      replayed.filter(Boolean).length === 1,
      `idempotent-replayed: A ${replayed[0]}, B ${replayed[1]} (exactly one should be a replay)`,
    );
    const { rows: found } = await db!.query<{ id: number }>('select id from transactions where idempotency_key = $1', [
      key,
    ]);
    check(found.length === 1, `${found.length} rows in transactions with idempotency_key ${key}`);
    return `both 201 with transaction ${ids[0]} (replayed on ${replayed[0] ? 'A' : 'B'}); 1 row in transactions`;
  });

  // ---- the per-address sign-in limit is one count across both servers
  await step('sign-in limit (5 a minute per address) across A and B', async () => {
    const seen: string[] = [];
    for (let i = 1; i <= 6; i++) {
      const res = await call(P, 'POST', '/login', {
        json: { email: `nobody-${i}-${Date.now()}@example.test`, password: 'not-the-password-at-all' },
        headers: { 'x-forwarded-for': '203.0.113.77' },
        session: false,
      });
      seen.push(`${res.status} ${res.backend}`);
      expectStatus(res, i <= 5 ? 422 : 429, `attempt ${i} from 203.0.113.77 (so far: ${seen.join(', ')})`);
    }
    const perServer = (name: string) => seen.filter((s) => s.endsWith(name)).length;
    check(perServer('A') <= 3 && perServer('B') <= 3, `the attempts did not alternate: ${seen.join(', ')}`);
    return `${seen.join(', ')}: A saw ${perServer('A')}, B saw ${perServer('B')}`;
  });

  // ---- a token revoked on one server is refused on the other
  await step('revoke a personal access token on A; B refuses it', async () => {
    const made = await call(P, 'POST', '/oauth/personal-access-tokens', {
      json: { name: 'cluster bench', scopes: ['bookings:read'] },
    });
    expectStatus(made, 201, 'POST /oauth/personal-access-tokens');
    const { token, accessToken } = made.json<{ token: { id: string }; accessToken: string }>();
    const bearer = { session: false, headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } };
    const before = await call(B, 'GET', '/api/bookings?per_page=1', bearer);
    expectStatus(before, 200, 'the token on B before the revocation');
    const revoked = await call(A, 'DELETE', `/oauth/personal-access-tokens/${token.id}`);
    expectStatus(revoked, 204, 'DELETE /oauth/personal-access-tokens on A');
    const after = await call(B, 'GET', '/api/bookings?per_page=1', bearer);
    expectStatus(after, 401, 'the token on B after the revocation on A');
    return `B 200 → revoked on A (204) → B ${after.status}`;
  });

  // ---- the worker works the jobs both web servers sent
  await step('the worker did the start-up jobs, once per slot', async () => {
    type Job = { name: string; state: string; n: number; slots: number };
    const read = async () =>
      (
        await db!.query<Job>(
          `select name, string_agg(distinct state::text, ',') as state, count(*)::int as n, count(distinct singleton_on)::int as slots
           from pgboss.job where singleton_key = 'startup' and name in ('housekeeping', 'schedule-backfill') group by name order by name`,
        )
      ).rows;
    let jobs = await read();
    // the worker polls every 2 s
    for (let i = 0; i < 60 && !(jobs.length === 2 && jobs.every((j) => j.state === 'completed')); i++) {
      await new Promise((r) => setTimeout(r, 500));
      jobs = await read();
    }
    const said = jobs
      .map(
        (j) => `${j.name}: ${j.n} job${j.n === 1 ? '' : 's'} in ${j.slots} slot${j.slots === 1 ? '' : 's'}, ${j.state}`,
      )
      .join('; ');
    check(jobs.length === 2, `start-up jobs found: ${said || 'none'}`);
    // A and B each send them with singletonKey 'startup' and singletonSeconds 300: one job per
    // 5-minute slot (two only when the servers' starts straddle a slot's end)
    check(
      jobs.every((j) => j.n === j.slots),
      `more than one start-up job in one slot: ${said}`,
    );
    check(
      jobs.every((j) => j.state === 'completed'),
      `not all done by the worker within 30 s: ${said}`,
    );
    const schedules = (
      await db!.query<{ name: string; n: number }>('select name, count(*)::int as n from pgboss.schedule group by name')
    ).rows;
    check(
      schedules.length > 0 && schedules.every((s) => s.n === 1),
      `schedules: ${schedules.map((s) => `${s.name}×${s.n}`).join(', ') || 'none'}`,
    );
    return `${said}; ${schedules.length} schedules, each once`;
  });

  // ---- one web server killed in the middle of a load of writes
  await step(`kill B (SIGKILL) a third into ${LOAD} writes, ${CONCURRENCY} at once`, async () => {
    const booking = need(bookingId, 'the booking');
    const run = Date.now().toString(36);
    const marker = (i: number) => `[cluster-${run} #${i}]`;
    type Op = { i: number; start: number; end: number; status?: number; backend?: string; id?: number; error?: string };
    const ops: Op[] = [];
    let next = 0;
    let done = 0;
    let killAt: number | undefined;
    const b0 = b!;
    const writer = async () => {
      while (next < LOAD) {
        const i = next++;
        const op: Op = { i, start: performance.now(), end: 0 };
        ops.push(op);
        try {
          const res = await call(P, 'POST', '/api/bookingNotes', {
            json: { booking_id: booking, note_text: `<p>${marker(i)}</p>` },
          });
          op.status = res.status;
          op.backend = res.backend;
          if (res.status >= 200 && res.status < 300) op.id = res.json<{ id: number }>().id;
          else op.error = res.text.slice(0, 200);
        } catch (error) {
          op.error = fetchError(error);
        }
        op.end = performance.now();
        done += 1;
        if (killAt === undefined && done >= LOAD / 3) {
          killAt = performance.now();
          b0.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, writer));
    await b0.exit;
    const downAt = backends[1]!.downAt;
    const killedAt = killAt ?? Number.NaN;
    check(!Number.isNaN(killedAt), 'B was never killed');

    const acked = ops.filter((o) => o.id !== undefined);
    const failed = ops.filter((o) => o.id === undefined);
    const { rows: notes } = await db!.query<{ id: number; note_text: string }>(
      'select id, note_text from booking_notes where booking_id = $1 and note_text like $2',
      [booking, `%[cluster-${run} #%`],
    );
    const byId = new Map(notes.map((n) => [n.id, n.note_text]));
    const lost = acked.filter((o) => !byId.get(o.id!)?.includes(marker(o.i)));
    const count = new Map<number, number>();
    for (const n of notes) {
      const i = Number(/#(\d+)\]/.exec(n.note_text)?.[1]);
      count.set(i, (count.get(i) ?? 0) + 1);
    }
    const doubled = [...count].filter(([, n]) => n > 1);
    const failedButDone = failed.filter((o) => count.has(o.i));
    // the kill's failures: 502s and cut connections of requests sent before the proxy knew B was gone, ended after the kill
    const notTheKill = failed.filter(
      (o) =>
        !(o.status === undefined || o.status === 502) || o.end < killedAt || downAt === undefined || o.start > downAt,
    );
    const byStart = [...ops].sort((x, y) => x.start - y.start);
    const last = byStart.slice(-LAST_K);
    const lastBad = last.filter((o) => o.id === undefined || o.backend !== 'A');
    const viaB = acked.filter((o) => o.backend === 'B').length;

    const detail =
      `${ops.length} sent; acknowledged ${acked.length} (A ${acked.length - viaB}, B ${viaB}); failed ${failed.length} ` +
      `(${failed.filter((o) => o.status === 502).length} × 502, ${failed.filter((o) => o.status === undefined).length} cut; ${failedButDone.length} of them done all the same); ` +
      `found in db ${acked.length - lost.length} of ${acked.length}; last ${LAST_K} all 2xx via A: ${lastBad.length ? 'no' : 'yes'}`;
    console.error(`     ${detail}`);
    check(
      !lost.length,
      `${lost.length} acknowledged writes are not in the database: #${lost
        .slice(0, 10)
        .map((o) => `${o.i} (id ${o.id} via ${o.backend})`)
        .join(', ')}`,
    );
    check(
      !doubled.length,
      `writes recorded twice: ${doubled
        .slice(0, 10)
        .map(([i, n]) => `#${i}×${n}`)
        .join(', ')}`,
    );
    check(viaB > 0, 'B acknowledged no write before the kill: the load did not reach both servers');
    check(
      !notTheKill.length,
      `failures outside the kill (${(killedAt / 1000).toFixed(2)} s – ${downAt === undefined ? 'never marked down' : (downAt / 1000).toFixed(2) + ' s'}): ` +
        notTheKill
          .slice(0, 5)
          .map(
            (o) =>
              `#${o.i} ${o.status ?? 'cut'} ${o.backend ?? ''} ${o.error ?? ''} [${(o.start / 1000).toFixed(2)}–${(o.end / 1000).toFixed(2)} s]`,
          )
          .join('; '),
    );
    check(
      !lastBad.length,
      `of the last ${LAST_K} writes, ${lastBad.length} were not 2xx via A: ${lastBad
        .slice(0, 5)
        .map((o) => `#${o.i} ${o.status ?? o.error} via ${o.backend}`)
        .join('; ')}`,
    );
    return detail;
  });

  // ---- the backup and restore drill of docs/deploy.md: pg_dump, pg_restore into a new database,
  // a server started on it with the same bucket serves the same office (the sessions too)
  await step('backup and restore drill: pg_dump, pg_restore, a server on the copy', async () => {
    const dumpDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-cluster-dump-'));
    tempDirs.push(dumpDir);
    const dump = path.join(dumpDir, 'tripdesk.dump');
    const restoreUrl = new URL(clusterUrl);
    restoreUrl.pathname = `/${DB_NAME}_restored`;
    await run('pg_dump', ['--format=custom', `--file=${dump}`, clusterUrl.toString()]);
    await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME}_restored WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DB_NAME}_restored`);
    await run('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${restoreUrl}`, dump]);
    const c = await startTripdesk(
      'C',
      'src/server/main.ts',
      env('c', { WORKERS: '0', SEED_DEMO: '0', DATABASE_URL: restoreUrl.toString() }),
      READY,
    );
    const C = `http://127.0.0.1:${c.port}`;
    const ready = await call(C, 'GET', '/readyz', { session: false });
    expectStatus(ready, 200, 'GET /readyz on the restored copy');
    const copy = new pg.Client({ connectionString: restoreUrl.toString() });
    await copy.connect();
    try {
      const counts =
        'select (select count(*) from bookings)::int as b, (select count(*) from transactions)::int as t, (select count(*) from booking_notes)::int as n, (select count(*) from trip_documents where stored_file is not null)::int as d';
      const [was] = (await db!.query<{ b: number; t: number; n: number; d: number }>(counts)).rows;
      const [now] = (await copy.query<{ b: number; t: number; n: number; d: number }>(counts)).rows;
      check(
        JSON.stringify(was) === JSON.stringify(now),
        `the copy holds ${JSON.stringify(now)}, the original ${JSON.stringify(was)}`,
      );
      // the session made at the start is in the copy: the same cookie signs in on C
      const list = await call(C, 'GET', '/api/bookings?per_page=1');
      expectStatus(list, 200, 'GET /api/bookings on C with the session of the original');
      const docs = await call(C, 'GET', `/api/trips/${need(tripId, 'the trip')}/documents`);
      const signed = docs.json<Array<{ signed_url: string | null }>>().find((d) => d.signed_url)?.signed_url;
      check(signed, 'no document on the copy');
      expectStatus(await call(C, 'GET', signed, { session: false }), 200, 'a document of the copy, from the bucket');
      return `${now!.b} bookings, ${now!.t} transactions, ${now!.n} notes and ${now!.d} documents in the copy, as in the original; C ready, the session and the files work`;
    } finally {
      await copy.end();
    }
  });
} catch (error) {
  rows.push({
    step: 'the bench itself',
    ok: false,
    result: `FAILED: ${error instanceof Error ? error.message : String(error)}`,
    ms: 0,
  });
} finally {
  await db?.end().catch(() => undefined);
  await proxy?.close();
  await stopAll();
  await s3?.close();
  await admin.end().catch(() => undefined);
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// The report

const width = Math.max(4, ...rows.map((r) => r.step.length));
console.log(
  `\nSeveral servers as one (${SHORT ? 'short' : 'full'}: ${LOAD} writes in the kill step), ${((performance.now() - started) / 1000).toFixed(1)} s in all\n`,
);
console.log(`| ${'step'.padEnd(width)} | result | ms |`);
console.log(`|${'-'.repeat(width + 2)}|--------|---:|`);
for (const r of rows) console.log(`| ${r.step.padEnd(width)} | ${r.result} | ${r.ms.toFixed(0)} |`);
const failures = rows.filter((r) => !r.ok);
if (failures.length) {
  console.log(`\n${failures.length} step${failures.length === 1 ? '' : 's'} failed. The servers' last words:`);
  for (const proc of procs)
    console.log(
      `\n  ${proc.name} (${alive(proc) ? 'running' : `exited ${proc.child.signalCode ?? proc.child.exitCode}`}):\n${tail(proc)}`,
    );
  process.exit(1);
}
console.log('\nEvery step passed.');
