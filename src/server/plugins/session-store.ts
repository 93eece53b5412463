import type { Session } from 'fastify';
import type { SessionStore } from '@fastify/session';
import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sessions } from '../../db/schema/index.ts';

type Callback = (err?: unknown) => void;
type GetCallback = (err: unknown, result?: Session | null) => void;

export type SessionTimeouts = { idleMs: number; absoluteMs: number };

/** Sessions live in the database so that every app server shares them and any can revoke them. */
export class DbSessionStore implements SessionStore {
  constructor(
    private readonly db: Db,
    private readonly timeouts: SessionTimeouts,
  ) {}

  get(sessionId: string, callback: GetCallback): void {
    this.db
      .select({ data: sessions.data })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, new Date())))
      .then((rows) => callback(null, (rows[0]?.data as Session | undefined) ?? null), callback);
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
