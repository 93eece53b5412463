import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { desc, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import { tripSelectItemSchema } from '../../../contract/discounts.ts';
import {
  addonInputSchema,
  addonSchema,
  createTripSchema,
  tripListQuery,
  tripPageSchema,
  tripSchema,
  updateTripSchema,
} from '../../../contract/trips.ts';
import type { Db } from '../../../db/client.ts';
import { trips } from '../../../db/schema/index.ts';
import { TripService } from './service.ts';

const tags = ['trips'];

export async function tripRoutes(app: FastifyInstance, opts: { db: Db }) {
  const service = new TripService(opts.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/trips/select',
    {
      schema: {
        tags,
        summary: 'Every trip that is not deleted, as id and name, latest departure first',
        response: { 200: z.array(tripSelectItemSchema) },
      },
    },
    async () =>
      opts.db
        .select({ id: trips.id, name: trips.name })
        .from(trips)
        .where(isNull(trips.deletedAt))
        .orderBy(desc(trips.departureDate), desc(trips.id)),
  );
  r.get(
    '/api/trips',
    {
      schema: {
        tags,
        summary: 'Trips, current or archived, sorted and paged (sort_by date, date-d or name)',
        querystring: tripListQuery,
        response: { 200: tripPageSchema },
      },
    },
    async (request) => service.list(request.query),
  );
  r.post(
    '/api/trips',
    {
      schema: {
        tags,
        summary:
          'Create a trip (dates as DD/MM/YYYY); it starts open, with no deposit or cost, passports required, any funding',
        body: createTripSchema,
        response: { 201: tripSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(request.body)),
  );
  r.get(
    '/api/trips/:id',
    { schema: { tags, summary: 'One trip', params: idParam, response: { 200: tripSchema, 404: messageSchema } } },
    async (request) => service.get(request.params.id),
  );
  r.patch(
    '/api/trips/:id',
    {
      schema: {
        tags,
        summary: 'Change a trip that has not departed',
        params: idParam,
        body: updateTripSchema,
        response: { 200: tripSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.update(request.params.id, request.body),
  );
  r.post(
    '/api/trips/:id/archive',
    {
      schema: {
        tags,
        summary: 'Archive a trip: it leaves the current list',
        params: idParam,
        response: { 200: tripSchema, 404: messageSchema },
      },
    },
    async (request) => service.archive(request.params.id),
  );
  r.delete(
    '/api/trips/:id',
    {
      schema: {
        tags,
        summary: 'Delete a trip; its bookings stay reachable',
        params: idParam,
        response: { 204: z.null(), 404: messageSchema },
      },
    },
    async (request, reply) => {
      await service.delete(request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/trips/:id/addons',
    {
      schema: {
        tags,
        summary: 'The trip’s add-ons',
        params: idParam,
        response: { 200: z.array(addonSchema), 404: messageSchema },
      },
    },
    async (request) => service.addons(request.params.id),
  );
  r.post(
    '/api/trips/:id/addons',
    {
      schema: {
        tags,
        summary: 'Add an add-on (price in pounds)',
        params: idParam,
        body: addonInputSchema,
        response: { 201: addonSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.addAddon(request.params.id, request.body)),
  );
  r.patch(
    '/api/addons/:id',
    {
      schema: {
        tags,
        summary: 'Rename or reprice an add-on not yet invoiced',
        params: idParam,
        body: addonInputSchema,
        response: { 200: addonSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.updateAddon(request.params.id, request.body),
  );
  r.delete(
    '/api/addons/:id',
    {
      schema: {
        tags,
        summary: 'Remove an add-on no booking has chosen',
        params: idParam,
        response: { 204: z.null(), 404: messageSchema, 422: messageSchema },
      },
    },
    async (request, reply) => {
      await service.removeAddon(request.params.id);
      return reply.status(204).send(null);
    },
  );
}
