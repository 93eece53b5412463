import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam, messageSchema } from '../../../contract/common.ts';
import { readinessRowSchema, tripReadinessSchema } from '../../../contract/readiness.ts';
import type { Db } from '../../../db/client.ts';
import { MANIFEST_FORMATS, MANIFEST_KINDS, manifestDownload } from './manifest.ts';
import { nowOf, systemClock, type Clock } from '../../clock.ts';
import { ukToday } from '../../../contract/dates.ts';
import { ReadinessService } from './service.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';

/** Ready to depart: each live booking's checks, for a trip and for one booking. Scope bookings (it reads passport and medical facts). */
export async function readinessRoutes(
  app: FastifyInstance,
  opts: { db: Db; fundraisingDefaults: FundraisingDefaults; clock?: Clock },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new ReadinessService(opts.db, opts.fundraisingDefaults, opts.clock);
  r.get(
    '/api/trips/:id/readiness',
    {
      schema: {
        tags: ['readiness'],
        summary:
          'Every live booking of the trip (provisional and confirmed) with each check (passport, forms, money, medical, next of kin, room) green, amber or red and why, and how many are ready',
        params: idParam,
        response: { 200: tripReadinessSchema, 404: messageSchema },
      },
    },
    async (request) => service.forTrip(request.params.id),
  );
  r.get(
    '/api/bookings/:id/readiness',
    {
      schema: {
        tags: ['readiness'],
        summary: "One booking's readiness checks, as the trip's board shows them",
        params: idParam,
        response: { 200: readinessRowSchema, 404: messageSchema },
      },
    },
    async (request) => service.forBooking(request.params.id),
  );
  r.get(
    '/api/trips/:id/manifest',
    {
      schema: {
        tags: ['readiness'],
        summary:
          "The trip's manifest, rooming list (unmatched sharers flagged) or emergency contacts as an .xlsx or a PDF, of its confirmed bookings (provisional ones too with include=provisional); recorded in the history",
        params: idParam,
        querystring: z.object({
          kind: z
            .enum(MANIFEST_KINDS, { error: 'The kind must be manifest, rooming or contacts.' })
            .default('manifest'),
          format: z.enum(MANIFEST_FORMATS, { error: 'The format must be xlsx or pdf.' }).default('xlsx'),
          include: z.enum(['provisional'], { error: 'include may only be provisional.' }).optional(),
        }),
      },
    },
    async (request, reply) => {
      const today = ukToday(nowOf(opts.clock ?? systemClock));
      const { name, type, body } = await manifestDownload(
        opts.db,
        request.params.id,
        request.query.kind,
        request.query.include === 'provisional',
        request.query.format,
        today,
      );
      return reply
        .type(type)
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(body);
    },
  );
}
