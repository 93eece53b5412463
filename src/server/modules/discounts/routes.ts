import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import { discountInputSchema, discountListQuery, discountSchema } from '../../../contract/discounts.ts';
import type { Db } from '../../../db/client.ts';
import { DiscountService } from './service.ts';

const tags = ['discounts'];

export async function discountRoutes(app: FastifyInstance, opts: { db: Db }) {
  const service = new DiscountService(opts.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/discounts',
    {
      schema: {
        tags,
        summary: 'Discounts by code; keyword searches code and description',
        querystring: discountListQuery,
        response: { 200: z.array(discountSchema) },
      },
    },
    async (request) => service.list(request.query.keyword),
  );
  r.get(
    '/api/discounts/:id',
    {
      schema: { tags, summary: 'One discount', params: idParam, response: { 200: discountSchema, 404: messageSchema } },
    },
    async (request) => service.get(request.params.id),
  );
  r.post(
    '/api/discounts',
    {
      schema: {
        tags,
        summary: 'Create a discount (amount in pounds; dates as dd/mm/yyyy)',
        body: discountInputSchema,
        response: { 201: discountSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.body)),
  );
  r.patch(
    '/api/discounts/:id',
    {
      schema: {
        tags,
        summary: 'Change a discount',
        params: idParam,
        body: discountInputSchema,
        response: { 200: discountSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.update(request.params.id, request.body),
  );
  r.delete(
    '/api/discounts/:id',
    {
      schema: {
        tags,
        summary: 'Delete a discount (invoices keep the code they were given)',
        params: idParam,
        response: { 204: z.null(), 404: messageSchema },
      },
    },
    async (request, reply) => {
      await service.delete(request.params.id);
      return reply.status(204).send(null);
    },
  );
}
