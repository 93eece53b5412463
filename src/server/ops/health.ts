import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FileStore } from '../../shared/storage/index.ts';
import type { Readiness, ReadinessChecks } from '../../contract/ops.ts';
import { migrationsFolder as shippedFolder, queryRows, type Db } from '../../db/client.ts';

export type ReadinessDeps = {
  db: Db;
  files: Pick<FileStore, 'check' | 'driver'>;
  /** the migrations this build ships (the app's own folder unless a test says otherwise) */
  migrationsFolder?: string;
  /** a check that takes longer than this has failed: a probe must answer, not hang */
  timeoutMs?: number;
  /** told of each failure with its whole error (the reply carries only its code) */
  onFailure?: (part: keyof ReadinessChecks, error: unknown) => void;
};

type Check = ReadinessChecks[keyof ReadinessChecks];
type Shipped = { count: number; latest: number };

// the migrations a running build ships never change under it: read the journal once
const shippedCache = new Map<string, Promise<Shipped>>();

function shippedMigrations(folder: string): Promise<Shipped> {
  let shipped = shippedCache.get(folder);
  if (!shipped) {
    shipped = readFile(path.join(folder, 'meta', '_journal.json'), 'utf8').then((text) => {
      const entries = (JSON.parse(text) as { entries: Array<{ when: number }> }).entries;
      return { count: entries.length, latest: Math.max(0, ...entries.map((e) => e.when)) };
    });
    // a failed read is tried again at the next probe
    shipped.catch(() => shippedCache.delete(folder));
    shippedCache.set(folder, shipped);
  }
  return shipped;
}

const ok = (detail?: string): Check => (detail ? { status: 'ok', detail } : { status: 'ok' });
const failed = (detail: string): Check => ({ status: 'failed', detail });

class TimedOut extends Error {}

/**
 * What the (unauthenticated) reply says of a failure: the error's code, never its message, which
 * may name hosts or paths; the whole error goes to the log.
 */
function reason(error: unknown): string {
  if (error instanceof TimedOut) return error.message;
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? `error ${code}` : 'error';
}

async function within<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function databaseCheck(db: Db, ms: number): Promise<Check> {
  await within(ms, 'the database', () => queryRows(db, sql`select 1`));
  return ok();
}

/**
 * Current when the newest migration this build ships is applied. A database ahead of the build
 * (a newer release migrated it during a rolling deploy) is still ready: migrations only add.
 */
async function migrationsCheck(db: Db, folder: string, ms: number): Promise<Check> {
  const shipped = await shippedMigrations(folder);
  const [row] = await within(ms, 'the database', () =>
    queryRows<{ applied: number; latest: string | null }>(
      db,
      sql`select count(*)::int as applied, max(created_at)::text as latest from drizzle.__drizzle_migrations`,
    ),
  );
  const applied = Number(row?.applied ?? 0);
  const latest = Number(row?.latest ?? 0);
  if (latest < shipped.latest)
    return failed(`${Math.max(1, shipped.count - applied)} of ${shipped.count} migrations not applied`);
  return ok(`${applied} applied, ${shipped.count} shipped`);
}

/** The file store answers: DATA_DIR/files is writable, or the S3 bucket is there for these credentials. */
async function storageCheck(files: Pick<FileStore, 'check' | 'driver'>, ms: number): Promise<Check> {
  await within(ms, 'the file store', () => files.check());
  return ok();
}

/** What /readyz answers: every part checked at once, each bounded in time. */
export async function checkReadiness(deps: ReadinessDeps): Promise<Readiness> {
  const ms = deps.timeoutMs ?? 2000;
  const run = async (part: keyof ReadinessChecks, check: () => Promise<Check>): Promise<Check> => {
    try {
      return await check();
    } catch (error) {
      deps.onFailure?.(part, error);
      return failed(reason(error));
    }
  };
  const [database, migrations, storage] = await Promise.all([
    run('database', () => databaseCheck(deps.db, ms)),
    run('migrations', () => migrationsCheck(deps.db, deps.migrationsFolder ?? shippedFolder, ms)),
    run('storage', () => storageCheck(deps.files, ms)),
  ]);
  const checks: ReadinessChecks = { database, migrations, storage };
  const failing = Object.entries(checks)
    .filter(([, c]) => c.status === 'failed')
    .map(([name]) => name);
  if (failing.length) return { status: 'not_ready', message: `Not ready: ${failing.join(', ')}`, checks };
  return { status: 'ready', checks };
}
