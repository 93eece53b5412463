import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { validationErrorSchema } from '../../../contract/common.ts';
import { bookingListQuery, bookingPageSchema, createBookingSchema, createdBookingSchema } from '../../../contract/bookings.ts';
import type { Db } from '../../../db/client.ts';
import { listBookings } from './list.ts';
import { BookingService } from './service.ts';

export async function bookingRoutes(app: FastifyInstance, opts: { db: Db }) {
  const service = new BookingService(opts.db);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/bookings',
    {
      schema: {
        tags: ['bookings'],
        summary: 'Bookings, filtered, sorted and paged (defaults: status all, timing future, newest first)',
        querystring: bookingListQuery,
        response: { 200: bookingPageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => listBookings(opts.db, request.query),
  );
  r.post(
    '/api/bookings',
    {
      schema: {
        tags: ['bookings'],
        summary: 'Create a provisional booking on an open trip, for the user with that email (made when new)',
        body: createBookingSchema,
        response: { 201: createdBookingSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.body)),
  );
}
