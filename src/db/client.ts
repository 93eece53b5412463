import { createHash } from 'node:crypto';
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
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      connection: { connectionString: options.databaseUrl },
      migrate: async () => migratePg(db as never, { migrationsFolder }),
      close: () => pool.end(),
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
