// Crash safety: several writers drive the real server over HTTP (bookings with their deposit
// invoices, payments and refunds with Idempotency-Keys, strike-outs, notes, trip documents with
// their files, charity logos) while the server's process group is killed with SIGKILL at random
// moments and started again on the same DATA_DIR and database. After every kill the database is
// read directly (a copy of the embedded database's folder, so that the server still opens the
// folder exactly as the kill left it) and reconciled with what the writers were told:
//   - every write answered 2xx is there exactly once (its id, or its marker: e-mail, note text,
//     document name, Idempotency-Key); no write, answered or not, is there twice;
//   - no invoice's received (live payments less live refunds) is below £0 or above its total,
//     and the API's payment_received agrees with the live transactions;
//   - every file under DATA_DIR/files has the row that names it, and every row its file;
//   - the embedded database opens after every kill (the reconciling copy and the server itself);
//   - every payment or refund left unanswered is sent again with its Idempotency-Key: a payment
//     that had been recorded is replayed, not recorded twice.
// A last stretch of load without a kill ends with a clean stop (SIGTERM): what goes wrong there
// is not the crash's doing (e.g. two uploads racing). Prints tables; asserts nothing.
//   npx tsx bench/crash.ts [--db both|pglite|postgres] [--kills 20] [--writers 8] [--seed 1]
//                          [--min-ms 1000] [--max-ms 4000] [--startup-every 5] [--calm-ms 5000] [--keep]
//                          [--self-check]   (plants one of each fault at the first kill: the table must show them)
// PostgreSQL: the server of DATABASE_URL, in a database tripdesk_crash of its own (made afresh,
// dropped at the end unless --keep). --db both (the default) needs DATABASE_URL.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createDb, queryRows } from '../src/db/client.ts';
import { makeLogoPng } from '../src/db/seed/images.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    kills: { type: 'string', default: '20' },
    writers: { type: 'string', default: '8' },
    seed: { type: 'string', default: '1' },
    'min-ms': { type: 'string', default: '1000' },
    'max-ms': { type: 'string', default: '4000' },
    // every Nth kill hits the server while it starts (migrations, recovery), not under load; 0: never
    'startup-every': { type: 'string', default: '5' },
    'calm-ms': { type: 'string', default: '5000' },
    port: { type: 'string', default: '55480' },
    keep: { type: 'boolean', default: false },
    // plants one of each fault at the first kill (a lost note, a doubled note, an overpaid
    // invoice, an orphan file, a row without its file) to show that the reconciliation sees them
    'self-check': { type: 'boolean', default: false },
    // internal: read one database and write what the reconciliation needs as JSON
    dump: { type: 'string' },
  },
});

// ---------------------------------------------------------------------------------------------
// The reading side, run in a process of its own: an embedded database that cannot be opened may
// abort the WebAssembly module, and that must not take the bench with it.

type Dump = {
  bookings: Array<{ id: number; email: string }>;
  invoices: Array<{ id: number; booking_id: number; type: string }>;
  transactions: Array<{ id: number; key: string; invoice_id: number; deleted: boolean }>;
  notes: Array<{ id: number; marker: string }>;
  documents: Array<{ id: number; name: string; stored_file: string | null; size: number | null }>;
  charities: Array<{ id: number; logo_file: string | null }>;
  fileRows: Array<{ kind: string; name: string }>;
  money: Array<{ id: number; booking_id: number; total: number; received: number }>;
};
type DumpInput = {
  databaseUrl?: string;
  pgliteDir?: string;
  prefix: string;
  plant?: { deleteNote: string; duplicateNote: string; inflateTransaction: number };
};
type DumpResult = { ok: true; ms: number; dump: Dump } | { ok: false; ms: number; error: string };

async function dumpDatabase(input: DumpInput): Promise<Dump> {
  const database = await createDb({ databaseUrl: input.databaseUrl, pgliteDir: input.pgliteDir, poolSize: 2 });
  try {
    const q = <T>(s: ReturnType<typeof sql>) => queryRows<T>(database.db, s);
    const like = `${input.prefix}%`;
    if (input.plant) {
      const p = input.plant;
      await database.db.execute(sql`delete from booking_notes where note_text like ${`%${p.deleteNote}<%`}`);
      await database.db.execute(
        sql`insert into booking_notes (booking_id, note_text) select booking_id, note_text from booking_notes where note_text like ${`%${p.duplicateNote}<%`}`,
      );
      await database.db.execute(
        sql`update transactions set amount_pence = amount_pence + 10000000 where id = ${p.inflateTransaction}`,
      );
    }
    const num = <T extends Record<string, unknown>>(rows: T[], keys: string[]) =>
      rows.map(
        (r) =>
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [k, keys.includes(k) && v !== null ? Number(v) : v]),
          ) as T,
      );
    return {
      bookings: num(await q(sql`select id, email from bookings where email like ${like}`), ['id']),
      invoices: num(
        await q(
          sql`select i.id, i.booking_id, i.type from invoices i join bookings b on b.id = i.booking_id where b.email like ${like}`,
        ),
        ['id', 'booking_id'],
      ),
      transactions: num(
        await q(
          sql`select id, idempotency_key as key, invoice_id, deleted_at is not null as deleted from transactions where idempotency_key like ${like}`,
        ),
        ['id', 'invoice_id'],
      ),
      notes: num(
        await q(
          sql`select id, substring(note_text from ${'(crash-[a-z0-9]+-[0-9]+)'}) as marker from booking_notes where note_text like ${`%${like}`}`,
        ),
        ['id'],
      ),
      documents: num(
        await q(sql`select id, name, stored_file, size_bytes as size from trip_documents where name like ${like}`),
        ['id', 'size'],
      ),
      charities: num(await q(sql`select id, logo_file from charities`), ['id']),
      fileRows: await q(sql`
        select 'logos' as kind, logo_file as name from charities where logo_file is not null
        union all select 'documents', stored_file from trip_documents where stored_file is not null
        union all select 'passports', passport_image_file from bookings where passport_image_file is not null`),
      // what money.ts's summarise() works out, in SQL: nothing of it is stored
      money: num(
        await q(sql`
          select i.id, i.booking_id,
            s.sub - least(greatest(i.discount_pence, 0), s.sub) as total,
            coalesce((select sum(case when t.type = 'payment' then t.amount_pence else -t.amount_pence end)
                      from transactions t where t.invoice_id = i.id and t.deleted_at is null), 0) as received
          from invoices i
          cross join lateral (select
            coalesce((select sum(amount_pence) from invoice_items where invoice_id = i.id), 0)
            + coalesce((select sum(price_pence) from invoice_addons where invoice_id = i.id), 0) as sub) s`),
        ['id', 'booking_id', 'total', 'received'],
      ),
    };
  } finally {
    await database.close();
  }
}

