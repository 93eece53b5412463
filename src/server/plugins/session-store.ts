import DataLoader from 'dataloader';
import type { Session } from 'fastify';
import type { SessionStore } from '@fastify/session';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema/index.ts';
import { authColumns, type AuthUser } from '../modules/auth/service.ts';

type Callback = (err?: unknown) => void;
type GetCallback = (err: unknown, result?: Session | null) => void;

export type SessionTimeouts = { idleMs: number; absoluteMs: number };

/** Sessions live in the database so that every app server shares them and any can revoke them. */
export class DbSessionStore implements SessionStore {
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
      .select({ id: sessions.id, data: sessions.data, user: authColumns })
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

  get(sessionId: string, callback: GetCallback): void {
    this.reads.load(sessionId).then((row) => {
      // a request that never takes its row (a refused one) must not let the map grow
      if (this.users.size > 10_000) this.users.clear();
      if (row) this.users.set(sessionId, row.user?.id == null ? null : row.user);
      callback(null, (row?.data as Session | undefined) ?? null);
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
    this.db
      .insert(sessions)
      .values({ id: sessionId, data, userId, expiresAt })
      .onConflictDoUpdate({ target: sessions.id, set: { data, userId, expiresAt } })
      .then(() => callback(), callback);
  }

  destroy(sessionId: string, callback: Callback): void {
    this.db
      .delete(sessions)
      .where(eq(sessions.id, sessionId))
      .then(() => callback(), callback);
  }
}
