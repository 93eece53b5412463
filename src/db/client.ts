import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
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
  poolSize?: number;
};

export async function createDb(options: DbOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
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
      migrate: async () => migratePg(db as never, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  let client = options.pglite;
  if (!client) {
    if (options.pgliteDir) mkdirSync(options.pgliteDir, { recursive: true });
    client = await PGlite.create(options.pgliteDir ?? 'memory://', { extensions: { pg_trgm } });
  }
  const pglite = client;
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: async () => migratePglite(db as never, { migrationsFolder }),
    close: () => pglite.close(),
  };
}

export function pgliteExtensions() {
  return { pg_trgm };
}

/** The rows of a raw SQL query, the same on PGlite and on node-postgres. */
export async function queryRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
