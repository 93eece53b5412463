import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { queryRows, type Db } from '../../db/client.ts';
import { JOBS_SCHEMA } from '../jobs/queue.ts';
import type { Mailer, MailOutcome } from '../mail/transport.ts';
import { bearerToken } from '../plugins/bearer.ts';

/** The route label of a request no route matched (a 404): never the raw URL, which is unbounded. */
export const UNMATCHED_ROUTE = '(unmatched)';

export type Metrics = {
  /** this app's own registry: tests build many apps in one process, so never the global one */
  registry: Registry;
  observeRequest(request: { method: string; route: string; status: number; seconds: number }): void;
  /** a request whose headers have arrived and which is not yet answered (or abandoned) */
  requestsInFlight: { inc(): void; dec(): void };
  /** the same mailer, counting each message by what became of it */
  countMail(mailer: Mailer): Mailer;
};

export type MetricsOptions = {
  /** the database: its pool (PostgreSQL) and the job queue's counts are read at each scrape */
  db?: Db;
  /** the process's own (CPU, memory, event loop, GC); on by default */
  processMetrics?: boolean;
};

type PoolLike = { totalCount: number; idleCount: number; waitingCount: number };

/** node-postgres's pool behind Drizzle; the embedded database has none (one connection, in process). */
function poolOf(db: Db | undefined): PoolLike | undefined {
  const client = (db as unknown as { $client?: Partial<PoolLike> } | undefined)?.$client;
  return client && typeof client.totalCount === 'number' && typeof client.idleCount === 'number'
    ? (client as PoolLike)
    : undefined;
}

const MAIL_OUTCOMES: Array<MailOutcome['outcome'] | 'failed'> = ['sent', 'written_to_eml', 'failed'];
const JOB_STATES = ['created', 'retry', 'active', 'failed'] as const;

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern, method and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  const inFlight = new Gauge({
    name: 'http_requests_in_flight',
    help: 'HTTP requests received (their headers read) and not yet answered, this one included',
    registers: [registry],
  });

  const emails = new Counter({
    name: 'tripdesk_emails_total',
    help: 'Email messages by outcome: sent (taken by the SMTP server), written_to_eml (no SMTP_URL), failed (refused or unreachable)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  for (const outcome of MAIL_OUTCOMES) emails.inc({ outcome }, 0);

  const pool = poolOf(options.db);
  if (pool) {
    new Gauge({
      name: 'tripdesk_db_pool_connections',
      help: 'Database pool connections by state: in_use, idle, and requests waiting for one',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }

  const db = options.db;
  if (db) {
    new Gauge({
      name: 'tripdesk_jobs',
      help: 'Jobs in the queue by queue and state: created and retry are waiting (the depth), active are running, failed ran out of retries (kept 7 days)',
      labelNames: ['queue', 'state'],
      registers: [registry],
      async collect() {
        this.reset();
        try {
          const rows = await queryRows<{ name: string; state: string; n: number }>(
            db,
            sql`select name, state::text as state, count(*)::int as n from ${sql.identifier(JOBS_SCHEMA)}.job where state in ('created', 'retry', 'active', 'failed') group by name, state`,
          );
          for (const row of rows)
            if ((JOB_STATES as readonly string[]).includes(row.state))
              this.set({ queue: row.name, state: row.state }, Number(row.n));
        } catch {
          // no job queue in this database yet (it installs itself on first start): nothing to count
        }
      },
    });
  }

  return {
    registry,
    observeRequest({ method, route, status, seconds }) {
      const labels = { method, route, status_code: String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
    },
    requestsInFlight: { inc: () => inFlight.inc(), dec: () => inFlight.dec() },
    countMail(mailer) {
      return {
        async send(mail) {
          try {
            const result = await mailer.send(mail);
            emails.inc({ outcome: result.outcome });
            return result;
          } catch (error) {
            emails.inc({ outcome: 'failed' });
            throw error;
          }
        },
      };
    },
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** An IPv4 client seen by a server listening on IPv6 arrives as "::ffff:10.0.0.5". */
function plainAddress(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/**
 * Who may read /metrics: a scraper sending `Authorization: Bearer <METRICS_TOKEN>` (compared in
 * constant time), or a client from a METRICS_ALLOW address (request.ip, so TRUST_PROXY applies).
 * Nobody when neither is set (decision 016).
 */
export function metricsGate(options: {
  token: string | undefined;
  allow: string[];
}): (request: Pick<FastifyRequest, 'headers' | 'ip'>) => boolean {
  const wanted = options.token ? digest(options.token) : undefined;
  const allowed = new BlockList();
  for (const entry of options.allow) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) allowed.addAddress(plainAddress(address), type);
    else allowed.addSubnet(address, Number(prefix), type);
  }
  const anyAllowed = options.allow.length > 0;
  return (request) => {
    if (wanted) {
      const token = bearerToken(request as FastifyRequest);
      // both sides hashed: equal lengths for timingSafeEqual, and the token's length stays secret
      if (token && timingSafeEqual(digest(token), wanted)) return true;
    }
    if (anyAllowed) {
      const ip = plainAddress(request.ip);
      const family = isIP(ip);
      if (family && allowed.check(ip, family === 6 ? 'ipv6' : 'ipv4')) return true;
    }
    return false;
  };
}
