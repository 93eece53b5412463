import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { asc } from 'drizzle-orm';
import { countryListSchema } from '../../../contract/countries.ts';
import type { Db } from '../../../db/client.ts';
import { countries } from '../../../db/schema/index.ts';

export async function countryRoutes(app: FastifyInstance, opts: { db: Db }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/countries',
    { schema: { tags: ['trips'], summary: 'Every country (ISO 3166-1), by name', response: { 200: countryListSchema } } },
    async () => opts.db.select({ id: countries.id, name: countries.name }).from(countries).orderBy(asc(countries.name)),
  );
}
