import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { validationErrorSchema } from '../../../contract/common.ts';
import { createBookingSchema, createdBookingSchema } from '../../../contract/bookings.ts';
import type { Db } from '../../../db/client.ts';
import { BookingService } from './service.ts';

export async function bookingRoutes(app: FastifyInstance, opts: { db: Db }) {
  const service = new BookingService(opts.db);
  app.withTypeProvider<ZodTypeProvider>().post(
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
