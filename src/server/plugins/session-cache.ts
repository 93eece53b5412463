import type { AuthWatcher } from '../../db/client.ts';
import type { AuthUser } from '../modules/auth/service.ts';

/** A session as it was read: its data, its user as they were then, and when it runs out. */
export type RememberedSession = { data: unknown; user: AuthUser | null; expiresAt: number };

type Entry = {
  data: string;
  user: Readonly<AuthUser> | null;
  userId: number | null;
  expiresAt: number;
  readAt: number;
};

/** `value` and everything in it, frozen (a Date's time aside). */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
}

/** How many sessions a server remembers, the oldest read forgotten first. */
export const REMEMBERED_SESSIONS = 10_000;
/** A session is read again at least this often, even when no change was heard. */
export const REMEMBERED_FOR_MS = 60_000;

/**
 * The sessions this server has just read, with their users (decision 036): a signed-in read answers
 * without a round trip to the database. The database tells every server of each change to a
 * session, a user or a team as it commits (migration 0066), and the session is forgotten at once.
 * While changes made elsewhere could go unheard (the listening connection is lost), nothing is
 * remembered.
 */
export class SessionCache implements AuthWatcher {
  private readonly entries = new Map<string, Entry>();
  private readonly byUser = new Map<number, Set<string>>();
  private heard = false;
  /**
   * A read that began before a change to its session or its user and ended after it may hold what
   * the change replaced: it is not remembered. Every change heard gets the next number; each
   * session and user keeps the number of its last change (`s:<id>`, `u:<id>`, the most recent
   * REMEMBERED_SESSIONS of them), and a read that began before `unsureBefore` is kept for none.
   */
  private changes = 0;
  private readonly changedAt = new Map<string, number>();
  private unsureBefore = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Where a read begins: pass it to `remember` with what the read found. */
  mark(): number {
    return this.changes;
  }

  recall(sessionId: string): RememberedSession | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.expiresAt <= now || now - entry.readAt >= REMEMBERED_FOR_MS) {
      this.drop(sessionId);
      return undefined;
    }
    // each request its own copy of the data (a request changes its session's lastSeenAt in place);
    // the user is frozen, and shared
    return { data: JSON.parse(entry.data), user: entry.user, expiresAt: entry.expiresAt };
  }

  /** Keeps a session read since `mark`, unless a change to it or its user was heard since then. */
  remember(mark: number, sessionId: string, session: RememberedSession): void {
    const userId = session.user?.id ?? null;
    if (!this.heard || mark < this.unsureBefore) return;
    if ((this.changedAt.get(`s:${sessionId}`) ?? 0) > mark) return;
    if (userId !== null && (this.changedAt.get(`u:${userId}`) ?? 0) > mark) return;
    if (this.entries.size >= REMEMBERED_SESSIONS) this.drop(this.entries.keys().next().value!);
    this.drop(sessionId);
    this.entries.set(sessionId, {
      data: JSON.stringify(session.data),
      user: session.user && frozen(structuredClone(session.user)),
      userId,
      expiresAt: session.expiresAt,
      readAt: this.now(),
    });
    if (userId !== null) {
      let sessions = this.byUser.get(userId);
      if (!sessions) this.byUser.set(userId, (sessions = new Set()));
      sessions.add(sessionId);
    }
  }

  /** This server changed or ended the session. */
  forget(sessionId: string): void {
    this.changed(`s:${sessionId}`);
    this.drop(sessionId);
  }

  /** A change heard from the database (migration 0066), as it committed. */
  notice(payload: string): void {
    if (payload.startsWith('s:')) this.forget(payload.slice(2));
    else if (payload.startsWith('u:')) {
      const userId = Number(payload.slice(2));
      this.changed(`u:${userId}`);
      for (const sessionId of this.byUser.get(userId) ?? []) this.drop(sessionId);
    } else this.clear();
  }

  listening(): void {
    this.clear();
    this.heard = true;
  }

  lost(): void {
    this.heard = false;
    this.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private changed(key: string): void {
    this.changedAt.delete(key);
    this.changedAt.set(key, ++this.changes);
    if (this.changedAt.size <= REMEMBERED_SESSIONS) return;
    // the oldest change is no longer kept: a read that began before it is kept for nobody
    const [oldest, at] = this.changedAt.entries().next().value!;
    this.changedAt.delete(oldest);
    this.unsureBefore = at;
  }

  private drop(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    this.entries.delete(sessionId);
    if (entry.userId === null) return;
    const sessions = this.byUser.get(entry.userId);
    sessions?.delete(sessionId);
    if (sessions?.size === 0) this.byUser.delete(entry.userId);
  }

  private clear(): void {
    this.unsureBefore = ++this.changes;
    this.changedAt.clear();
    this.entries.clear();
    this.byUser.clear();
  }
}
