import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, paged, validationErrorSchema } from '../../../contract/common.ts';
import {
  createdUserSchema,
  createUserSchema,
  updateUserSchema,
  userListQuery,
  userSchema,
} from '../../../contract/users.ts';
import type { Db } from '../../../db/client.ts';
import { UserService } from './service.ts';

const tags = ['users'];

export async function userRoutes(app: FastifyInstance, opts: { db: Db }) {
  const service = new UserService(opts.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/users',
    {
      schema: {
        tags,
        summary: 'Users, newest first; search matches name or email',
        querystring: userListQuery,
        response: { 200: paged(userSchema) },
      },
    },
    async (request) => service.list(request.query.page, request.query.search),
  );
  r.get(
    '/api/users/:id',
    { schema: { tags, summary: 'One user', params: idParam, response: { 200: userSchema, 404: messageSchema } } },
    async (request) => service.get(request.params.id),
  );
  r.post(
    '/api/users',
    {
      schema: {
        tags,
        summary: 'Add a user with a generated password, returned once in the reply',
        body: createUserSchema,
        response: { 201: createdUserSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => {
      // the reply carries the new password; nothing between us and the browser may keep it
      reply.header('cache-control', 'no-store');
      return reply.status(201).send(
        await service.create(request.body, {
          userId: request.user!.id,
          permissions: request.user!.team?.permissions ?? null,
        }),
      );
    },
  );
  r.patch(
    '/api/users/update',
    {
      schema: {
        tags,
        summary: 'Change a user (id in the body); a new password or role ends their other sessions and tokens',
        body: updateUserSchema,
        response: { 200: userSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) =>
      service.update(
        {
          userId: request.user!.id,
          sessionId: request.session.sessionId,
          permissions: request.user!.team?.permissions ?? null,
        },
        request.body,
      ),
  );
  r.delete(
    '/api/users/:id',
    {
      schema: {
        tags,
        summary: 'Delete a user; their bookings and payments stay',
        params: idParam,
        response: { 204: z.null(), 404: messageSchema, 422: messageSchema },
      },
    },
    async (request, reply) => {
      await service.delete(
        { userId: request.user!.id, permissions: request.user!.team?.permissions ?? null },
        request.params.id,
      );
      return reply.status(204).send(null);
    },
  );
}
