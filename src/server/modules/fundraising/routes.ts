import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import {
  charityFundraisersSchema,
  fundraisersQuery,
  bookingFundraisingInputSchema,
  bookingFundraisingSchema,
  fundraisingEntryInputSchema,
  strikeEntryInputSchema,
  tripFundraisingInputSchema,
  tripFundraisingSchema,
} from '../../../contract/fundraising.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../clock.ts';
import { FundraisingService, type FundraisingDefaults } from './service.ts';

/** Fundraising, the staff side: a trip's minimum and milestones; a traveller's target, page and raised-to-date entries. */
export async function fundraisingRoutes(
  app: FastifyInstance,
  opts: { db: Db; defaults: FundraisingDefaults; clock?: Clock },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new FundraisingService(opts.db, opts.defaults, opts.clock);
  const replies = { 200: bookingFundraisingSchema, 404: messageSchema, 422: validationErrorSchema };
  r.get(
    '/api/trips/:id/fundraising',
    {
      schema: {
        tags: ['fundraising'],
        summary:
          "The trip's minimum sponsorship and milestones for each funding type that fundraises (its own, or the defaults)",
        params: idParam,
        response: { 200: tripFundraisingSchema, 404: messageSchema },
      },
    },
    async (request) => service.forTrip(request.params.id),
  );
  r.put(
    '/api/trips/:id/fundraising',
    {
      schema: {
        tags: ['fundraising'],
        summary: "Set the trip's own minimum sponsorship and milestones for fundraise and/or flexi bookings",
        params: idParam,
        body: tripFundraisingInputSchema,
        response: { 200: tripFundraisingSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.saveTrip(request.params.id, request.body),
  );
  r.get(
    '/api/charities/:id/fundraisers',
    {
      schema: {
        tags: ['fundraising'],
        summary:
          "A charity's fundraisers (provisional and confirmed bookings that fundraise) with their targets, raised to date and standing, the totals, and the charity's portal users",
        params: idParam,
        querystring: fundraisersQuery,
        response: { 200: charityFundraisersSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.ofCharity(request.params.id, request.query),
  );
  r.get(
    '/api/bookings/:id/fundraising',
    {
      schema: {
        tags: ['fundraising'],
        summary: "A traveller's target, page, raised-to-date entries and standing against the trip's milestones",
        params: idParam,
        response: { 200: bookingFundraisingSchema, 404: messageSchema },
      },
    },
    async (request) => service.forBooking(request.params.id),
  );
  r.put(
    '/api/bookings/:id/fundraising',
    {
      schema: {
        tags: ['fundraising'],
        summary: "Change a traveller's target (with why; null: the trip's minimum) or fundraising page",
        params: idParam,
        body: bookingFundraisingInputSchema,
        response: replies,
      },
    },
    async (request) => service.update(request.params.id, request.body),
  );
  r.post(
    '/api/bookings/:id/fundraising/entries',
    {
      schema: {
        tags: ['fundraising'],
        summary: 'Record an amount raised to date (page total, offline, Gift Aid or charity confirmed)',
        params: idParam,
        body: fundraisingEntryInputSchema,
        response: { ...replies, 201: bookingFundraisingSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.addEntry(request.params.id, request.body, request.user?.id ?? null)),
  );
  r.post(
    '/api/fundraising-entries/:id/strike',
    {
      schema: {
        tags: ['fundraising'],
        summary: 'Strike out a raised-to-date entry, saying why: it stays in view, no longer counted',
        params: idParam,
        body: strikeEntryInputSchema,
        response: replies,
      },
    },
    async (request) => service.strike(request.params.id, request.body.reason, request.user?.id ?? null),
  );
}
