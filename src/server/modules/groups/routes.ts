import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import { groupInputSchema, groupSchema } from '../../../contract/groups.ts';
import type { Db } from '../../../db/client.ts';
import { GroupService } from './service.ts';

const tags = ['school groups'];

/** A school trip's groups, for the office (bookings scope and permission). */
export async function groupRoutes(app: FastifyInstance, opts: { db: Db }) {
  const service = new GroupService(opts.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/trips/:id/groups',
    {
      schema: {
        tags,
        summary: "A trip's school groups, each with its leader, places and pupils",
        params: idParam,
        response: { 200: z.array(groupSchema), 404: messageSchema },
      },
    },
    async (request) => service.list(request.params.id),
  );

  r.post(
    '/api/trips/:id/groups',
    {
      schema: {
        tags,
        summary: "Adds a school's group to a school trip; its leader's End User account is found by email, or made",
        params: idParam,
        body: groupInputSchema,
        response: { 201: groupSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.params.id, request.body)),
  );

  r.get(
    '/api/groups/:id',
    {
      schema: {
        tags,
        summary: 'One school group',
        params: idParam,
        response: { 200: groupSchema, 404: messageSchema },
      },
    },
    async (request) => service.get(request.params.id),
  );

  r.put(
    '/api/groups/:id',
    {
      schema: {
        tags,
        summary: 'Changes a school group: its school, leader, places and who pays',
        params: idParam,
        body: groupInputSchema,
        response: { 200: groupSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.update(request.params.id, request.body),
  );
}
