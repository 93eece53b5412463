import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../db/factories/users.ts';
import type { Db } from '../../db/client.ts';
import { createTestApp, PASSWORD, TestClient, type TestApp } from '../../../tests/support/test-app.ts';
import { buildApp } from '../app.ts';
import type { Mailer } from '../mail/transport.ts';
import { createFileStore } from '../../shared/storage/index.ts';
import { checkReadiness } from './health.ts';
import { createMetrics, metricsGate } from './metrics.ts';

const TOKEN = 'scrape-me-0123456789abcdef0123456789';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let t: TestApp;
beforeAll(async () => {
  // a queue whose job fails at once, for the failures gauge
  t = await createTestApp(
    { metricsToken: TOKEN, metricsAllow: ['10.1.0.0/16', '192.0.2.7'] },
    {
      queues: () => [
        {
          name: 'ops-fail',
          options: { retryLimit: 0 },
          handler: async () => {
            throw new Error('no');
          },
        },
      ],
    },
  );
});
afterAll(() => t.close());

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"} to anyone, without a session or a CSRF token, and sets no cookie', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'HEAD', url: '/healthz' })).statusCode).toBe(200);
  });

  it("carries helmet's security headers, the app's own Content-Security-Policy among them, on every reply", async () => {
    for (const url of ['/healthz', '/healthz', '/api/no-such-thing']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = res.headers['content-security-policy'];
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("img-src 'self' data: blob:");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('is not rate limited', async () => {
    const replies = await Promise.all(
      Array.from({ length: 60 }, () => t.app.inject({ method: 'GET', url: '/healthz' })),
    );
    expect(replies.every((r) => r.statusCode === 200)).toBe(true);
  });
});

describe('GET /readyz', () => {
  it('answers 200 with each check when the database, its migrations and the file store are fine', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ready');
    expect(body.checks.database).toEqual({ status: 'ok' });
    expect(body.checks.migrations.status).toBe('ok');
    expect(body.checks.migrations.detail).toMatch(/^\d+ applied, \d+ shipped$/);
    expect(body.checks.storage).toEqual({ status: 'ok' });
  });

  it('answers 503 naming the file store when DATA_DIR/files cannot be written', async () => {
    const files = path.join(t.config.dataDir, 'files');
    rmSync(files, { recursive: true, force: true });
    writeFileSync(files, 'not a directory');
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 'not_ready',
        message: 'Not ready: storage',
        checks: { database: { status: 'ok' }, storage: { status: 'failed' } },
      });
      // the code only: no path of the server's disk in an unauthenticated reply
      expect(res.body).not.toContain(t.config.dataDir);
    } finally {
      rmSync(files, { force: true });
      mkdirSync(files);
    }
  });

  it('fails the database and the migrations when the database does not answer, each within its time', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-ready-'));
    const hung = { execute: () => new Promise(() => {}) } as unknown as Db;
    const failures: string[] = [];
    const started = Date.now();
    const result = await checkReadiness({
      db: hung,
      files: createFileStore({ driver: 'local', dataDir }),
      timeoutMs: 50,
      onFailure: (part) => failures.push(part),
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result).toMatchObject({
      status: 'not_ready',
      message: 'Not ready: database, migrations',
      checks: {
        database: { status: 'failed', detail: 'the database did not answer within 50 ms' },
        storage: { status: 'ok' },
      },
    });
    expect(failures.sort()).toEqual(['database', 'migrations']);

    const refused = {
      execute: () =>
        Promise.reject(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    } as unknown as Db;
    const down = await checkReadiness({ db: refused, files: createFileStore({ driver: 'local', dataDir }) });
    expect(down.checks.database).toEqual({ status: 'failed', detail: 'error ECONNREFUSED' });
    expect(JSON.stringify(down)).not.toContain('10.0.0.1');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('fails the migrations when this build ships one the database has not applied', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-migrations-'));
    mkdirSync(path.join(folder, 'meta'));
    // a migration from far in the future: never applied to the test database
    writeFileSync(
      path.join(folder, 'meta', '_journal.json'),
      JSON.stringify({
        entries: [
          { idx: 0, when: 1, tag: '0000_old' },
          { idx: 1, when: 99_999_999_999_999, tag: '9999_next' },
        ],
      }),
    );
    const result = await checkReadiness({ db: t.db, files: t.files, migrationsFolder: folder });
    expect(result.status).toBe('not_ready');
    expect(result.checks.migrations).toEqual({
      status: 'failed',
      detail: expect.stringMatching(/^\d+ of 2 migrations not applied$/),
    });
    rmSync(folder, { recursive: true, force: true });
  });
});

