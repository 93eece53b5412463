import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import {
  onlineBookingSchema,
  publicBookedSchema,
  publicBookingSchema,
  publicTripSchema,
  saveOnlineBookingSchema,
  slugParam,
} from '../../../contract/online-booking.ts';
import type { OnlineBookingService } from './service.ts';

const tags = ['online booking'];
// a page is read often (a CDN may keep it a little); places left change, so not for long
const PAGE_MAX_AGE_SECONDS = 5;

export async function onlineBookingRoutes(app: FastifyInstance, opts: { service: OnlineBookingService }) {
  const { service } = opts;
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
      config: { access: 'guest', rateLimit: { max: 600, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: "A trip's public booking page: what it shows, nothing more",
        params: slugParam,
        response: { 200: publicTripSchema, 404: messageSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', `public, max-age=${PAGE_MAX_AGE_SECONDS}`);
      return service.publicTrip(request.params.slug);
    },
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
