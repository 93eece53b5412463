import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthSchema, notReadySchema, readySchema } from '../../contract/ops.ts';
import type { Db } from '../../db/client.ts';
import type { FileStore } from '../../shared/storage/index.ts';
import { checkReadiness } from './health.ts';
import { type Metrics, metricsGate } from './metrics.ts';

const tags = ['operations'];

export type OpsOptions = {
  db: Db;
  files: FileStore;
  metrics: Metrics;
  metricsToken: string | undefined;
  metricsAllow: string[];
};

/**
 * Probes and metrics. No session, no CSRF, no rate limit; their request lines are below
 * info (logLevel warn), so a probe every few seconds does not fill the log.
 */
export async function opsRoutes(app: FastifyInstance, opts: OpsOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const gate = metricsGate({ token: opts.metricsToken, allow: opts.metricsAllow });

  r.get(
    '/healthz',
    {
      logLevel: 'warn',
      config: { access: 'public', scope: null, session: false },
      schema: { tags, summary: 'Liveness: the process is up and answering', response: { 200: healthSchema } },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
  );

  r.get(
    '/readyz',
    {
      logLevel: 'warn',
      config: { access: 'public', scope: null, probe: true, session: false },
      schema: {
        tags,
        summary:
          'Readiness: the database answers, its migrations are current and the file store is writable; 503 names the failing part',
        response: { 200: readySchema, 503: notReadySchema },
      },
    },
    async (request, reply) => {
      const result = await checkReadiness({
        db: opts.db,
        files: opts.files,
        onFailure: (part, error) => request.log.warn({ err: error, part }, 'not ready'),
      });
      reply.header('cache-control', 'no-store');
      return reply.status(result.status === 'ready' ? 200 : 503).send(result);
    },
  );

  // not in the API's documentation: an operator's endpoint, in Prometheus's text format
  app.get(
    '/metrics',
    { logLevel: 'warn', config: { access: 'public', scope: null, session: false }, schema: { hide: true } },
    async (request, reply) => {
      // 404, the same as any unknown address, to whoever may not read it (decision 016)
      if (!gate(request)) return reply.status(404).send({ message: 'Not Found' });
      const text = await opts.metrics.registry.metrics();
      return reply.header('cache-control', 'no-store').type(opts.metrics.registry.contentType).send(text);
    },
  );
}
