import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { overviewSchema } from '../../../contract/overview.ts';
import type { Db } from '../../../db/client.ts';
import { getOverview } from './service.ts';

export async function overviewRoutes(app: FastifyInstance, opts: { db: Db }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/overview',
    {
      schema: {
        tags: ['overview'],
        summary: 'Bookings by status and the next departures',
        response: { 200: overviewSchema },
      },
    },
    async () => getOverview(opts.db),
  );
}
