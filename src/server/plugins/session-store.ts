import DataLoader from 'dataloader';
import type { Session } from 'fastify';
import type { SessionStore } from '@fastify/session';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { authColumns, type AuthUser } from '../modules/auth/service.ts';
import { SessionCache } from './session-cache.ts';

type Callback = (err?: unknown) => void;
type GetCallback = (err: unknown, result?: Session | null) => void;

export type SessionTimeouts = { idleMs: number; absoluteMs: number };

/**
 * Sessions live in the database so that every app server shares them and any can revoke them;
 * each server remembers the ones it has just read until the database tells of a change
 * (SessionCache, decision 036).
 */
export class DbSessionStore implements SessionStore {
  readonly remembered = new SessionCache();
  /**
   * Set while a request that may change something reads its session: it is read from the database,
   * never from memory, so a session ended on another server a moment ago changes nothing.
   */
  private readFresh = false;
  /**
   * The sessions this server has found in the database (or in memory): saving one of them again
   * updates its row and never makes it anew, so a session another server ended while a request
   * here was answering from it stays ended.
   */
  private readonly found = new Set<string>();

  /**
   * The user row of each session just read, as it is now (null: no such user any more). Read in
   * the same query as the session — one round trip where a signed-in request took two — and
   * taken once, by the request that read it (authPlugin's takeUser), so it is never older than
   * that request.
   */
  private readonly users = new Map<string, AuthUser | null>();

  constructor(
    private readonly db: Db,
    private readonly timeouts: SessionTimeouts,
  ) {
    this.read = this.db
      .select({ id: sessions.id, data: sessions.data, expiresAt: sessions.expiresAt, user: authColumns })
      .from(sessions)
      .leftJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          sql`${sessions.id} = any(${sql.placeholder('ids')}::text[])`,
          gt(sessions.expiresAt, sql`${sql.placeholder('now')}::timestamptz`),
        ),
      )
      .prepare('tripdesk_sessions_get');
    // the sessions asked for in one turn of the event loop are read together, as they are now: a
    // launch day's hundreds of posts at once make a few reads where they made one each
    this.reads = new DataLoader(
      async (ids: readonly string[]) => {
        const rows = await this.read.execute({ ids: [...new Set(ids)], now: new Date().toISOString() });
        const byId = new Map(rows.map((row) => [row.id, row]));
        return ids.map((id) => byId.get(id) ?? null);
      },
      { cache: false, batchScheduleFn: (run) => setImmediate(run), maxBatchSize: 100 },
    );
  }

  /**
   * The read every signed-in request makes, built once and prepared on each connection (named):
   * neither Drizzle nor the database plans it again per request.
   */
  private readonly read;
  private readonly reads;

  /** Runs `read` (the session plugin's hook, which calls get at once) reading from the database alone when `fresh`. */
  reading<T>(fresh: boolean, read: () => T): T {
    this.readFresh = fresh;
    try {
      return read();
    } finally {
      this.readFresh = false;
    }
  }

  get(sessionId: string, callback: GetCallback): void {
    // a request that never takes its row (a refused one) must not let the map grow
    if (this.users.size > 10_000) this.users.clear();
    const known = this.readFresh ? undefined : this.remembered.recall(sessionId);
    if (known) {
      this.wasFound(sessionId);
      this.users.set(sessionId, known.user);
      callback(null, known.data as Session);
      return;
    }
    const mark = this.remembered.mark();
    this.reads.load(sessionId).then((row) => {
      if (!row) return callback(null, null);
      this.wasFound(sessionId);
      const user = row.user?.id == null ? null : row.user;
      this.remembered.remember(mark, sessionId, { data: row.data, user, expiresAt: row.expiresAt.getTime() });
      this.users.set(sessionId, user);
      callback(null, row.data as Session);
    }, callback);
  }

  /** The user read with this session by this request (undefined when it was not read with it). */
  takeUser(sessionId: string): AuthUser | null | undefined {
    if (!this.users.has(sessionId)) return undefined;
    const user = this.users.get(sessionId)!;
    this.users.delete(sessionId);
    return user;
  }

  set(sessionId: string, session: Session, callback: Callback): void {
    const data = JSON.parse(JSON.stringify(session)) as Record<string, unknown>;
    const now = Date.now();
    const lastSeen = typeof data.lastSeenAt === 'number' ? data.lastSeenAt : now;
    const created = typeof data.createdAt === 'number' ? data.createdAt : now;
    const expiresAt = new Date(Math.min(lastSeen + this.timeouts.idleMs, created + this.timeouts.absoluteMs));
    const userId = typeof data.userId === 'number' ? data.userId : null;
    const saved = this.found.has(sessionId)
      ? this.db.update(sessions).set({ data, userId, expiresAt }).where(eq(sessions.id, sessionId))
      : this.db
          .insert(sessions)
          .values({ id: sessionId, data, userId, expiresAt })
          .onConflictDoUpdate({ target: sessions.id, set: { data, userId, expiresAt } });
    saved.then(() => {
      // the database said so as it committed (migration 0066); said here too, for a Db that cannot
      this.remembered.forget(sessionId);
      callback();
    }, callback);
  }

  private wasFound(sessionId: string): void {
    if (this.found.size >= 10_000) this.found.delete(this.found.values().next().value!);
    this.found.add(sessionId);
  }

  destroy(sessionId: string, callback: Callback): void {
    this.db
      .delete(sessions)
      .where(eq(sessions.id, sessionId))
      .then(() => {
        this.found.delete(sessionId);
        this.remembered.forget(sessionId);
        callback();
      }, callback);
  }
}
