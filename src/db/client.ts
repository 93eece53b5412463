import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** What a transaction callback receives: the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** how other database users (the job queue) reach the same database */
  connection: { pglite: PGlite } | { connectionString: string };
  migrate(): Promise<void>;
  close(): Promise<void>;
};

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type DbOptions = {
  /** a postgres:// URL; when absent the embedded database is used */
  databaseUrl?: string | undefined;
  /** the embedded database's folder; absent means in memory */
  pgliteDir?: string | undefined;
  /** an existing embedded database (tests load one from a migrated template) */
  pglite?: PGlite;
  /** a dump of a migrated embedded database that a new, empty `pgliteDir` starts from, when the file is there */
  template?: string | undefined;
  poolSize?: number;
};

/** Parallel workers a query on a PostgreSQL connection may start (decision 034). */
export const PARALLEL_WORKERS = 0;

export async function createDb(options: DbOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      // each connection listens before the pool hands it out (below)
      Client: ListeningClient,
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      // a query runs in its connection's own process, without parallel workers: a worker is a
      // process started for that one query, which on the office's small indexed reads costs more
      // than it saves and under load waits for a core (decision 034). Set as the connection opens.
      options: `-c max_parallel_workers_per_gather=${PARALLEL_WORKERS}`,
    });
    // an idle connection that the server closes (restart, failover, a dropped test database)
    // is an 'error' event on the pool: without a listener it would end the process; the pool
    // simply opens a new connection when one is next needed
    pool.on('error', (error: Error & { code?: string }) => {
      if (error.code !== '57P01') console.error('database connection lost:', error.message);
    });
    // every connection listens for changes to who may be signed in: the one that makes a change
    // hears it before its COMMIT returns, so this server forgets what it replaced before it answers.
    // Each hears only its own changes; the server's listening connection hears the others'.
    const heard = new EventEmitter();
    const heardHere = new HeardHere();
    pool.on('connect', (client) => {
      const backend = (client as unknown as { processID: number }).processID;
      client.on('notification', (message) => {
        if (message.channel !== AUTH_CHANNEL || message.processId !== backend) return;
        heardHere.add(backend, message.payload ?? '');
        heard.emit('notice', message.payload ?? '');
      });
    });
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    const listeners = new Set<() => Promise<void>>();
    authWatchers.set(db, async (watcher) => {
      const notice = (payload: string) => watcher.notice(payload);
      heard.on('notice', notice);
      const stop = await listenAlone(options.databaseUrl!, watcher, (backend, payload) =>
        heardHere.take(backend, payload),
      );
      const close = async () => {
        listeners.delete(close);
        heard.off('notice', notice);
        await stop();
      };
      listeners.add(close);
      return close;
    });
    return {
      db,
      kind: 'postgres',
      connection: { connectionString: options.databaseUrl },
      migrate: async () => migratePg(db as never, { migrationsFolder }),
      close: async () => {
        await Promise.all([...listeners].map((close) => close()));
        await pool.end();
      },
    };
  }
  let client = options.pglite;
  let unlock = () => {};
  if (!client) {
    if (options.pgliteDir) {
      mkdirSync(options.pgliteDir, { recursive: true });
      unlock = lockDataDir(options.pgliteDir);
    }
    const fromTemplate =
      options.pgliteDir &&
      options.template &&
      !existsSync(path.join(options.pgliteDir, 'PG_VERSION')) &&
      existsSync(options.template)
        ? { loadDataDir: new Blob([readFileSync(options.template)]) }
        : {};
    try {
      client = await PGlite.create(options.pgliteDir ?? 'memory://', { extensions: { pg_trgm }, ...fromTemplate });
    } catch (error) {
      unlock();
      throw error;
    }
  }
  const pglite = client;
  yieldBeforeEachQuery(pglite);
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  // one connection: a change's notification is heard before the query that made it returns
  authWatchers.set(db, async (watcher) => {
    const stop = await pglite.listen(AUTH_CHANNEL, (payload) => watcher.notice(payload));
    watcher.listening();
    // its stop takes an optional transaction: called with nothing else
    return () => stop();
  });
  return {
    db,
    kind: 'pglite',
    connection: { pglite },
    migrate: async () => migratePglite(db as never, { migrationsFolder }),
    close: async () => {
      await pglite.close();
      unlock();
    },
  };
}

/** The channel on which the database tells of a change to who may be signed in (migration 0066). */
export const AUTH_CHANNEL = 'tripdesk_auth';

/** The application_name of each server's own listening connection (pg_stat_activity shows it). */
export const AUTH_LISTENER = 'tripdesk auth listener';

/** What hears of changes to who may be signed in: a session, a user or a team (migration 0066). */
export type AuthWatcher = {
  /** one change: `s:<session id>`, `u:<user id>`, or `*` for anything more */
  notice(payload: string): void;
  /** every change is heard from now on (until lost) */
  listening(): void;
  /** changes made elsewhere may go unheard from now on (the listening connection is lost) */
  lost(): void;
};
type WatchAuth = (watcher: AuthWatcher) => Promise<() => Promise<void>>;
const authWatchers = new WeakMap<Db, WatchAuth>();

/**
 * Tells `watcher` of every change to who may be signed in, made by this server or any other on the
 * same database, until the returned function is called; undefined for a Db not made by createDb.
 */
export function watchAuth(db: Db): WatchAuth | undefined {
  return authWatchers.get(db);
}

