import DataLoader from 'dataloader';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;

type Hit = { key: string; windowSeconds: number };

/** Each database's hits waiting for their statement: those of one turn of the event loop go together. */
const counters = new WeakMap<Db, DataLoader<Hit, { hits: number; ttl: number }>>();

/**
 * One hit on a fixed-window counter of the rate_limits table: the first hit opens the window,
 * later hits in it count, the first hit after it opens a new one — atomic on the row. The hits
 * in the window so far (this one among them), and the milliseconds until it closes. The hits of
 * one turn of the event loop are counted in one statement (a launch day's burst posts hundreds at
 * once, and each round trip costs the server more than the count does).
 */
export function countHit(db: Db, key: string, windowSeconds: number): Promise<{ hits: number; ttl: number }> {
  let counter = counters.get(db);
  if (!counter) {
    counter = new DataLoader((hits) => countHits(db, hits), {
      cache: false,
      batchScheduleFn: (run) => setImmediate(run),
      maxBatchSize: 500,
    });
    counters.set(db, counter);
  }
  return counter.load({ key, windowSeconds });
}

async function countHits(db: Db, hits: readonly Hit[]): Promise<Array<{ hits: number; ttl: number }>> {
  const byKey = new Map<string, { n: number; windowSeconds: number }>();
  for (const hit of hits) {
    const kept = byKey.get(hit.key);
    if (kept) kept.n += 1;
    else byKey.set(hit.key, { n: 1, windowSeconds: hit.windowSeconds });
  }
  // in the keys' order, so that two statements counting the same keys never wait on each other in a circle
  const rows = await queryRows<{ key: string; hits: number; ttl: number }>(
    db,
    sql`insert into rate_limits as r (key, hits, reset_at)
      select x.key, x.n, now() + make_interval(secs => x.secs)
      from (values ${sql.join(
        [...byKey].map(([key, k]) => sql`(${key}::text, ${k.n}::int, ${k.windowSeconds}::float8)`),
        sql`, `,
      )}) as x(key, n, secs)
      order by x.key
      on conflict (key) do update set
        hits = case when r.reset_at <= now() then excluded.hits else r.hits + excluded.hits end,
        reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
      returning key, hits, greatest(0, ceil(extract(epoch from reset_at - now()) * 1000))::int as ttl`,
  );
  const counted = new Map(rows.map((r) => [r.key, { hits: Number(r.hits), ttl: Number(r.ttl) }]));
  // the hits of one key in the order they came: the last has the count after them all
  const before = new Map<string, number>();
  return hits.map((hit) => {
    const row = counted.get(hit.key)!;
    const i = before.get(hit.key) ?? 0;
    before.set(hit.key, i + 1);
    return { hits: row.hits - byKey.get(hit.key)!.n + 1 + i, ttl: row.ttl };
  });
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
