import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { asc } from 'drizzle-orm';
import {
  countryListSchema,
  passportRuleInputSchema,
  passportRuleListSchema,
  passportRuleSchema,
} from '../../../contract/countries.ts';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import type { Db } from '../../../db/client.ts';
import { countries } from '../../../db/schema/index.ts';
import { CountryService } from './service.ts';

export async function countryRoutes(app: FastifyInstance, opts: { db: Db }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new CountryService(opts.db);
  r.get(
    '/api/countries',
    {
      schema: { tags: ['trips'], summary: 'Every country (ISO 3166-1), by name', response: { 200: countryListSchema } },
    },
    async () => opts.db.select({ id: countries.id, name: countries.name }).from(countries).orderBy(asc(countries.name)),
  );
  r.get(
    '/api/countries/passport-rules',
    {
      schema: {
        tags: ['trips'],
        summary: "Every country's passport rule (months valid after the return, and a note), by name",
        response: { 200: passportRuleListSchema },
      },
    },
    async () => service.passportRules(),
  );
  r.get(
    '/api/countries/:id/passport-rule',
    {
      schema: {
        tags: ['trips'],
        summary: "A country's passport rule",
        params: idParam,
        response: { 200: passportRuleSchema, 404: messageSchema },
      },
    },
    async (request) => service.passportRule(request.params.id),
  );
  r.put(
    '/api/countries/:id/passport-rule',
    {
      schema: {
        tags: ['trips'],
        summary:
          "Change a country's passport rule: months the passport must be valid after the return (0–24), and a note; every passport check follows",
        params: idParam,
        body: passportRuleInputSchema,
        response: { 200: passportRuleSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.setPassportRule(request.params.id, request.body),
  );
}
