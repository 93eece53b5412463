import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteExtensions } from '../../db/client.ts';
import { withDatabase } from '../../../tests/support/global-setup.ts';
import { shutDown } from './shutdown.ts';

/**
 * Graceful shutdown of the real server (issue 21): `src/server/main.ts` as a child process on a
 * copy of the migrated test database. A request is in flight (its body half sent) when SIGTERM
 * arrives: new connections are refused at once, the request still completes with 200, and the
 * process exits 0.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const EMAIL = 'ops.admin@example.test';
const PASSWORD = 'correct horse battery staple';

type Reply = { status: number; headers: http.IncomingHttpHeaders; body: string };

function request(port: number, options: { method: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: options.method, path: options.path, headers: options.headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
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
const cookiesOf = (reply: Reply) => (reply.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!);

let dataDir: string;
let dropDatabase: (() => Promise<void>) | undefined;
let child: ChildProcess | undefined;
let output = '';
let port = 0;

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
  const client = await PGlite.create(path.join(dataDir, 'pglite'), { loadDataDir: new Blob([readFileSync(template)]), extensions: pgliteExtensions() });
  await client.close();
  return '';
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-shutdown-'));
  const databaseUrl = await prepareDatabase();
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
      SHUTDOWN_GRACE_SECONDS: '20',
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

describe('SIGTERM', () => {
  it('refuses new connections, finishes the request in flight with 200 and exits 0', async () => {
    // sign in as the first Administrator, and read the page's CSRF token
    const login = await request(port, { method: 'POST', path: '/login', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
    expect(login.status, login.body).toBe(204);
    let cookies = cookiesOf(login);
    const page = await request(port, { method: 'GET', path: '/', headers: { cookie: cookies.join('; ') } });
    cookies = [...new Map([...cookies, ...cookiesOf(page)].map((c) => [c.split('=')[0], c])).values()];
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(page.body)?.[1];
    expect(csrf).toBeTruthy();

    // a request in flight: headers and half the body sent; the rest comes after SIGTERM
    const body = JSON.stringify({ months: 7, note: 'Two blank pages.' });
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    let answered = false;
    let sendRest = () => {};
    const inFlight = new Promise<Reply>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'PUT',
          path: '/api/countries/604/passport-rule',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), cookie: cookies.join('; '), 'x-csrf-token': csrf!, 'x-requested-with': 'XMLHttpRequest' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            answered = true;
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
          });
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      sendRest = () => req.end(body.slice(10));
    });
    // the server has the connection and the request's headers (it has nothing else to do)
    await sleep(300);

    child!.kill('SIGTERM');
    let closed = false;
    for (let i = 0; i < 100 && !closed; i++) {
      closed = await refused(port);
      if (!closed) await sleep(50);
    }
    expect(closed, output).toBe(true);
    // still up, still holding the request
    expect(child!.exitCode).toBeNull();
    expect(answered).toBe(false);

    sendRest();
    const reply = await inFlight;
    expect(reply.status, reply.body).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ months: 7, note: 'Two blank pages.' });
    expect(await exited, output).toBe(0);
  }, 30_000);
});

describe('shutDown', () => {
  it('closes the database after the web server and the job queue, and says 1 when one of them failed', async () => {
    const order: string[] = [];
    const code = await shutDown({
      jobs: { stop: async () => { await sleep(20); order.push('jobs'); throw new Error('stuck'); } },
      database: { close: async () => { order.push('database'); } },
      graceMs: 1000,
      log: (message) => order.push(message),
    });
    expect(code).toBe(1);
    expect(order).toEqual(['jobs', 'the job queue did not stop cleanly: stuck', 'database']);
    expect(await shutDown({ database: { close: async () => {} }, graceMs: 1000 })).toBe(0);
  });
});