/** A connection of the pool: it listens for changes to who may be signed in before any query of its caller. */
class ListeningClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: (error: Error | null, client?: pg.Client) => void): void;
  override connect(callback?: (error: Error | null, client?: pg.Client) => void): Promise<pg.Client> | void {
    const listening = super.connect().then(async () => {
      try {
        await this.query(`LISTEN ${AUTH_CHANNEL}`);
      } catch (error) {
        await this.end().catch(() => {});
        throw error;
      }
      return this as pg.Client;
    });
    if (!callback) return listening;
    listening.then((client) => callback(null, client), callback);
  }
}

/**
 * A connection of its own that listens for other servers' changes (the pool's connections come
 * and go, and may all be busy in long transactions), opened again a second after it is lost.
 * A change this server heard as it made it is not heard twice: a late second word would keep a
 * read under way from being remembered.
 */
async function listenAlone(
  connectionString: string,
  watcher: AuthWatcher,
  /** a change made on one of this server's connections that heard it itself, as it committed */
  heardAlready: (backend: number, payload: string) => boolean,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const open = async () => {
    if (stopped) return;
    // a connection cut without a word (a NAT's or a load balancer's idle timeout) is found by the
    // heartbeat: a question unanswered within LISTENER_HEARTBEAT_MS counts as lost
    const current = new pg.Client({
      connectionString,
      application_name: AUTH_LISTENER,
      keepAlive: true,
      query_timeout: LISTENER_HEARTBEAT_MS,
    });
    client = current;
    let lost = false;
    let heartbeat: NodeJS.Timeout | undefined;
    const lose = () => {
      if (lost) return;
      lost = true;
      clearInterval(heartbeat);
      watcher.lost();
      current.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void open(), 1000).unref();
    };
    current.on('error', lose);
    current.on('end', lose);
    current.on('notification', (message) => {
      if (message.channel === AUTH_CHANNEL && !heardAlready(message.processId, message.payload ?? ''))
        watcher.notice(message.payload ?? '');
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${AUTH_CHANNEL}`);
      if (lost || stopped) return;
      watcher.listening();
      heartbeat = setInterval(() => {
        current.query('select 1').catch(lose);
      }, LISTENER_HEARTBEAT_MS).unref();
    } catch {
      lose();
    }
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

/** How often each server's listening connection checks that it is still heard, and how long it waits. */
export const LISTENER_HEARTBEAT_MS = 5_000;

/** How many changes HeardHere keeps before it forgets them all (one its listener never heard would otherwise stay for good). */
export const HEARD_HERE_KEPT = 10_000;

/**
 * The changes this server's own connections heard as they made them, until its listening
 * connection hears the same (and skips it). One it heard on no connection of its own (the
 * connection was lost as it committed) is not skipped.
 */
export class HeardHere {
  private readonly waiting = new Map<string, number>();
  add(backend: number, payload: string): void {
    // kept for a while: one the listening connection heard first (and did not skip) stays here
    if (this.waiting.size >= HEARD_HERE_KEPT) this.waiting.clear();
    const key = `${backend}:${payload}`;
    this.waiting.set(key, (this.waiting.get(key) ?? 0) + 1);
  }
  take(backend: number, payload: string): boolean {
    const key = `${backend}:${payload}`;
    const count = this.waiting.get(key);
    if (!count) return false;
    if (count === 1) this.waiting.delete(key);
    else this.waiting.set(key, count - 1);
    return true;
  }
}

/**
 * The embedded database runs on the server's own thread, and its answers arrive as promises that
 * resolve at once: a job or an export that runs thousands of queries one after another would
 * never let the event loop in, so no connection is accepted, no timer fires and no SIGTERM is
 * handled until it ends. Each query first waits one turn of the event loop, so other requests,
 * timers and signals are served between any two queries.
 */
function yieldBeforeEachQuery(pglite: PGlite) {
  const marked = pglite as PGlite & { [yielding]?: true };
  if (marked[yielding]) return;
  marked[yielding] = true;
  const run = pglite._runExclusiveQuery.bind(pglite);
  pglite._runExclusiveQuery = async (fn) => {
    await nextTurn();
    return run(fn);
  };
}
const yielding = Symbol('yields before each query');

/**
 * The embedded database is one process's alone: two would each keep their own copy and lose
 * each other's writes. A lock file names the process that holds the folder; a lock left by a
 * process that is gone (killed, crashed) is taken over.
 */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'tripdesk.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
        throw new Error(
          `The embedded database in ${dir} is in use by process ${holder}. Stop that process first, or use a PostgreSQL server (DATABASE_URL) to run several.`,
          { cause: error },
        );
      }
      unlinkSync(file);
    }
  }
  throw new Error(`Could not lock the embedded database in ${dir}.`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user
    return (error as { code?: string }).code === 'EPERM';
  }
}

export function pgliteExtensions() {
  return { pg_trgm };
}

/** The rows of a raw SQL query, the same on PGlite and on node-postgres. */
export async function queryRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const dialect = new PgDialect();
/**
 * The rows of a raw SQL query that a hot read runs again and again, as a prepared statement named
 * after its text: each connection of node-postgres parses and plans it once rather than on every
 * call (half of a small read's time over the wire). PGlite ignores the name. Only for a query
 * whose text takes a few forms (its values are parameters), since each form stays prepared on
 * every connection.
 */
export async function queryPrepared<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const name = `tripdesk_${createHash('sha1').update(built.sql).digest('hex').slice(0, 20)}`;
  const result = (await db._.session.prepareQuery(built, undefined, name, false).execute()) as { rows: T[] };
  return result.rows;
}
