import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { createDb, pgliteExtensions, type Database, type Db } from '../../src/db/client.ts';
import { insertUser } from '../../src/db/factories/users.ts';
import { buildApp } from '../../src/server/app.ts';
import type { Clock } from '../../src/server/clock.ts';
import type { Config } from '../../src/server/config.ts';
import { startJobQueue, type JobQueue, type QueueDefinition } from '../../src/server/jobs/queue.ts';
import { createFileStore, type FileStore } from '../../src/shared/storage/index.ts';
import { withDatabase } from './global-setup.ts';

/** A database of its own for one test file, copied from the migrated template. */
export async function createTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `tripdesk_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${process.env.TRIPDESK_TEST_TEMPLATE_DB}`);
    const database = await createDb({ databaseUrl: withDatabase(url, name), poolSize: 5 });
    return {
      ...database,
      close: async () => {
        await database.close();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const file = process.env.TRIPDESK_TEST_TEMPLATE;
  if (!file) throw new Error('The test template database is missing: run the tests through vitest.');
  const client = await PGlite.create({
    loadDataDir: new Blob([readFileSync(file)]),
    extensions: pgliteExtensions(),
  });
  return createDb({ pglite: client });
}

export function testConfig(dataDir: string, overrides: Partial<Config> = {}): Config {
  return {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: undefined,
    sessionSecret: 'test-secret-that-is-long-enough-to-sign-cookies',
    sessionIdleMs: 2 * 3_600_000,
    sessionAbsoluteMs: 12 * 3_600_000,
    adminEmail: undefined,
    adminPassword: undefined,
    smtpUrl: undefined,
    mailFrom: 'Tripdesk <no-reply@tripdesk.test>',
    operatorName: 'Tripdesk Test Adventures Ltd',
    operatorAddress: ['1 Test Street', 'London', 'EC1A 1AA'],
    personalTokenDays: 365,
    auditRetentionDays: 2555,
    seedDemo: false,
    workers: false,
    invoiceLeadDays: 21,
    retentionDaysAfterReturn: 180,
    officeEmail: undefined,
    reminderDays: [-7, -3, 0, 2, 7],
    fundraisingDefaults: {
      minimumPence: { fundraise: 250_000, flexi: 125_000 },
      milestones: [
        { percent: 50, weeks_before: 16 },
        { percent: 80, weeks_before: 12 },
        { percent: 100, weeks_before: 4 },
      ],
    },
    // tests sign in many times from one address; the limit itself has a test of its own
    loginRateLimit: 10_000,
    trustProxy: false,
    logLevel: 'silent',
    shutdownGraceSeconds: 25,
    metricsToken: undefined,
    metricsAllow: [],
    storage: { driver: 'local', dataDir },
    stripe: undefined,
    publicUrl: 'http://tripdesk.test',
    payLinkDays: 30,
    bookingHoldMinutes: 30,
    operatorTermsUrl: 'https://tripdesk.test/terms',
    // tests book many times from one address; the limit itself has a test of its own
    publicBookingsPerAddress: 10_000,
    waitingListOfferHours: 48,
    publicPageCacheMs: 2000,
    bookingBurst: 2,
    ...overrides,
  };
}

export type TestApp = {
  app: FastifyInstance;
  jobs: JobQueue | undefined;
  db: Db;
  /** the database the app runs on (how another server would reach it) */
  database: Database;
  config: Config;
  /** the app's file store (STORAGE of the config: local unless a test asks for s3) */
  files: FileStore;
  close(): Promise<void>;
  /** a browser-like client: keeps cookies, reads the CSRF token from a page */
  client(): TestClient;
  /** a signed-in client for a new user of that role */
  signedIn(roleId?: number, email?: string): Promise<TestClient>;
};

export const PASSWORD = 'correct horse battery staple';

/** What else a test app runs: the job queue, with these queues, on this clock. */
export type TestAppOptions = {
  queues?: (database: Database, config: Config) => QueueDefinition[];
  /** the job queue's clock */
  clock?: Clock;
  /** the app's own clock (what time its routes and services think it is) */
  appClock?: Clock;
};

export async function createTestApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-data-'));
  const config = testConfig(dataDir, overrides);
  const jobs = options.queues
    ? await startJobQueue({
        database,
        work: true,
        queues: options.queues(database, config),
        pollingIntervalSeconds: 0.5,
        ...(options.clock ? { clock: options.clock } : {}),
      })
    : undefined;
  const files = createFileStore(config.storage);
  const app = await buildApp({
    config,
    db: database.db,
    files,
    ...(jobs ? { jobs } : {}),
    ...(options.appClock ? { clock: options.appClock } : {}),
  });
  await app.ready();
  let users = 0;
  const t: TestApp = {
    app,
    db: database.db,
    database,
    config,
    jobs,
    files,
    close: async () => {
      await app.close();
      files.close();
      await jobs?.stop(2000);
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    client: () => new TestClient(app),
    signedIn: async (roleId = 1, email?: string) => {
      users += 1;
      const address = email ?? `user${users}.role${roleId}@example.test`;
      await insertUser(database.db, {
        email: address,
        password: PASSWORD,
        roleId,
        firstName: 'Sam',
        lastName: `Tester${users}`,
      });
      const client = t.client();
      await client.login(address, PASSWORD);
      return client;
    },
  };
  return t;
}

type Request = Omit<InjectOptions, 'headers'> & { headers?: Record<string, string>; csrf?: boolean };

export class TestClient {
  readonly cookies = new Map<string, string>();
  csrfToken: string | undefined;

  constructor(private readonly app: FastifyInstance) {}

  async request(options: Request): Promise<LightMyRequestResponse> {
    const { csrf = true, headers = {}, ...rest } = options;
    const method = (rest.method ?? 'GET').toUpperCase();
    const h: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest', ...headers };
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (csrf && method !== 'GET' && method !== 'HEAD') {
      if (!this.csrfToken) await this.refreshCsrf();
      if (this.csrfToken) h['x-csrf-token'] = this.csrfToken;
      if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    const res = await this.app.inject({ ...rest, method: method as never, headers: h });
    this.keepCookies(res);
    return res;
  }

  get = (url: string, headers?: Record<string, string>) => this.request({ method: 'GET', url, headers });
  post = (url: string, payload?: unknown, headers?: Record<string, string>) =>
    this.request({ method: 'POST', url, payload: payload as never, headers });
  patch = (url: string, payload?: unknown) => this.request({ method: 'PATCH', url, payload: payload as never });
  put = (url: string, payload?: unknown) => this.request({ method: 'PUT', url, payload: payload as never });
  delete = (url: string) => this.request({ method: 'DELETE', url });

  /** Reads the token from <meta name="csrf-token"> of a page, as the web client does. */
  async refreshCsrf(page = '/login'): Promise<string | undefined> {
    let res = await this.request({ method: 'GET', url: page });
    // as a browser does: a page that sends the user elsewhere (a traveller's / is /my) is followed
    for (let hops = 0; hops < 3 && res.statusCode >= 300 && res.statusCode < 400 && res.headers.location; hops++) {
      res = await this.request({ method: 'GET', url: String(res.headers.location) });
    }
    const match = /<meta name="csrf-token" content="([^"]+)">/.exec(res.body);
    this.csrfToken = match?.[1];
    return this.csrfToken;
  }

  async login(email: string, password: string): Promise<LightMyRequestResponse> {
    const res = await this.request({ method: 'POST', url: '/login', payload: { email, password }, csrf: false });
    if (res.statusCode === 204) await this.refreshCsrf('/');
    return res;
  }

  private keepCookies(res: LightMyRequestResponse) {
    for (const c of res.cookies as Array<{ name: string; value: string; expires?: Date; maxAge?: number }>) {
      const expired = (c.expires && c.expires.getTime() <= Date.now()) || c.maxAge === 0 || c.value === '';
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }
}
