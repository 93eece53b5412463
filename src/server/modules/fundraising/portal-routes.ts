import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema, recordId, validationErrorSchema } from '../../../contract/common.ts';
import {
  charityEntryInputSchema,
  charityNoteInputSchema,
  portalFundraiserSchema,
  portalFundraisersQuery,
  portalFundraisersSchema,
} from '../../../contract/fundraising.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../clock.ts';
import { CharityPortal } from './portal.ts';
import type { FundraisingDefaults } from './service.ts';

const bookingParam = z.object({ booking_id: recordId('booking') });
/** The signed-in Charity user's charity: the access check (plugins/auth.ts) lets no one here without one. */
const charityOf = (request: FastifyRequest) => request.user!.charityId!;

/**
 * The charity portal's API, for the portal's screen and for a charity's own systems
 * through a token with the fundraising scope. Every route is for a Charity user linked to a
 * charity (access 'charity', the default under /api/charity), and every query is of that
 * charity: a booking of another charity is not found.
 */
export async function portalRoutes(
  app: FastifyInstance,
  opts: { db: Db; defaults: FundraisingDefaults; clock?: Clock },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const portal = new CharityPortal(opts.db, opts.defaults, opts.clock);
  const replies = { 200: portalFundraiserSchema, 403: messageSchema, 404: messageSchema, 422: validationErrorSchema };
  r.get(
    '/api/charity/fundraisers',
    {
      schema: {
        tags: ['charity portal'],
        summary:
          "Your charity's fundraisers (provisional and confirmed bookings that fundraise): traveller, trip, departure, target, raised, standing, page and acknowledgement, by trip and state; format=xlsx downloads them",
        querystring: portalFundraisersQuery,
        response: { 200: portalFundraisersSchema, 403: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => {
      const { format, ...filter } = request.query;
      if (format === 'json') return portal.list(charityOf(request), filter);
      const { name, body } = await portal.workbook(charityOf(request), filter);
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(body as never);
    },
  );
  r.get(
    '/api/charity/fundraisers/:booking_id',
    {
      schema: {
        tags: ['charity portal'],
        summary:
          'One of your fundraisers: its milestones, raised-to-date entries and the notes your charity sent the office',
        params: bookingParam,
        response: replies,
      },
    },
    async (request) => portal.get(charityOf(request), request.params.booking_id),
  );
  r.post(
    '/api/charity/fundraisers/:booking_id/acknowledge',
    {
      schema: {
        tags: ['charity portal'],
        summary: 'Acknowledge a fundraiser: your charity knows of them (once; again changes nothing)',
        params: bookingParam,
        response: replies,
      },
    },
    async (request) => portal.acknowledge(charityOf(request), request.params.booking_id, request.user!.id),
  );
  r.post(
    '/api/charity/fundraisers/:booking_id/entries',
    {
      schema: {
        tags: ['charity portal'],
        summary: 'Record an amount your charity confirms the fundraiser has raised (source: charity confirmed)',
        params: bookingParam,
        body: charityEntryInputSchema,
        response: { ...replies, 201: portalFundraiserSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await portal.addEntry(charityOf(request), request.params.booking_id, request.body, request.user!.id)),
  );
  r.post(
    '/api/charity/fundraisers/:booking_id/notes',
    {
      schema: {
        tags: ['charity portal'],
        summary: "Send the office a note about a fundraiser: kept on the booking, beside staff's notes",
        params: bookingParam,
        body: charityNoteInputSchema,
        response: { ...replies, 201: portalFundraiserSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await portal.addNote(charityOf(request), request.params.booking_id, request.body.note, {
          userId: request.user!.id,
          ip: request.ip,
        }),
      ),
  );
}