if (values.dump) {
  const input = JSON.parse(readFileSync(values.dump, 'utf8')) as DumpInput;
  const t0 = performance.now();
  let result: DumpResult;
  try {
    result = { ok: true, ms: 0, dump: await dumpDatabase(input) };
  } catch (error) {
    result = { ok: false, ms: 0, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
  result.ms = performance.now() - t0;
  writeFileSync(`${values.dump}.out`, JSON.stringify(result));
  process.exit(0);
}

/** Reads the database in a child process; a crash of the child is a failed open. */
function readDatabase(input: DumpInput, workDir: string): Promise<DumpResult> {
  const file = path.join(workDir, `dump-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(input));
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SELF, '--dump', file], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const out = `${file}.out`;
      if (existsSync(out)) {
        const result = JSON.parse(readFileSync(out, 'utf8')) as DumpResult;
        rmSync(out, { force: true });
        rmSync(file, { force: true });
        return resolve(result);
      }
      rmSync(file, { force: true });
      resolve({
        ok: false,
        ms: performance.now() - t0,
        error: `reader ended (${code ?? signal}) without an answer: ${output.trim().split('\n').slice(-3).join(' | ')}`,
      });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Small pieces

const kills = Number(values.kills);
const writerCount = Number(values.writers);
const minMs = Number(values['min-ms']);
const maxMs = Number(values['max-ms']);
const startupEvery = Number(values['startup-every']);
const calmMs = Number(values['calm-ms']);
const port = Number(values.port);

// mulberry32: the same choices for the same --seed (the timing of the machine varies anyway)
let state = Number(values.seed) >>> 0;
function rand(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
const between = (a: number, b: number) => a + Math.floor(rand() * (b - a + 1));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : 0;
const yesterday = () => new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);

type Reply = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** One HTTP request; rejects when no whole answer came back (reset, refused, timed out). */
function send(
  agent: http.Agent,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent,
        headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          res.complete
            ? resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() })
            : reject(new Error('incomplete')),
        );
        res.on('error', reject);
        res.on('aborted', () => reject(new Error('aborted')));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

function multipart(
  fields: Record<string, string>,
  file: { field: string; filename: string; type: string; bytes: Buffer },
) {
  const boundary = `----crash${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
  );
  parts.push(file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

// ---------------------------------------------------------------------------------------------
// The app server as a child process group

class AppServer {
  child: ChildProcess | undefined;
  /** every server process not yet seen to exit: none may outlive the bench */
  readonly all = new Set<ChildProcess>();
  agent = new http.Agent({ keepAlive: true });
  lastReadyMs = 8000;
  private log;
  constructor(
    readonly env: NodeJS.ProcessEnv,
    logFile: string,
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  /** Starts the server; `killAfterMs` kills it that long after the spawn, ready or not. */
  start(killAfterMs?: number): Promise<{ ready: boolean; killed: boolean; ms: number; output: string }> {
    this.agent.destroy();
    this.agent = new http.Agent({ keepAlive: true });
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: ROOT,
      env: this.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.all.add(child);
    child.once('exit', () => this.all.delete(child));
    this.log.write(`\n---- start ${new Date().toISOString()} (pid ${child.pid})\n`);
    let output = '';
    return new Promise((resolve) => {
      let done = false;
      let killed = false;
      let ready = false;
      let killTimer: NodeJS.Timeout | undefined;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timeout);
        clearTimeout(killTimer);
        resolve({ ready, killed, ms: performance.now() - t0, output });
      };
      const onData = (d: Buffer) => {
        output += d.toString();
        this.log.write(d);
        if (!ready && output.includes('Tripdesk is ready at')) {
          ready = true;
          this.lastReadyMs = performance.now() - t0;
          // a start that is to be killed is over only when the kill has landed
          if (killAfterMs === undefined) finish();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.on('exit', () => finish());
      const timeout = setTimeout(() => {
        output += '\n(not ready after 180 s)';
        void this.kill9().then(() => finish());
      }, 180_000);
      if (killAfterMs !== undefined) {
        killTimer = setTimeout(() => {
          killed = true;
          void this.kill9();
        }, killAfterMs);
      }
    });
  }

  /** SIGKILL to the whole process group, and wait until the process is gone. */
  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    await exited;
  }

  /** SIGTERM: the server closes its database and exits; resolves with the exit code. */
  async stop(): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    process.kill(-child.pid!, 'SIGTERM');
    const code = await Promise.race([exited, sleep(30_000).then(() => 'timeout' as const)]);
    if (code === 'timeout') {
      await this.kill9();
      return null;
    }
    return code;
  }

  async close() {
    for (const child of [...this.all]) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    }
    this.agent.destroy();
    this.log.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Writes and what became of them

type Kind = 'booking' | 'invoice' | 'payment' | 'refund' | 'strike' | 'note' | 'document' | 'upload' | 'logo';
const KINDS: Kind[] = ['booking', 'invoice', 'payment', 'refund', 'strike', 'note', 'document', 'upload', 'logo'];
type Op = {
  n: number;
  kind: Kind;
  /** e-mail, Idempotency-Key, note or document marker; '' when the id alone identifies it */
  marker: string;
  /** the record the write is about: booking (invoice, note), invoice, transaction, document, charity */
  target?: number;
  life: number;
  outcome?: 'acked' | 'refused' | 'unanswered';
  status?: number;
  id?: number;
  message?: string;
  retry?: boolean;
  replayed?: boolean;
  body?: unknown;
  /** an unanswered write already looked for in the database */
  judged?: boolean;
  /** when it was sent and when it was answered or failed (performance.now()) */
  t0?: number;
  t1?: number;
};

type Auth = { name: 'session' | 'token'; headers: () => Record<string, string> };

type RunResult = {
  label: string;
  seconds: number;
  kills: number;
  startupKills: number;
  startupKillsAfterReady: number;
  sent: number;
  acked: number;
  refused: number;
  unanswered: number;
  status5xx: number;
  lost: Map<string, string>;
  duplicates: Map<string, string>;
  mismatched: Map<string, string>;
  orphans: Map<string, { calm: boolean; kill: number; cause: string }>;
  rowsWithoutFiles: Map<string, number>;
  failedOpens: { server: number; direct: number; details: string[] };
  restartMs: number[];
  serverReadyMs: number[];
  directMs: number[];
  byKind: Record<
    Kind,
    { sent: number; acked: number; refused: number; unanswered: number; committedUnanswered: number }
  >;
  retries: {
    sent: number;
    replayed: number;
    fresh: number;
    refused: number;
    unanswered: number;
    duplicate: number;
    phantom: number;
  };
  relogins: number;
  apiCompared: number;
  twins: { sent: number; bothAnswered: number; sameAnswer: number };
  refusals: Map<string, number>;
  serverErrors: Map<string, number>;
  stopCode: number | null | undefined;
  finalOrphansNew: number;
  ended: string;
};

async function run(label: string, databaseUrl: string | undefined): Promise<RunResult> {
  const started = performance.now();
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'tripdesk-crash-'));
  const dataDir = path.join(workDir, 'data');
  const prefix = `crash-${Date.now().toString(36)}-`;
  const email = 'crash-bench@example.test';
  const password = 'crash-bench-password-123';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_EMAIL: email,
    ADMIN_PASSWORD: password,
    SEED_DEMO: '1',
    LOG_LEVEL: 'warn',
    LOGIN_RATE_LIMIT: '1000',
    NODE_ENV: 'development',
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const server = new AppServer(env, path.join(workDir, 'server.log'));
  const target: DumpInput = databaseUrl ? { databaseUrl, prefix } : { pgliteDir: path.join(dataDir, 'pglite'), prefix };

  const r: RunResult = {
    label,
    seconds: 0,
    kills: 0,
    startupKills: 0,
    startupKillsAfterReady: 0,
    sent: 0,
    acked: 0,
    refused: 0,
    unanswered: 0,
    status5xx: 0,
    lost: new Map(),
    duplicates: new Map(),
    mismatched: new Map(),
    orphans: new Map(),
    rowsWithoutFiles: new Map(),
    failedOpens: { server: 0, direct: 0, details: [] },
    restartMs: [],
    serverReadyMs: [],
    directMs: [],
    byKind: Object.fromEntries(
      KINDS.map((k) => [k, { sent: 0, acked: 0, refused: 0, unanswered: 0, committedUnanswered: 0 }]),
    ) as RunResult['byKind'],
    retries: { sent: 0, replayed: 0, fresh: 0, refused: 0, unanswered: 0, duplicate: 0, phantom: 0 },
    relogins: 0,
    apiCompared: 0,
    twins: { sent: 0, bothAnswered: 0, sameAnswer: 0 },
    refusals: new Map(),
    serverErrors: new Map(),
    stopCode: undefined,
    finalOrphansNew: 0,
    ended: 'completed',
  };

  // ---- sign-in: a session (cookie + CSRF token from the page, like the web client) and a personal token
  const cookies = new Map<string, string>();
  let csrf = '';
  let token = '';
  const keepCookies = (reply: Reply) => {
    for (const c of reply.headers['set-cookie'] ?? []) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(c)) cookies.delete(name);
      else cookies.set(name, value);
    }
  };
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const session: Auth = {
    name: 'session',
    headers: () => ({
      cookie: cookieHeader(),
      'x-csrf-token': csrf,
      'x-requested-with': 'XMLHttpRequest',
      accept: 'application/json',
    }),
  };
  const bearer: Auth = {
    name: 'token',
    headers: () => ({ authorization: `Bearer ${token}`, accept: 'application/json' }),
  };
  async function login() {
    cookies.clear();
    const res = await send(
      server.agent,
      'POST',
      '/login',
      { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      Buffer.from(JSON.stringify({ email, password })),
    );
    if (res.status !== 204) throw new Error(`sign-in: ${res.status} ${res.text}`);
    keepCookies(res);
    const page = await send(server.agent, 'GET', '/', { cookie: cookieHeader(), accept: 'text/html' });
    keepCookies(page);
    const m = /<meta name="csrf-token" content="([^"]+)">/.exec(page.text);
    if (!m) throw new Error('no <meta name="csrf-token"> on /');
    csrf = m[1]!;
  }
  async function get<T>(url: string, auth: Auth = session): Promise<T> {
    const res = await send(server.agent, 'GET', url, auth.headers());
    keepCookies(res);
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${res.text.slice(0, 200)}`);
    return JSON.parse(res.text) as T;
  }

  // ---- the writes
  const ops: Op[] = [];
  let life = 1;
  let running = false;
  let finished = false;
  let inFlight = 0;
  let gate: () => void = () => {};
  let gateOpen: Promise<void> = new Promise((r) => (gate = r));
  const resume = () => {
    running = true;
    gate();
  };
  const pause = () => {
    running = false;
    gateOpen = new Promise((res) => (gate = res));
  };
  const idle = async () => {
    while (inFlight > 0) await sleep(20);
  };

  let seq = 0;
  async function write(o: {
    kind: Kind;
    marker?: string;
    target?: number;
    retry?: boolean;
    auth: Auth;
    method: string;
    url: string;
    json?: unknown;
    form?: ReturnType<typeof multipart>;
    headers?: Record<string, string>;
  }): Promise<{ op: Op; data?: Record<string, unknown> } | null> {
    if (!running && !o.retry) return null; // nothing new once the kill is on its way
    const op: Op = {
      n: ++seq,
      kind: o.kind,
      marker: o.marker ?? '',
      target: o.target,
      life,
      retry: o.retry,
      body: o.json,
      t0: performance.now(),
    };
    ops.push(op);
    r.sent++;
    r.byKind[o.kind].sent++;
    const headers = { ...o.auth.headers(), ...o.headers };
    let body: Buffer | undefined;
    if (o.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = Buffer.from(JSON.stringify(o.json));
    } else if (o.form) {
      headers['content-type'] = o.form.contentType;
      body = o.form.body;
    }
    let res: Reply;
    try {
      res = await send(server.agent, o.method, o.url, headers, body);
    } catch (error) {
      op.t1 = performance.now();
      op.outcome = 'unanswered';
      op.message = (error as { code?: string }).code ?? (error as Error).message;
      r.unanswered++;
      r.byKind[o.kind].unanswered++;
      return { op };
    }
    keepCookies(res);
    op.t1 = performance.now();
    op.status = res.status;
    let data: Record<string, unknown> | undefined;
    try {
      data = res.text ? (JSON.parse(res.text) as Record<string, unknown>) : undefined;
    } catch {
      data = undefined;
    }
    if (res.status >= 200 && res.status < 300) {
      op.outcome = 'acked';
      op.id = typeof data?.id === 'number' ? data.id : undefined;
      op.replayed = res.headers['idempotent-replayed'] === 'true';
      r.acked++;
      r.byKind[o.kind].acked++;
    } else {
      op.outcome = 'refused';
      op.message = String(data?.message ?? res.text.slice(0, 120));
      r.refused++;
      r.byKind[o.kind].refused++;
      if (res.status >= 500) r.status5xx++;
      const why = `${o.kind} ${res.status}: ${op.message}`.slice(0, 140);
      r.refusals.set(why, (r.refusals.get(why) ?? 0) + 1);
    }
    return { op, data };
  }

  // pools the writers draw from
  type OpenInvoice = { id: number; bookingId: number; type: string; outstanding: number };
  let trips: Array<{ id: number }> = [];
  let noteBookings: number[] = [];
  let charityIds: number[] = [];
  const invoicePool: OpenInvoice[] = [];
  const payments: Array<{ id: number; invoice: OpenInvoice; amount: number; struck: boolean }> = [];
  const documents: number[] = [];
  const touchedBookings = new Set<number>();
  const logoPng = makeLogoPng(96, 48, [30, 90, 160]);

  async function createBooking(auth: Auth) {
    const n = seq + 1;
    const mail = `${prefix}${n}@example.test`;
    const made = await write({
      kind: 'booking',
      marker: mail,
      auth,
      method: 'POST',
      url: '/api/bookings',
      json: {
        trip_id: pick(trips).id,
        title: 'Ms',
        first_name: 'Crash',
        last_name: `Bench${n}`,
        preferred_name: 'Crash',
        email: mail,
        mobile: null,
        as_on_passport: true,
        terms_accepted: true,
      },
    });
    if (made?.op.outcome !== 'acked' || !made.op.id) return;
    const bookingId = made.op.id;
    noteBookings.push(bookingId);
    const inv = await write({
      kind: 'invoice',
      target: bookingId,
      auth,
      method: 'POST',
      url: `/api/bookings/${bookingId}/invoices`,
      json: { invoice_type: 'deposit' },
    });
    if (inv?.op.outcome === 'acked' && inv.data) {
      invoicePool.push({
        id: inv.op.id!,
        bookingId,
        type: 'deposit',
        outstanding: Math.round(Number(inv.data.outstanding) * 100),
      });
    }
  }

  function paymentBody(inv: OpenInvoice, type: 'payment' | 'refund', amount: number, key: string) {
    return {
      booking_id: inv.bookingId,
      invoice_id: inv.id,
      invoice_type: inv.type,
      amount: amount / 100,
      type,
      processor: type === 'refund' ? 'BACS' : pick(['BACS', 'STRIPE', 'CHEQUE']),
      date: yesterday(),
      notes: key,
    };
  }

  async function pay(auth: Auth) {
    const open = invoicePool.filter((i) => i.outstanding >= 100);
    if (!open.length) return createBooking(auth);
    const inv = pick(open);
    const amount = Math.min(inv.outstanding, between(100, 500));
    const key = `${prefix}${seq + 1}`;
    const req = {
      kind: 'payment' as const,
      marker: key,
      target: inv.id,
      auth,
      method: 'POST',
      url: '/api/transactions',
      json: paymentBody(inv, 'payment', amount, key),
      headers: { 'idempotency-key': key },
    };
    touchedBookings.add(inv.bookingId);
    // one in ten is sent twice at once (a double click): one entry, the same answer to both
    const twin = rand() < 0.1;
    const sends = twin ? [write(req), write(req)] : [write(req)];
    const results = await Promise.all(sends);
    if (twin && results[0]) {
      r.twins.sent++;
      const a = results.map((x) => x?.op);
      if (a.every((o) => o?.outcome === 'acked')) {
        r.twins.bothAnswered++;
        if (a[0]!.id === a[1]!.id) r.twins.sameAnswer++;
      }
    }
    const acked = results.find((x) => x?.op.outcome === 'acked');
    if (acked) {
      inv.outstanding -= amount;
      payments.push({ id: acked.op.id!, invoice: inv, amount, struck: false });
      const ids = new Set(results.filter((x) => x?.op.outcome === 'acked').map((x) => x!.op.id));
      if (ids.size > 1) r.duplicates.set(`payment ${key}`, `twins answered with different ids ${[...ids].join(', ')}`);
    } else if (results.some((x) => /paid in full/.test(x?.op.message ?? ''))) {
      inv.outstanding = 0;
    }
  }

  async function refund(auth: Auth) {
    const live = payments.filter((p) => !p.struck);
    if (!live.length) return pay(auth);
    const p = pick(live);
    const key = `${prefix}${seq + 1}`;
    touchedBookings.add(p.invoice.bookingId);
    const done = await write({
      kind: 'refund',
      marker: key,
      target: p.invoice.id,
      auth,
      method: 'POST',
      url: '/api/transactions',
      json: paymentBody(p.invoice, 'refund', 50, key),
      headers: { 'idempotency-key': key },
    });
    if (done?.op.outcome === 'acked') p.invoice.outstanding += 50;
  }

  async function strike(auth: Auth) {
    const live = payments.filter((p) => !p.struck);
    if (!live.length) return pay(auth);
    const p = pick(live);
    touchedBookings.add(p.invoice.bookingId);
    const done = await write({
      kind: 'strike',
      target: p.id,
      auth,
      method: 'DELETE',
      url: `/api/transactions/${p.id}`,
    });
    if (done?.op.outcome === 'acked') {
      p.struck = true;
      p.invoice.outstanding += p.amount;
    }
  }

  async function note(auth: Auth) {
    const marker = `${prefix}${seq + 1}`;
    const bookingId = pick(noteBookings);
    await write({
      kind: 'note',
      marker,
      target: bookingId,
      auth,
      method: 'POST',
      url: '/api/bookingNotes',
      json: { booking_id: bookingId, note_text: `<p>Crash bench note <strong>${marker}</strong></p>` },
    });
  }

  async function upload(auth: Auth, documentId: number) {
    // the write's number is in the file, so an orphan file can be traced to the upload that made it
    const bytes = Buffer.from(
      `Crash bench document ${documentId}, crash-write-${seq + 1}\n${'x'.repeat(between(1, 200) * 1024)}\n`,
    );
    await write({
      kind: 'upload',
      target: documentId,
      auth,
      method: 'POST',
      url: `/api/documents/${documentId}/upload`,
      form: multipart(
        { document_id: String(documentId) },
        { field: 'document_file', filename: `crash-${documentId}.txt`, type: 'text/plain', bytes },
      ),
    });
  }

  async function document(auth: Auth) {
    const marker = `${prefix}${seq + 1}`;
    const made = await write({
      kind: 'document',
      marker,
      auth,
      method: 'POST',
      url: '/api/documents',
      json: { trip_id: pick(trips).id, name: marker },
    });
    if (made?.op.outcome !== 'acked' || !made.op.id) return;
    documents.push(made.op.id);
    await upload(auth, made.op.id);
  }

  async function reupload(auth: Auth) {
    // a few documents take most replacements, so that uploads to one document meet
    if (!documents.length) return document(auth);
    await upload(auth, pick(documents.slice(0, 4)));
  }

  async function logo(auth: Auth) {
    const id = pick(charityIds);
    await write({
      kind: 'logo',
      target: id,
      auth,
      method: 'POST',
      url: `/api/charities/${id}/logo`,
      // bytes after IEND do not stop it being a PNG
      form: multipart(
        { charity_id: String(id) },
        {
          field: 'charity_logo',
          filename: 'logo.png',
          type: 'image/png',
          bytes: Buffer.concat([logoPng, Buffer.from(`crash-write-${seq + 1}`)]),
        },
      ),
    });
  }

  const mix: Array<[number, (a: Auth) => Promise<void>]> = [
    [16, createBooking],
    [34, pay],
    [5, refund],
    [3, strike],
    [20, note],
    [6, document],
    [8, reupload],
    [8, logo],
  ];
  const weight = mix.reduce((a, [w]) => a + w, 0);
  async function writer(w: number) {
    const auth = w % 2 === 0 ? session : bearer;
    while (!finished) {
      if (!running) {
        await gateOpen;
        continue;
      }
      inFlight++;
      try {
        let x = rand() * weight;
        const op = mix.find(([wt]) => (x -= wt) < 0)?.[1] ?? note;
        await op(auth);
      } catch (error) {
        console.error(`writer ${w}:`, (error as Error).message);
      } finally {
        inFlight--;
      }
    }
  }

  // ---- reconciling
  let checkpoint = 0;
  let calm = false;
  let lastMoney = new Map<number, { total: number; received: number; booking: number }>();

  function reconcile(d: Dump, files: Record<string, string[]>) {
    checkpoint++;
    const byEmail = new Map<string, number[]>();
    for (const b of d.bookings) byEmail.set(b.email, [...(byEmail.get(b.email) ?? []), b.id]);
    const invoiceIds = new Set(d.invoices.map((i) => i.id));
    const depositsPerBooking = new Map<number, number>();
    for (const i of d.invoices)
      if (i.type === 'deposit') depositsPerBooking.set(i.booking_id, (depositsPerBooking.get(i.booking_id) ?? 0) + 1);
    const byKey = new Map<string, Array<{ id: number; deleted: boolean }>>();
    for (const t of d.transactions) byKey.set(t.key, [...(byKey.get(t.key) ?? []), t]);
    const txById = new Map(d.transactions.map((t) => [t.id, t]));
    const notesByMarker = new Map<string, number>();
    for (const n of d.notes) notesByMarker.set(n.marker, (notesByMarker.get(n.marker) ?? 0) + 1);
    const docsByName = new Map<string, number>();
    for (const doc of d.documents) docsByName.set(doc.name, (docsByName.get(doc.name) ?? 0) + 1);
    const docById = new Map(d.documents.map((x) => [x.id, x]));
    const logoById = new Map(d.charities.map((c) => [c.id, c.logo_file]));

    const countFor = (op: Op): number => {
      switch (op.kind) {
        case 'booking':
          return byEmail.get(op.marker)?.length ?? 0;
        case 'invoice':
          return op.id !== undefined ? (invoiceIds.has(op.id) ? 1 : 0) : (depositsPerBooking.get(op.target!) ?? 0);
        case 'payment':
        case 'refund':
          return byKey.get(op.marker)?.length ?? 0;
        case 'note':
          return notesByMarker.get(op.marker) ?? 0;
        case 'document':
          return docsByName.get(op.marker) ?? 0;
        case 'strike':
          return txById.get(op.target!)?.deleted ? 1 : 0;
        case 'upload':
          return docById.get(op.target!)?.stored_file ? 1 : 0;
        case 'logo':
          return logoById.get(op.target!) ? 1 : 0;
      }
    };
    const idOf = (op: Op): number | undefined => {
      if (op.kind === 'booking') return byEmail.get(op.marker)?.[0];
      if (op.kind === 'payment' || op.kind === 'refund') return byKey.get(op.marker)?.[0]?.id;
      return undefined;
    };
    for (const op of ops) {
      const key = `${op.kind} ${op.marker || `#${op.target}`} (write ${op.n})`;
      const count = countFor(op);
      // counts that are more than one record for one write; uploads, logos and strike-outs set a field
      const single =
        ['booking', 'payment', 'refund', 'note', 'document'].includes(op.kind) ||
        (op.kind === 'invoice' && op.id === undefined);
      if (single && count > 1) r.duplicates.set(`${op.kind} ${op.marker || `#${op.target}`}`, `${count} records`);
      if (op.kind === 'invoice' && (depositsPerBooking.get(op.target!) ?? 0) > 1)
        r.duplicates.set(
          `deposit invoice of booking ${op.target}`,
          `${depositsPerBooking.get(op.target!)} deposit invoices`,
        );
      if (op.outcome === 'acked') {
        if (count === 0 && !r.lost.has(key))
          r.lost.set(key, `answered ${op.status} in server life ${op.life}, missing after kill ${r.kills}`);
        const found = idOf(op);
        if (op.id !== undefined && found !== undefined && found !== op.id)
          r.lost.set(key, `answered with id ${op.id}, the database has ${found}`);
      }
    }
    // money: nothing derived is stored, so the check is that received stays within 0..total
    lastMoney = new Map(d.money.map((m) => [m.id, { total: m.total, received: m.received, booking: m.booking_id }]));
    for (const m of d.money) {
      if (m.received < 0 || m.received > m.total)
        r.mismatched.set(`invoice ${m.id}`, `received ${m.received}p of a total of ${m.total}p`);
    }
    // files
    const named = new Set(d.fileRows.map((f) => `${f.kind}/${f.name}`));
    const onDisk = new Set(Object.entries(files).flatMap(([kind, names]) => names.map((n) => `${kind}/${n}`)));
    for (const f of onDisk)
      if (!named.has(f)) {
        if (!r.orphans.has(f)) r.orphans.set(f, { calm, kill: r.kills, cause: orphanCause(f) });
      }
    for (const f of named) if (!onDisk.has(f) && !r.rowsWithoutFiles.has(f)) r.rowsWithoutFiles.set(f, r.kills);
    committedKeys = new Set(d.transactions.map((t) => t.key));
    countCommittedUnanswered(d);
  }

  /** Which upload made an orphan file, and what its writer was told. */
  function orphanCause(f: string): string {
    let text: string;
    try {
      text = readFileSync(path.join(dataDir, 'files', f)).toString('latin1');
    } catch {
      return 'gone';
    }
    const n = /crash-write-(\d+)/.exec(text)?.[1];
    const op = n ? ops.find((o) => o.n === Number(n)) : undefined;
    if (!op) return 'demo file, since replaced';
    if (op.outcome === 'unanswered') return 'unanswered upload';
    if (op.outcome === 'acked') {
      // two uploads to one record that overlap both read the same old file: one removes it, and
      // the file of the first to finish is replaced without anyone removing it
      const overlapping = ops.some(
        (o) =>
          o !== op && o.kind === op.kind && o.target === op.target && o.t0! < op.t1! && (o.t1 ?? Infinity) > op.t0!,
      );
      return overlapping
        ? 'answered upload, replaced by an upload to the same record running at the same time'
        : 'answered upload, replaced by a later upload that did not remove it';
    }
    return `upload answered ${op.status}`;
  }

  const listFiles = () =>
    Object.fromEntries(
      ['logos', 'documents', 'passports'].map((kind) => {
        const dir = path.join(dataDir, 'files', kind);
        return [kind, existsSync(dir) ? readdirSync(dir) : []];
      }),
    );

  /** Reads the database as the kill left it. The embedded one is copied first: the server must open the original untouched. */
  async function readAndReconcile(): Promise<boolean> {
    let input = target;
    let copy: string | undefined;
    if (!databaseUrl) {
      copy = path.join(workDir, `copy-${checkpoint}`);
      cpSync(target.pgliteDir!, copy, { recursive: true });
      input = { ...target, pgliteDir: copy };
    }
    if (values['self-check'] && checkpoint === 0) {
      const notes = ops.filter((o) => o.kind === 'note' && o.outcome === 'acked');
      const paid = ops.find((o) => o.kind === 'payment' && o.outcome === 'acked' && !o.retry);
      input = {
        ...input,
        plant: { deleteNote: notes[0]!.marker, duplicateNote: notes[1]!.marker, inflateTransaction: paid!.id! },
      };
      writeFileSync(path.join(dataDir, 'files', 'documents', 'planted-orphan.txt'), 'planted');
      const logos = readdirSync(path.join(dataDir, 'files', 'logos'));
      rmSync(path.join(dataDir, 'files', 'logos', logos[0]!));
      console.error(
        `self-check: planted a lost note ${notes[0]!.marker}, a doubled note ${notes[1]!.marker}, transaction ${paid!.id} overpaying its invoice, files/documents/planted-orphan.txt, and removed files/logos/${logos[0]}`,
      );
    }
    const files = listFiles();
    const result = await readDatabase(input, workDir);
    if (copy) rmSync(copy, { recursive: true, force: true });
    r.directMs.push(result.ms);
    if (!result.ok) {
      r.failedOpens.direct++;
      r.failedOpens.details.push(
        `kill ${r.kills}: reading a copy of the database failed: ${result.error.slice(0, 300)}`,
      );
      return false;
    }
    reconcile(result.dump, files);
    return true;
  }

  /** After a restart: the API's payment_received against the live transactions read directly. */
  async function checkApi() {
    const bookings = [...touchedBookings].slice(-30);
    touchedBookings.clear();
    for (const b of bookings) {
      const list = await get<Array<{ id: number; total: number; payment_received: number }>>(
        `/api/invoices?booking_id=${b}`,
      );
      for (const inv of list) {
        const sqlSide = lastMoney.get(inv.id);
        if (!sqlSide) continue;
        r.apiCompared++;
        if (
          Math.round(inv.payment_received * 100) !== sqlSide.received ||
          Math.round(inv.total * 100) !== sqlSide.total
        ) {
          r.mismatched.set(
            `invoice ${inv.id}`,
            `API says received ${inv.payment_received} of ${inv.total}, transactions say ${sqlSide.received / 100} of ${sqlSide.total / 100}`,
          );
        }
      }
    }
  }

  /** Every payment or refund that got no answer is sent again, once, with its Idempotency-Key. */
  const retriedKeys = new Set<string>();
  async function retryUnanswered() {
    const answered = new Set(
      ops
        .filter((o) => o.outcome !== 'unanswered' && (o.kind === 'payment' || o.kind === 'refund'))
        .map((o) => o.marker),
    );
    const todo = ops.filter(
      (o) =>
        (o.kind === 'payment' || o.kind === 'refund') &&
        o.outcome === 'unanswered' &&
        !answered.has(o.marker) &&
        !retriedKeys.has(o.marker),
    );
    const committed = committedKeys;
    for (const o of todo) {
      if (retriedKeys.has(o.marker)) continue;
      retriedKeys.add(o.marker);
      r.retries.sent++;
      const res = await write({
        kind: o.kind,
        marker: o.marker,
        target: o.target,
        retry: true,
        auth: bearer,
        method: 'POST',
        url: '/api/transactions',
        json: o.body,
        headers: { 'idempotency-key': o.marker },
      });
      if (!res || res.op.outcome === 'unanswered') r.retries.unanswered++;
      else if (res.op.outcome === 'refused') r.retries.refused++;
      else if (res.op.replayed) {
        r.retries.replayed++;
        if (!committed.has(o.marker)) r.retries.phantom++;
      } else {
        r.retries.fresh++;
        // recorded anew although the first attempt was already in the database: a duplicate
        if (committed.has(o.marker)) r.retries.duplicate++;
      }
    }
  }
  // the keys the database held at the last reconcile, which comes before the retries
  let committedKeys = new Set<string>();

  /** Unanswered writes that the database shows were made anyway (a client retry of them would have to be safe). */
  function countCommittedUnanswered(d: Dump) {
    const emails = new Set(d.bookings.map((b) => b.email));
    const keys = new Set(d.transactions.map((t) => t.key));
    const notes = new Set(d.notes.map((n) => n.marker));
    const docs = new Set(d.documents.map((x) => x.name));
    const invoicesOf = new Set(d.invoices.map((i) => i.booking_id));
    // a payment sent twice at once whose twin was answered is not an unanswered payment
    const answeredKeys = new Set(ops.filter((o) => o.outcome !== 'unanswered' && o.marker).map((o) => o.marker));
    for (const op of ops) {
      if (op.outcome !== 'unanswered' || op.retry || op.judged || answeredKeys.has(op.marker)) continue;
      op.judged = true;
      const made =
        (op.kind === 'booking' && emails.has(op.marker)) ||
        ((op.kind === 'payment' || op.kind === 'refund') && keys.has(op.marker)) ||
        (op.kind === 'note' && notes.has(op.marker)) ||
        (op.kind === 'document' && docs.has(op.marker)) ||
        (op.kind === 'invoice' && invoicesOf.has(op.target!));
      if (made) r.byKind[op.kind].committedUnanswered++;
    }
  }

  async function startUntilReady(): Promise<boolean> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const s = await server.start();
      if (s.ready) {
        r.restartMs.push(s.ms);
        // what the server itself says it took (database open, recovery, migrations, listen)
        const said = /(?:pglite|postgres), (\d+) ms\)/.exec(s.output)?.[1];
        if (said) r.serverReadyMs.push(Number(said));
        return true;
      }
      r.failedOpens.server++;
      r.failedOpens.details.push(
        `kill ${r.kills}: the server did not start (attempt ${attempt}): ${s.output.trim().split('\n').slice(-4).join(' | ').slice(0, 400)}`,
      );
    }
    return false;
  }

  // ---- the run
  const first = await server.start();
  if (!first.ready) throw new Error(`${label}: the server did not start:\n${first.output}`);
  try {
    await login();
    const pat = await send(
      server.agent,
      'POST',
      '/oauth/personal-access-tokens',
      { ...session.headers(), 'content-type': 'application/json' },
      Buffer.from(
        JSON.stringify({
          name: 'crash bench',
          scopes: ['bookings:read', 'bookings:write', 'trips:read', 'trips:write', 'finance:read', 'finance:write'],
        }),
      ),
    );
    if (pat.status !== 201) throw new Error(`personal access token: ${pat.status} ${pat.text}`);
    token = (JSON.parse(pat.text) as { accessToken: string }).accessToken;
    const tripPage = await get<{ data: Array<{ id: number; status: string; deposit: number }> }>(
      '/api/trips?paged=false',
    );
    trips = tripPage.data.filter((t) => t.status === 'open' && t.deposit > 0);
    if (!trips.length) throw new Error('no open trip with a deposit in the demo office');
    const bookingPage = await get<{ data: Array<{ id: number }> }>('/api/bookings?timing=all', bearer);
    noteBookings = bookingPage.data.map((b) => b.id);
    charityIds = (await get<Array<{ id: number }>>('/api/charities')).slice(0, 3).map((c) => c.id);

    // a few bookings with invoices and documents before the first kill
    running = true;
    for (let i = 0; i < 4; i++) await createBooking(i % 2 ? session : bearer);
    for (let i = 0; i < 2; i++) await document(session);
    pause();

    const writers = Array.from({ length: writerCount }, (_, w) => writer(w));
    const nextIsStartupKill = (k: number) => startupEvery > 0 && k % startupEvery === 0;

    while (r.kills < kills) {
      // load, then a kill at a random moment of it
      resume();
      await sleep(between(minMs, maxMs));
      pause();
      await server.kill9();
      r.kills++;
      life++;
      await idle();
      server.agent.destroy();
      if (!(await readAndReconcile()) && !databaseUrl) {
        // the copy would not open; the server will be tried on the original all the same
      }
      // a kill during the start that follows: migrations, recovery, seeding checks
      if (r.kills < kills && nextIsStartupKill(r.kills + 1)) {
        const s = await server.start(between(50, Math.max(100, Math.round(server.lastReadyMs))));
        if (s.killed) {
          r.kills++;
          r.startupKills++;
          if (s.ready) r.startupKillsAfterReady++;
          life++;
          await readAndReconcile();
        } else {
          r.failedOpens.server++;
          r.failedOpens.details.push(
            `after kill ${r.kills}: the server ended while starting: ${s.output.trim().split('\n').slice(-4).join(' | ').slice(0, 400)}`,
          );
        }
      }
      if (!(await startUntilReady())) {
        r.ended = `stopped after kill ${r.kills}: the server would not start again`;
        break;
      }
      // the session is kept in the database: it should survive; sign in again if not
      const me = await send(server.agent, 'GET', '/api/me', session.headers());
      if (me.status !== 200) {
        r.relogins++;
        await login();
      }
      await checkApi();
      await retryUnanswered();
    }

    if (r.ended === 'completed') {
      // a last stretch without a kill; what goes wrong here is not the crash's doing
      const orphansBefore = r.orphans.size;
      calm = true;
      resume();
      await sleep(calmMs);
      pause();
      await idle();
      r.stopCode = await server.stop();
      await readAndReconcile();
      r.finalOrphansNew = r.orphans.size - orphansBefore;
    }
    finished = true;
    resume();
    await Promise.all(writers);
  } finally {
    finished = true;
    await server.kill9();
    await server.close();
    // the server's own account of what went wrong (pino JSON lines, error and above)
    try {
      for (const line of readFileSync(path.join(workDir, 'server.log'), 'utf8').split('\n')) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string; type?: string } };
        if ((entry.level ?? 0) < 50) continue;
        const what =
          `${entry.msg ?? ''}${entry.err ? ` — ${entry.err.type ?? ''}: ${entry.err.message ?? ''}` : ''}`.slice(
            0,
            200,
          );
        r.serverErrors.set(what, (r.serverErrors.get(what) ?? 0) + 1);
      }
    } catch {
      // no log
    }
    if (values.keep) console.error(`${label}: kept ${workDir} (server.log has the server's output)`);
    else rmSync(workDir, { recursive: true, force: true });
  }
  r.seconds = (performance.now() - started) / 1000;
  return r;
}

// ---------------------------------------------------------------------------------------------
// Output

function printRun(r: RunResult) {
  const lost = r.lost.size;
  const dup = r.duplicates.size + r.retries.duplicate;
  const opens = r.failedOpens.server + r.failedOpens.direct;
  console.log(`\n### ${r.label}\n`);
  console.log(
    '| kills | requests sent | answered 2xx | answered 4xx/5xx | unanswered | lost acknowledged writes | duplicates | mismatched invoices | orphan files | rows without files | failed opens | time |',
  );
  console.log(
    '|------:|--------------:|-------------:|-----------------:|-----------:|-------------------------:|-----------:|--------------------:|-------------:|-------------------:|-------------:|-----:|',
  );
  console.log(
    `| ${r.kills} (${r.startupKills - r.startupKillsAfterReady} while starting) | ${r.sent} | ${r.acked} | ${r.refused} (${r.status5xx} 5xx) | ${r.unanswered} | ${lost} | ${dup} | ${r.mismatched.size} | ${r.orphans.size} | ${r.rowsWithoutFiles.size} | ${opens} | ${r.seconds.toFixed(0)} s |`,
  );
  console.log(
    `\n${r.ended === 'completed' ? 'Completed' : r.ended}. Restarts: ${r.restartMs.length}, ready in p50 ${pct(r.restartMs, 50).toFixed(0)} ms, max ${Math.max(0, ...r.restartMs).toFixed(0)} ms from the spawn (the server's own figure: p50 ${pct(r.serverReadyMs, 50)} ms, max ${Math.max(0, ...r.serverReadyMs)} ms); the reconciling reads took p50 ${pct(r.directMs, 50).toFixed(0)} ms. Clean stop at the end: exit code ${r.stopCode ?? '—'}. Sign-ins again after a restart: ${r.relogins}.`,
  );
  console.log('\n| write | sent | 2xx | 4xx/5xx | unanswered | unanswered but made |');
  console.log('|-------|-----:|----:|--------:|-----------:|--------------------:|');
  for (const k of KINDS) {
    const b = r.byKind[k];
    console.log(
      `| ${k} | ${b.sent} | ${b.acked} | ${b.refused} | ${b.unanswered} | ${['strike', 'upload', 'logo'].includes(k) ? '—' : b.committedUnanswered} |`,
    );
  }
  const t = r.retries;
  console.log(
    `\nUnanswered payments and refunds sent again with their Idempotency-Key: ${t.sent} — replayed (had been recorded) ${t.replayed}, recorded now ${t.fresh}, refused ${t.refused}, unanswered ${t.unanswered}; recorded a second time ${t.duplicate}, replayed although nothing had been recorded ${t.phantom}.`,
  );
  console.log(
    `Payments sent twice at once with one key: ${r.twins.sent}; both answered 2xx: ${r.twins.bothAnswered}, with the same entry: ${r.twins.sameAnswer}. Invoices whose API figures were compared with their transactions after a restart: ${r.apiCompared}.`,
  );
  const crashOrphans = r.orphans.size - r.finalOrphansNew;
  console.log(
    `Orphan files: ${crashOrphans} appeared at a kill, ${r.finalOrphansNew} in the last stretch without a kill.`,
  );
  const causes = new Map<string, number>();
  for (const [f, o] of r.orphans) {
    const k = `${f.split('/')[0]}: ${o.cause}${o.calm ? ' (in the last stretch, no kill)' : ''}`;
    causes.set(k, (causes.get(k) ?? 0) + 1);
  }
  if (causes.size) {
    console.log('\n| orphan files: folder and the upload that wrote them | files |\n|---|--:|');
    for (const [k, n] of [...causes].sort()) console.log(`| ${k} | ${n} |`);
  }
  const show = (title: string, m: Map<string, unknown>) => {
    if (!m.size) return;
    console.log(`\n${title} (${m.size}${m.size > 8 ? ', first 8' : ''}):`);
    for (const [k, v] of [...m].slice(0, 8)) console.log(`- ${k}: ${String(v)}`);
  };
  show('Lost acknowledged writes', r.lost);
  show('Duplicates', r.duplicates);
  show('Mismatched invoices', r.mismatched);
  show(
    'Orphan files',
    new Map(
      [...r.orphans].map(([f, o]) => [f, `${o.calm ? 'in the last stretch' : `after kill ${o.kill}`}, ${o.cause}`]),
    ),
  );
  show('Rows without files (first seen after kill)', r.rowsWithoutFiles);
  if (r.failedOpens.details.length) {
    console.log(`\nFailed opens (server ${r.failedOpens.server}, reconciling copy ${r.failedOpens.direct}):`);
    for (const d of r.failedOpens.details.slice(0, 8)) console.log(`- ${d}`);
  }
  if (r.serverErrors.size) {
    console.log("\nErrors in the server's log:");
    for (const [k, n] of [...r.serverErrors].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log(`- ${n} × ${k}`);
  }
  if (r.refusals.size) {
    console.log('\nAnswers other than 2xx:');
    for (const [k, n] of [...r.refusals].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`- ${n} × ${k}`);
  }
}

// ---------------------------------------------------------------------------------------------

const which = values.db;
const url = process.env.DATABASE_URL;
if ((which === 'both' || which === 'postgres') && !url) {
  console.error('PostgreSQL needs DATABASE_URL (or run with --db pglite)');
  process.exit(1);
}
console.log(
  `\nCrash bench: ${kills} kills (every ${startupEvery || '—'}th while the server starts, the rest ${minMs}–${maxMs} ms into the load), ${writerCount} writers (half on a session with CSRF, half on a personal access token), seed ${values.seed}.`,
);
const results: RunResult[] = [];
if (which === 'both' || which === 'postgres') {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS tripdesk_crash WITH (FORCE)');
  await admin.query('CREATE DATABASE tripdesk_crash');
  const version = (await admin.query<{ server_version: string }>('show server_version')).rows[0]!.server_version;
  const u = new URL(url!);
  u.pathname = '/tripdesk_crash';
  try {
    results.push(await run(`PostgreSQL ${version.split(' ')[0]}`, u.toString()));
    printRun(results.at(-1)!);
  } finally {
    if (!values.keep) await admin.query('DROP DATABASE IF EXISTS tripdesk_crash WITH (FORCE)');
    await admin.end();
  }
}
if (which === 'both' || which === 'pglite') {
  const { version } = JSON.parse(
    readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  results.push(await run(`PGlite ${version} (embedded)`, undefined));
  printRun(results.at(-1)!);
}
