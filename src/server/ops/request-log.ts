import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FastifyInstance, LogController } from 'fastify';
import fp from 'fastify-plugin';
import { type Metrics, UNMATCHED_ROUTE } from './metrics.ts';

/* eslint-disable @typescript-eslint/consistent-type-definitions -- module augmentation needs interfaces */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** a probe (/readyz): its 503 is an answer, not a server error, so its request line stays at info */
    probe?: boolean;
  }
}
/* eslint-enable @typescript-eslint/consistent-type-definitions */

// what a load balancer or tracing header sends (a UUID, a W3C trace id, "req-42"); anything else,
// longer, or with characters a log reader could trip on, is replaced by our own
const GOOD_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** The request's id: the caller's X-Request-Id when it is a sane one, else a new UUID. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && GOOD_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Fastify's own "incoming request", "request completed" and "route not found" lines give way to ours (its error lines stay). */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(): void {}
  override routeNotFound(): void {}
}

/**
 * One JSON line per request, when it is answered: the route's pattern (never the URL, whose query
 * may hold an email address or a signed link), method, status, time, the user's id and the request
 * id (pino's reqId) — no emails, tokens, cookies or traveller data. The id goes back in X-Request-Id.
 * Each request is also counted in the app's metrics.
 */
export const requestLogPlugin = fp(async (app: FastifyInstance, opts: { metrics: Metrics }) => {
  // counted out once, whether answered or abandoned by its client
  const counted = new WeakSet<object>();
  const countOut = (request: object) => {
    if (counted.delete(request)) opts.metrics.requestsInFlight.dec();
  };
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    counted.add(request);
    opts.metrics.requestsInFlight.inc();
  });
  app.addHook('onRequestAbort', async (request) => countOut(request));
  app.addHook('onResponse', async (request, reply) => {
    countOut(request);
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    opts.metrics.observeRequest({ method: request.method, route, status, seconds: reply.elapsedTime / 1000 });
    const line = {
      method: request.method,
      route,
      status,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      userId: request.user?.id ?? null,
    };
    if (status >= 500 && !request.routeOptions.config?.probe) request.log.error(line, 'request failed');
    else request.log.info(line, 'request');
  });
});

/**
 * An address as the log may keep it: a signed download's query, a sign-in link's secret and a pay
 * link's token are credentials for as long as they live, so they are left out.
 */
export function loggableUrl(url: string): string {
  if (url.startsWith('/files/')) return url.split('?')[0]!;
  return url.replace(/^\/my\/sign-in\/[^/?#]+/, '/my/sign-in/…').replace(/^\/pay\/[^/?#]+/, '/pay/…');
}