describe('the API documentation', () => {
  it('describes the probes and leaves /metrics out', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz']));
    expect(doc.paths['/metrics']).toBeUndefined();
  });
});

describe('X-Request-Id', () => {
  it('is made for every request and echoed, a 404 included', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(String(a.headers['x-request-id'])).toMatch(UUID);
    const missing = await t.app.inject({ method: 'POST', url: '/no/such/thing' });
    expect(missing.statusCode).toBe(404);
    expect(String(missing.headers['x-request-id'])).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(missing.headers['x-request-id']);
  });

  it('keeps a sane id from the caller and replaces one too long or with odd characters', async () => {
    const kept = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'lb-7f3a.2026:42_x' },
    });
    expect(kept.headers['x-request-id']).toBe('lb-7f3a.2026:42_x');
    for (const bad of ['x'.repeat(129), 'a b', '<script>', '{"a":1}', 'ünïcode', '-leading-dash', '']) {
      const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': bad } });
      expect(String(res.headers['x-request-id']), JSON.stringify(bad)).toMatch(UUID);
    }
  });
});

describe('request logs', () => {
  let app: FastifyInstance;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    app = await buildApp({ config: t.config, db: t.db, logger: { level: 'info', stream } });
    await app.ready();
  });
  afterAll(() => app.close());

  it('writes one line per request: route pattern, method, status, time, user id and request id — no email, cookie or token', async () => {
    const email = 'logged.user@example.test';
    const user = await insertUser(t.db, { email, password: PASSWORD, roleId: 1, firstName: 'Lou', lastName: 'Logger' });
    const client = new TestClient(app);
    await client.login(email, PASSWORD);
    lines.length = 0;
    const res = await client.get('/api/bookings?email=someone.secret%40example.test&name=Passport123', {
      'x-request-id': 'trace-me-1',
    });
    expect(res.statusCode).toBe(200);
    const mine = lines.filter((l) => l.reqId === 'trace-me-1');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 30,
      msg: 'request',
      method: 'GET',
      route: '/api/bookings',
      status: 200,
      userId: user.id,
    });
    expect(typeof mine[0]!.ms).toBe('number');
    const text = JSON.stringify(lines);
    for (const secret of [
      'someone.secret',
      email,
      'Passport123',
      'tripdesk_session',
      client.csrfToken!,
      [...client.cookies.values()][0]!,
    ])
      expect(text).not.toContain(secret);
  });

  it('logs an unknown address by its pattern, and a bearer-less anonymous call with no user', async () => {
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/api/bookings/123456789', headers: { 'x-request-id': 'anon-1' } });
    expect(lines.filter((l) => l.reqId === 'anon-1')).toEqual([
      expect.objectContaining({ route: '/api/bookings/:id', status: 401, userId: null }),
    ]);
  });

  it('keeps the probes and /metrics out of the log at info level', async () => {
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/readyz' });
    await app.inject({ method: 'GET', url: '/metrics' });
    expect(lines).toEqual([]);
  });
});

