import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import { teamIdParam, teamInputSchema, teamSchema } from '../../../contract/teams.ts';
import type { Db } from '../../../db/client.ts';
import { TeamService } from './service.ts';

const tags = ['teams'];

/** Teams and what each may do (issue 36): people read to see them, people change to change them. */
export async function teamRoutes(app: FastifyInstance, opts: { db: Db }) {
  const service = new TeamService(opts.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/teams',
    {
      schema: { tags, summary: 'Every team with its permissions and members', response: { 200: z.array(teamSchema) } },
    },
    async () => service.list(),
  );
  r.post(
    '/api/teams',
    {
      schema: {
        tags,
        summary: 'Add a team',
        body: teamInputSchema,
        response: { 201: teamSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.create(request.body, request.user!.team?.permissions ?? null)),
  );
  r.get(
    '/api/teams/:id',
    { schema: { tags, summary: 'One team', params: teamIdParam, response: { 200: teamSchema, 404: messageSchema } } },
    async (request) => service.get(request.params.id),
  );
  r.put(
    '/api/teams/:id',
    {
      schema: {
        tags,
        summary: 'Rename a team or change its permissions; Full access keeps every permission',
        params: teamIdParam,
        body: teamInputSchema,
        response: { 200: teamSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.update(request.params.id, request.body, request.user!.team?.permissions ?? null),
  );
  r.delete(
    '/api/teams/:id',
    {
      schema: {
        tags,
        summary: 'Delete a team with no members; Full access cannot be deleted',
        params: teamIdParam,
        response: { 204: z.null(), 404: messageSchema, 422: messageSchema },
      },
    },
    async (request, reply) => {
      await service.delete(request.params.id, request.user!.team?.permissions ?? null);
      return reply.status(204).send(null);
    },
  );
}
