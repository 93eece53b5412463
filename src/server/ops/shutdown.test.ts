import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import pg from 'pg';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, pgliteExtensions, queryRows } from '../../db/client.ts';
import { insertTrip } from '../../db/factories/trips.ts';
import { bookings } from '../../db/schema/index.ts';
import { makeBookingRef } from '../../shared/booking-ref.ts';
import { withDatabase } from '../../../tests/support/global-setup.ts';
import { shutDown } from './shutdown.ts';

/**
 * Graceful shutdown of the real server: `src/server/main.ts` as a child process on a copy of the
 * migrated test database holding a trip of BOOKINGS travellers (whose payment schedules the
 * server's start-up job is still making). When SIGTERM arrives a payment is in flight (its body
 * half sent) and so is the spreadsheet of every booking (its reply not yet read): new connections
 * are refused at once, both still complete — the payment recorded, the spreadsheet whole — and
 * the process exits 0. The test goes by what the server says (its in-flight requests on /metrics,
 * its "no longer accepts connections" line), never by how fast this machine is.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const EMAIL = 'ops.admin@example.test';
const PASSWORD = 'correct horse battery staple';

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: string };

function request(
  port: number,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: options.method, path: options.path, headers: options.headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `ok()` holds, checking every 20 ms; fails with `what` after `ms`. */
async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s\n${output}`);
    await sleep(20);
  }
}

/** The requests the server has received and not answered, not counting the one asking. */
async function inFlight(): Promise<number> {
  const reply = await request(port, { method: 'GET', path: '/metrics' });
  const match = /^http_requests_in_flight (\d+)/m.exec(reply.body);
  if (!match) throw new Error(`no in-flight gauge in /metrics (${reply.status})`);
  return Number(match[1]) - 1;
}

/** A promise whose failure is kept until it is awaited, never reported as unhandled meanwhile. */
function settled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}
const cookiesOf = (reply: Reply) => (reply.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!);

let dataDir: string;
let dropDatabase: (() => Promise<void>) | undefined;
let child: ChildProcess | undefined;
let output = '';
let port = 0;
let databaseUrlOfChild = '';
let tripId = 0;
let bookingId = 0;
const BOOKINGS = 3000;
const GRACE_SECONDS = 20;

/** A migrated database for the child: the run's template, as the other test files get. */
async function prepareDatabase(): Promise<string> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `tripdesk_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${process.env.TRIPDESK_TEST_TEMPLATE_DB}`);
    dropDatabase = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
    return withDatabase(url, name);
  }
  // the embedded database: the template unpacked into DATA_DIR/pglite, where main.ts opens it
  const template = process.env.TRIPDESK_TEST_TEMPLATE;
  if (!template) throw new Error('The test template database is missing: run the tests through vitest.');
  const client = await PGlite.create(path.join(dataDir, 'pglite'), {
    loadDataDir: new Blob([readFileSync(template)]),
    extensions: pgliteExtensions(),
  });
  await client.close();
  return '';
}

/** A trip of BOOKINGS travellers, written before the server opens the database. */
async function seed(databaseUrl: string) {
  const database = await createDb(databaseUrl ? { databaseUrl } : { pgliteDir: path.join(dataDir, 'pglite') });
  try {
    const trip = await insertTrip(database.db, { name: 'Shutdown Trek' });
    tripId = trip.id;
    const refs = new Set<string>();
    while (refs.size < BOOKINGS) refs.add(makeBookingRef());
    const rows = [...refs].map((ref, i) => ({
      ref,
      tripId,
      firstName: 'Traveller',
      lastName: `Number${i}`,
      email: `traveller${i}@example.test`,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      const written = await database.db
        .insert(bookings)
        .values(rows.slice(i, i + 500))
        .returning({ id: bookings.id });
      if (!bookingId) bookingId = written[0]!.id;
    }
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-shutdown-'));
  const databaseUrl = await prepareDatabase();
  databaseUrlOfChild = databaseUrl;
  await seed(databaseUrl);
  child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: '0',
      WORKERS: '1',
      ADMIN_EMAIL: EMAIL,
      ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
      METRICS_ALLOW: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let i = 0; i < 600 && !port; i++) {
    const match = /Tripdesk is ready at http:\/\/[^:]+:(\d+)/.exec(output);
    if (match) port = Number(match[1]);
    else if (child.exitCode !== null) break;
    else await sleep(50);
  }
  if (!port) throw new Error(`the server did not start:\n${output}`);
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await dropDatabase?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A request whose body is sent in two parts: `finish()` sends the rest; resolves with the reply. */
function halfSent(options: { method: string; path: string; headers: Record<string, string>; body: string }) {
  let finish = () => {};
  const reply = new Promise<Reply>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method,
        path: options.path,
        agent: false,
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.write(options.body.slice(0, 10));
    finish = () => req.end(options.body.slice(10));
  });
  return { reply: settled(reply), finish: () => finish() };
}

/** A download read only when `read()` is called: until then its reply waits in the server's and the system's buffers. */
function unread(path: string, headers: Record<string, string>) {
  let resume = () => {};
  const reply = new Promise<{ status: number; type: string; body: Buffer }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'GET', path, agent: false, headers }, (res) => {
      res.pause();
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          body: Buffer.concat(chunks),
        }),
      );
      resume = () => res.resume();
    });
    req.on('error', reject);
    req.end();
  });
  return { reply: settled(reply), read: () => resume() };
}

describe('SIGTERM', () => {
  it('refuses new connections, finishes the payment and the export in flight, and exits 0', async () => {
    // sign in as the first Administrator, and read the page's CSRF token
    const login = await request(port, {
      method: 'POST',
      path: '/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(login.status, login.body).toBe(204);
    let cookies = cookiesOf(login);
    const page = await request(port, { method: 'GET', path: '/', headers: { cookie: cookies.join('; ') } });
    cookies = [...new Map([...cookies, ...cookiesOf(page)].map((c) => [c.split('=')[0], c])).values()];
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)?.[1];
    expect(csrf).toBeTruthy();
    const headers = {
      'content-type': 'application/json',
      cookie: cookies.join('; '),
      'x-csrf-token': csrf!,
      'x-requested-with': 'XMLHttpRequest',
    };

    // the balance invoice of the first traveller, to be paid while the server stops
    const invoiced = await request(port, {
      method: 'POST',
      path: `/api/bookings/${bookingId}/invoices`,
      headers,
      body: JSON.stringify({ invoice_type: 'balance' }),
    });
    expect(invoiced.status, invoiced.body).toBe(201);
    const invoice = JSON.parse(invoiced.body) as { id: number; type: string };

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    // in flight: the spreadsheet of every booking, not yet read, and a payment, half its body sent
    const download = unread(`/bookings/export?format=xls&trip_id=${tripId}&timing=all`, { cookie: cookies.join('; ') });
    const payment = halfSent({
      method: 'POST',
      path: '/api/transactions',
      headers: { ...headers, 'idempotency-key': 'shutdown-payment-1' },
      body: JSON.stringify({
        booking_id: bookingId,
        invoice_id: invoice.id,
        invoice_type: invoice.type,
        amount: '250.00',
        type: 'payment',
        processor: 'BACS',
        date: new Date().toISOString().slice(0, 10),
      }),
    });
    // the server has read both requests' headers
    await until("the export and the payment in the server's hands", async () => (await inFlight()) >= 2);

    child!.kill('SIGTERM');
    await until(
      'the server says it no longer accepts connections',
      () => output.includes('Tripdesk no longer accepts connections'),
      GRACE_SECONDS * 1000,
    );
    expect(await refused(port), output).toBe(true);
    // still up, still holding both
    expect(child!.exitCode).toBeNull();

    payment.finish();
    download.read();
    const [paid, sheet] = await Promise.all([payment.reply, download.reply]);
    expect(paid.status, paid.body).toBe(201);
    expect(JSON.parse(paid.body)).toMatchObject({
      booking_id: bookingId,
      invoice_id: invoice.id,
      amount: 250,
      type: 'payment',
    });
    expect(sheet.status).toBe(200);
    expect(sheet.type).toContain('spreadsheetml');
    // the whole workbook: a row per booking under the heading
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sheet.body as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.actualRowCount).toBe(BOOKINGS + 1);
    expect(await exited, output).toBe(0);

    // and the payment is there after the restart: the database closed cleanly with it
    const database = await createDb(
      process.env.DATABASE_URL ? { databaseUrl: databaseUrlOfChild } : { pgliteDir: path.join(dataDir, 'pglite') },
    );
    try {
      const rows = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from transactions where booking_id = ${bookingId} and deleted_at is null`,
      );
      expect(rows[0]!.n).toBe(1);
    } finally {
      await database.close();
    }
  }, 60_000);
});