describe('GET /metrics', () => {
  const scrape = (headers: Record<string, string> = {}, remoteAddress?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers, ...(remoteAddress ? { remoteAddress } : {}) });

  it('answers 404, as any unknown address does, without the token or an allowed address', async () => {
    for (const res of [
      await scrape(),
      await scrape({ authorization: `Bearer ${TOKEN}x` }),
      await scrape({ authorization: 'Bearer ' }),
      await scrape({ authorization: TOKEN }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not Found' });
    }
  });

  it('answers with the token, or to an allowed address or range', async () => {
    expect((await scrape({ authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
    expect((await scrape({}, '10.1.200.3')).statusCode).toBe(200);
    expect((await scrape({}, '::ffff:192.0.2.7')).statusCode).toBe(200);
    expect((await scrape({}, '10.2.0.1')).statusCode).toBe(404);
  });

  it('reports requests by route pattern (never the raw URL), method and status, with their durations', async () => {
    await t.app.inject({ method: 'GET', url: '/api/bookings/424242' });
    const res = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toMatch(
      /^http_requests_total\{method="GET",route="\/api\/bookings\/:id",status_code="401"\} [1-9]/m,
    );
    expect(res.body).toMatch(
      /^http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/bookings\/:id",status_code="401"\} \d+/m,
    );
    expect(res.body).not.toContain('424242');
    // answered requests are counted out: only the scrape itself is in flight
    expect(res.body).toMatch(/^http_requests_in_flight 1$/m);
    // the process's own
    expect(res.body).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(res.body).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    // email counts start at zero for each outcome
    expect(res.body).toMatch(/^tripdesk_emails_total\{outcome="failed"\} 0$/m);
  });

  it('reports the job queue by queue and state: a job that failed is counted', async () => {
    const id = await t.jobs!.send('ops-fail', {});
    for (let i = 0; i < 200 && (await t.jobs!.boss.getJobById('ops-fail', id!))?.state !== 'failed'; i++)
      await new Promise((r) => setTimeout(r, 25));
    const res = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(res.body).toMatch(/^tripdesk_jobs\{queue="ops-fail",state="failed"\} 1$/m);
  });
});

describe('metrics, unit by unit', () => {
  it('counts email by outcome where it is sent', async () => {
    const metrics = createMetrics({ processMetrics: false });
    let refuse = false;
    const inner: Mailer = {
      send: async () => {
        if (refuse) throw Object.assign(new Error('550 no such user'), { responseCode: 550 });
        return { outcome: 'sent', messageId: '<1@x>' };
      },
    };
    const mailer = metrics.countMail(inner);
    const mail = { to: { name: 'A', address: 'a@example.test' }, subject: 's', text: 't', html: '<p>t</p>' };
    await mailer.send(mail);
    await mailer.send(mail);
    refuse = true;
    await expect(mailer.send(mail)).rejects.toThrow('550');
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^tripdesk_emails_total\{outcome="sent"\} 2$/m);
    expect(text).toMatch(/^tripdesk_emails_total\{outcome="failed"\} 1$/m);
    expect(text).toMatch(/^tripdesk_emails_total\{outcome="written_to_eml"\} 0$/m);
    // its own registry: nothing of the process unless asked, nothing of other apps
    expect(text).not.toContain('process_cpu');
  });

  it('reports a PostgreSQL pool in use and idle; the embedded database has none', async () => {
    const pooled = {
      $client: { totalCount: 7, idleCount: 3, waitingCount: 1 },
      execute: () => Promise.reject(new Error('no job queue')),
    } as unknown as Db;
    const text = await createMetrics({ db: pooled, processMetrics: false }).registry.metrics();
    expect(text).toMatch(/^tripdesk_db_pool_connections\{state="in_use"\} 4$/m);
    expect(text).toMatch(/^tripdesk_db_pool_connections\{state="idle"\} 3$/m);
    expect(text).toMatch(/^tripdesk_db_pool_connections\{state="waiting"\} 1$/m);
    // a scrape does not fail when the job counts cannot be read
    expect(text).toContain('# TYPE tripdesk_jobs gauge');
    // PGlite behind Drizzle: a client with no pool counts (the suite may itself run on PostgreSQL)
    const inProcess = {
      $client: { query: () => undefined },
      execute: () => Promise.reject(new Error('no job queue')),
    } as unknown as Db;
    const embedded = await createMetrics({ db: inProcess, processMetrics: false }).registry.metrics();
    expect(embedded).not.toContain('tripdesk_db_pool_connections');
  });

  it('lets nobody in when neither a token nor addresses are set', () => {
    const gate = metricsGate({ token: undefined, allow: [] });
    expect(gate({ headers: { authorization: 'Bearer ' }, ip: '127.0.0.1' })).toBe(false);
    expect(gate({ headers: {}, ip: '127.0.0.1' })).toBe(false);
    const v6 = metricsGate({ token: undefined, allow: ['::1', 'fd00::/8'] });
    expect(v6({ headers: {}, ip: '::1' })).toBe(true);
    expect(v6({ headers: {}, ip: 'fd12::5' })).toBe(true);
    expect(v6({ headers: {}, ip: '127.0.0.1' })).toBe(false);
  });
});
