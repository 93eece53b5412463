import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { desc, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { tripSelectItemSchema } from '../../../contract/discounts.ts';
import type { Db } from '../../../db/client.ts';
import { trips } from '../../../db/schema/index.ts';

export async function tripRoutes(app: FastifyInstance, opts: { db: Db }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/trips/select',
    {
      schema: {
        tags: ['trips'],
        summary: 'Every trip that is not deleted, as id and name, latest departure first',
        response: { 200: z.array(tripSelectItemSchema) },
      },
    },
    async () =>
      opts.db
        .select({ id: trips.id, name: trips.name })
        .from(trips)
        .where(isNull(trips.deletedAt))
        .orderBy(desc(trips.departureDate), desc(trips.id)),
  );
}