describe('shutDown', () => {
  it('closes the database after the web server and the job queue, and says 1 when one of them failed', async () => {
    const order: string[] = [];
    const code = await shutDown({
      jobs: {
        stop: async () => {
          await sleep(20);
          order.push('jobs');
          throw new Error('stuck');
        },
      },
      database: {
        close: async () => {
          order.push('database');
        },
      },
      graceMs: 1000,
      log: (message) => order.push(message),
    });
    expect(code).toBe(1);
    expect(order).toEqual(['jobs', 'the job queue did not stop cleanly: stuck', 'database']);
    expect(await shutDown({ database: { close: async () => {} }, graceMs: 1000 })).toBe(0);
  });

  it('stops listening at once, and says 1 when a request whose body is still arriving outlives the grace', async () => {
    const app = Fastify();
    app.post('/slow', async (request) => request.body);
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
    const body = JSON.stringify({ a: 'b'.repeat(100) });
    const stuck = halfSent({ method: 'POST', path: '/slow', headers: { 'content-type': 'application/json' }, body });
    await sleep(100);
    const order: string[] = [];
    const code = shutDown({
      app,
      database: {
        close: async () => {
          order.push('database');
        },
      },
      graceMs: 300,
      log: (m) => order.push(m),
      onStoppedListening: () => order.push('stopped listening'),
    });
    expect(order).toEqual(['stopped listening']);
    expect(await refused(port)).toBe(true);
    expect(await code).toBe(1);
    expect(order).toEqual([
      'stopped listening',
      'requests still open after 0 s: closing their connections',
      'database',
    ]);
    await expect(stuck.reply).rejects.toThrow();
  });
});
