import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import {
  createCustomFieldSchema,
  customFieldQuery,
  customFieldSchema,
  updateCustomFieldSchema,
} from '../../../contract/trips.ts';
import type { Db } from '../../../db/client.ts';
import { CustomFieldService } from './service.ts';

const tags = ['trips'];

export async function customFieldRoutes(app: FastifyInstance, opts: { db: Db }) {
  const service = new CustomFieldService(opts.db);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/customFields',
    {
      schema: {
        tags,
        summary: 'A trip’s custom booking form fields',
        querystring: customFieldQuery,
        response: { 200: z.array(customFieldSchema), 422: validationErrorSchema },
      },
    },
    async (request) => service.list(request.query.trip_id),
  );
  r.post(
    '/api/customFields',
    {
      schema: {
        tags,
        summary: 'Add a custom field to a trip',
        body: createCustomFieldSchema,
        response: { 201: customFieldSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.body)),
  );
  r.put(
    '/api/customFields/:id',
    {
      schema: {
        tags,
        summary: 'Change a custom field',
        params: idParam,
        body: updateCustomFieldSchema,
        response: { 200: customFieldSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.update(request.params.id, request.body),
  );
  r.delete(
    '/api/customFields/:id',
    {
      schema: {
        tags,
        summary: 'Delete a custom field and every answer to it',
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
