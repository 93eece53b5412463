import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import { groupInputSchema, groupSchema, leaderGroupSchema, leaderGroupsSchema } from '../../../contract/groups.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../clock.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import { LeaderService } from './leader.ts';
import { GroupService } from './service.ts';

const tags = ['school groups'];

/** A school trip's groups, for the office (bookings scope and permission). */
export async function groupRoutes(
  app: FastifyInstance,
  opts: { db: Db; fundraisingDefaults: FundraisingDefaults; clock: Pick<Clock, 'now'> },
) {
  const service = new GroupService(opts.db);
  const leader = new LeaderService(opts.db, opts.fundraisingDefaults, opts.clock);
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

  // a group leader's own (an End User, signed in: /api/my is theirs alone)
  r.get(
    '/api/my/groups',
    {
      schema: {
        tags,
        summary: 'The school groups the signed-in group leader leads',
        response: { 200: leaderGroupsSchema },
      },
    },
    async (request) => leader.groups(request.user!.id),
  );

  r.get(
    '/api/my/groups/:id',
    {
      schema: {
        tags,
        summary: "A group leader's group: each pupil's money, consent, form and readiness (never the medical detail)",
        params: idParam,
        response: { 200: leaderGroupSchema, 404: messageSchema },
      },
    },
    async (request) => leader.group(request.user!.id, request.params.id),
  );
}
