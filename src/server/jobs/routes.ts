import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messageSchema, validationErrorSchema } from '../../contract/common.ts';
import { jobParams, jobsOverviewSchema } from '../../contract/jobs.ts';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from './queue.ts';
import { JobsService } from './service.ts';

const tags = ['jobs'];

/** The job queue for Administrators: queues, counts, failed jobs with their error, Retry. */
export async function jobRoutes(app: FastifyInstance, opts: { db: Db; jobs: JobQueue | undefined }) {
  const service = new JobsService(opts.db, opts.jobs);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/jobs',
    {
      config: { access: 'admin', scope: null },
      schema: {
        tags,
        summary:
          'The queues with their counts, and the jobs that failed after their retries (newest first, at most 100)',
        response: { 200: jobsOverviewSchema, 503: messageSchema },
      },
    },
    async () => service.overview(),
  );

  r.post(
    '/api/admin/jobs/:queue/:id/retry',
    {
      config: { access: 'admin', scope: null },
      schema: {
        tags,
        summary: 'Runs a failed job again',
        params: jobParams,
        response: { 200: messageSchema, 404: messageSchema, 422: validationErrorSchema, 503: messageSchema },
      },
    },
    async (request) => service.retry(request.params.queue, request.params.id),
  );
}
