import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;

/**
 * One hit on a fixed-window counter of the rate_limits table: the first hit opens the window,
 * later hits in it count, the first hit after it opens a new one — one upsert, atomic on the
 * row. The hits in the window so far, and the milliseconds until it closes.
 */
export async function countHit(db: Db, key: string, windowSeconds: number): Promise<{ hits: number; ttl: number }> {
  const [row] = await queryRows<{ hits: number; ttl: number }>(
    db,
    sql`insert into rate_limits as r (key, hits, reset_at) values (${key}, 1, now() + make_interval(secs => ${windowSeconds}))
      on conflict (key) do update set
        hits = case when r.reset_at <= now() then 1 else r.hits + 1 end,
        reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
      returning hits, greatest(0, ceil(extract(epoch from reset_at - now()) * 1000))::int as ttl`,
  );
  return { hits: Number(row!.hits), ttl: Number(row!.ttl) };
}

/**
 * A store for @fastify/rate-limit that counts in the database (table rate_limits), so the
 * per-address sign-in limit and the token endpoint's limit are one count however many app
 * servers answer. A fixed window per key, as the library's own stores keep it (countHit).
 */
export function databaseRateLimitStore(db: Db) {
  class DatabaseStore {
    constructor(
      _options?: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number) {
      countHit(db, this.prefix + key, timeWindow / 1000).then(
        ({ hits, ttl }) => callback(null, { current: hits, ttl }),
        (error: Error) => callback(error),
      );
    }

    read(key: string, callback: Callback) {
      queryRows<{ hits: number; ttl: number }>(
        db,
        sql`select hits, greatest(0, ceil(extract(epoch from reset_at - now()) * 1000))::int as ttl from rate_limits where key = ${this.prefix + key} and reset_at > now()`,
      ).then(
        ([row]) => callback(null, row ? { current: Number(row.hits), ttl: Number(row.ttl) } : { current: 0, ttl: 0 }),
        (error: Error) => callback(error),
      );
    }

    /** each limited route counts on its own (the plugin passes the route's options with its routeInfo; its types leave that out) */
    child(routeOptions: object) {
      const { routeInfo } = routeOptions as { routeInfo: { method: string; url: string } };
      return new DatabaseStore(undefined, `${this.prefix}${routeInfo.method} ${routeInfo.url} `);
    }
  }
  return DatabaseStore;
}
