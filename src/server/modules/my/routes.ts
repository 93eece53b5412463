import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import {
  myBookingDetailSchema,
  myBookingsSchema,
  SIGN_IN_LINK_SENT,
  signedInSchema,
  signInLinkSchema,
  signInSchema,
  travellerFormSchema,
} from '../../../contract/my.ts';
import { startSession } from '../../common/session.ts';
import { notFound } from '../../errors.ts';
import type { MyService } from './service.ts';

const tags = ['traveller pages'];

/** A traveller's own pages (/my): signing in by an emailed link, and their bookings. */
export async function myRoutes(app: FastifyInstance, opts: { service: MyService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service } = opts;

  r.post(
    '/api/my/sign-in-link',
    {
      config: { access: 'guest' },
      schema: {
        tags,
        summary: 'Email a single-use sign-in link (30 minutes) to a traveller; the answer is the same for any address',
        body: signInLinkSchema,
        response: { 202: messageSchema, 422: validationErrorSchema, 429: messageSchema },
      },
    },
    async (request, reply) => {
      await service.requestLink(request.body.email, request.ip);
      return reply.status(202).send({ message: SIGN_IN_LINK_SENT });
    },
  );

  r.post(
    '/api/my/sign-in',
    {
      config: { access: 'guest', rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: 'Sign in with the secret of an emailed link (spends it); says which page to open',
        body: signInSchema,
        response: { 200: signedInSchema, 410: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => {
      const signedIn = await service.spendLink(request.body.token);
      await startSession(request, signedIn.userId);
      return { redirect: signedIn.redirect };
    },
  );

  r.get(
    '/api/my/bookings',
    {
      schema: {
        tags,
        summary: "The signed-in traveller's bookings, each with what is still to do",
        response: { 200: myBookingsSchema },
      },
    },
    async (request) => service.bookings(request.user!.id),
  );

  r.get(
    '/api/my/bookings/:id',
    {
      schema: {
        tags,
        summary: "One of the signed-in traveller's bookings: to do, invoices with their pay links, details",
        params: idParam,
        response: { 200: myBookingDetailSchema, 404: messageSchema },
      },
    },
    async (request) => service.booking(request.user!.id, request.params.id),
  );

  r.put(
    '/api/my/bookings/:id/details',
    {
      schema: {
        tags,
        summary: "The traveller's own form for one of their bookings (read-only once the trip has left)",
        params: idParam,
        body: travellerFormSchema,
        response: { 200: myBookingDetailSchema, 404: messageSchema, 409: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.saveDetails(request.user!.id, request.params.id, request.body),
  );

  r.post(
    '/api/bookings/:id/sign-in-link',
    {
      schema: {
        tags,
        summary: "Email the booking's traveller a sign-in link that opens this booking",
        params: idParam,
        response: { 202: messageSchema, 404: messageSchema, 422: validationErrorSchema, 502: messageSchema },
      },
    },
    async (request, reply) => {
      const to = await service.sendLinkForBooking(request.params.id);
      if (!to) throw notFound('Booking');
      return reply.status(202).send({ message: `A sign-in link is on its way to ${to}.` });
    },
  );
}
