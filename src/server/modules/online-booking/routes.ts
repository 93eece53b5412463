import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import {
  joinWaitingListSchema,
  moveWaitingEntrySchema,
  publicTripQuery,
  waitingEntryParams,
  waitingEntrySchema,
  waitingListSchema,
  onlineBookingSchema,
  publicBookedSchema,
  publicBookingSchema,
  publicTripSchema,
  saveOnlineBookingSchema,
  slugParam,
} from '../../../contract/online-booking.ts';
import type { OnlineBookingService } from './service.ts';
import type { WaitingListService } from './waiting-list.ts';

const tags = ['online booking'];
// a page is read often (a CDN may keep it a little); places left change, so not for long (PUBLIC_PAGE_CACHE_MS)
const PAGE_MAX_AGE_SECONDS = 2;

export async function onlineBookingRoutes(
  app: FastifyInstance,
  opts: { service: OnlineBookingService; waitingList: WaitingListService },
) {
  const { service, waitingList } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/trips/:id/online-booking',
    {
      schema: {
        tags,
        summary:
          "A trip's online booking: on or off, its page's address, closing day, funding types, charities, discount codes, and places taken, held and left",
        params: idParam,
        response: { 200: onlineBookingSchema, 404: messageSchema },
      },
    },
    async (request) => service.settings(request.params.id),
  );

  r.put(
    '/api/trips/:id/online-booking',
    {
      schema: {
        tags,
        summary: "Sets a trip's online booking (an empty address is made from the trip's name)",
        params: idParam,
        body: saveOnlineBookingSchema,
        response: { 200: onlineBookingSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.save(request.params.id, request.body),
  );

  r.get(
    '/api/public/trips/:slug',
    {
      // no limit by address: a CDN's few addresses ask for everyone, and the page is this server's copy (PUBLIC_PAGE_CACHE_MS);
      // nor a session: the page is the same for everyone, and its form's CSRF token comes with /book/{slug}
      config: { access: 'guest', session: false },
      schema: {
        tags,
        summary: "A trip's public booking page: what it shows, nothing more",
        params: slugParam,
        querystring: publicTripQuery,
        response: { 200: publicTripSchema, 304: z.null(), 404: messageSchema },
      },
    },
    async (request, reply) => {
      const { body, etag } = await service.publicPage(request.params.slug, request.query.offer);
      // a page opened with an offer is that person's alone; the rest a CDN may keep for a few seconds
      reply.header('cache-control', request.query.offer ? 'no-store' : `public, max-age=${PAGE_MAX_AGE_SECONDS}`);
      reply.header('etag', etag);
      if (!request.query.offer && request.headers['if-none-match'] === etag) return reply.status(304).send(null);
      // the page's bytes as the service checked them against publicTripSchema when it read it
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  r.post(
    '/api/public/trips/:slug/waiting-list',
    {
      config: { access: 'guest' },
      schema: {
        tags,
        summary: "Joins a trip's waiting list: a place that frees is offered to the first in line by email",
        params: slugParam,
        body: joinWaitingListSchema,
        response: { 201: messageSchema, 404: messageSchema, 422: validationErrorSchema, 429: messageSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.status(201).send(await waitingList.join(request.params.slug, request.body, request.ip));
    },
  );

  r.get(
    '/api/trips/:id/waiting-list',
    {
      schema: {
        tags,
        summary: "A trip's waiting list: the line in order with the offers made and their state, then those out of it",
        params: idParam,
        response: { 200: waitingListSchema, 404: messageSchema },
      },
    },
    async (request) => waitingList.list(request.params.id),
  );

  r.patch(
    '/api/trips/:id/waiting-list/:entryId',
    {
      schema: {
        tags,
        summary: 'Moves someone one place up or down the waiting list',
        params: waitingEntryParams,
        body: moveWaitingEntrySchema,
        response: { 200: waitingListSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => waitingList.move(request.params.id, request.params.entryId, request.body.move),
  );

  r.delete(
    '/api/trips/:id/waiting-list/:entryId',
    {
      schema: {
        tags,
        summary: 'Takes someone off the waiting list (an offer they hold is withdrawn)',
        params: waitingEntryParams,
        response: { 200: waitingListSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => waitingList.remove(request.params.id, request.params.entryId),
  );

  r.post(
    '/api/trips/:id/waiting-list/:entryId/offer',
    {
      schema: {
        tags,
        summary:
          'Offers someone on the waiting list their places now, by email, when enough are free (502, and no offer, when the email cannot be sent)',
        params: waitingEntryParams,
        response: {
          200: waitingEntrySchema,
          404: messageSchema,
          409: messageSchema,
          422: validationErrorSchema,
          502: messageSchema,
        },
      },
    },
    async (request) => waitingList.offerByHand(request.params.id, request.params.entryId),
  );

  r.post(
    '/api/public/trips/:slug/bookings',
    {
      config: { access: 'guest' },
      schema: {
        tags,
        summary:
          'Books a place: made provisional at once, held for its deposit (paid at pay_url) or confirmed when nothing is due now; 409 when the trip is full or closed',
        params: slugParam,
        body: publicBookingSchema,
        response: {
          201: publicBookedSchema,
          404: messageSchema,
          409: messageSchema,
          422: validationErrorSchema,
          429: messageSchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const booked = await service.book(request.params.slug, request.body, request.ip);
      return reply.status(201).send(booked);
    },
  );
}
