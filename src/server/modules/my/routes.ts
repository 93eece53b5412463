import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, recordId, validationErrorSchema } from '../../../contract/common.ts';
import { askChangeSchema, myChangesSchema } from '../../../contract/changes.ts';
import { ROLES } from '../../../contract/constants.ts';
import {
  answersSchema,
  consentInputSchema,
  myBookingDetailSchema,
  myBookingsSchema,
  myFundraisingTotalSchema,
  renewSignInLinkSchema,
  SIGN_IN_LINK_RENEWED,
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
      const current = request.user?.roleId === ROLES.endUser ? request.user.id : null;
      const signedIn = await service.spendLink(request.body.token, current);
      if (signedIn.userId !== current) await startSession(request, signedIn.userId);
      return { redirect: signedIn.redirect };
    },
  );

  r.post(
    '/api/my/sign-in-link/renew',
    {
      config: { access: 'guest' },
      schema: {
        tags,
        summary:
          'From a link that has expired or been used: email a fresh one to the traveller it was for (the answer is the same for any link)',
        body: renewSignInLinkSchema,
        response: { 202: messageSchema, 422: validationErrorSchema, 429: messageSchema },
      },
    },
    async (request, reply) => {
      await service.renewLink(request.body.token, request.ip);
      return reply.status(202).send({ message: SIGN_IN_LINK_RENEWED });
    },
  );

  r.post(
    '/api/my/sign-out-everywhere',
    {
      schema: {
        tags,
        summary:
          "End every one of the traveller's sessions, this one too, and refuse every emailed link made before now",
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.endSessions(request.user!.id, 'traveller');
      await request.session.destroy();
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/api/users/:id/end-sessions',
    {
      schema: {
        tags,
        summary: 'End every session of a traveller (End User) and refuse the emailed links made before now',
        params: idParam,
        response: { 200: messageSchema, 404: messageSchema },
      },
    },
    async (request) => {
      if (!(await service.endSessions(request.params.id, 'office'))) throw notFound('Traveller');
      return { message: "The traveller's sessions have ended; the links already emailed to them no longer sign in." };
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

  r.get(
    '/api/my/bookings/:id/changes',
    {
      schema: {
        tags,
        summary:
          "What cancelling one of the traveller's bookings would cost today (the office's scale), and their asks to cancel or change it",
        params: idParam,
        response: { 200: myChangesSchema, 404: messageSchema },
      },
    },
    async (request) => service.changes(request.user!.id, request.params.id),
  );

  r.post(
    '/api/my/bookings/:id/changes',
    {
      schema: {
        tags,
        summary:
          'The traveller asks the office to cancel or to change the booking: nothing is done until staff do it; one open ask of each kind',
        params: idParam,
        body: askChangeSchema,
        response: { 201: myChangesSchema, 404: messageSchema, 409: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.askChange(request.user!.id, request.params.id, request.body)),
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
    '/api/my/bookings/:id/consent',
    {
      schema: {
        tags,
        summary:
          "A parent's consent for their child on a school trip, agreed by typing their full name (the time and address are kept)",
        params: idParam,
        body: consentInputSchema,
        response: { 200: myBookingDetailSchema, 404: messageSchema, 409: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.giveConsent(request.user!.id, request.params.id, request.body.full_name, request.ip),
  );

  r.delete(
    '/api/my/bookings/:id/consent',
    {
      schema: {
        tags,
        summary: "Withdraws a parent's consent: the pupil is not ready to travel, and the office is told",
        params: idParam,
        response: { 200: myBookingDetailSchema, 404: messageSchema, 409: messageSchema },
      },
    },
    async (request) => service.withdrawConsent(request.user!.id, request.params.id),
  );

  r.get(
    '/api/my/bookings/:id/invoices/:invoiceId/pdf',
    {
      schema: {
        tags,
        summary: "One of the traveller's invoices as a PDF",
        params: z.object({ id: recordId('booking'), invoiceId: recordId('invoice') }),
      },
    },
    async (request, reply) => {
      const { pdf, ref } = await service.invoicePdf(request.user!.id, request.params.id, request.params.invoiceId);
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `inline; filename="${ref.replace(/[^\w.-]/g, '_')}.pdf"`)
        .send(pdf);
    },
  );

  r.post(
    '/api/my/bookings/:id/fundraising/total',
    {
      schema: {
        tags,
        summary:
          '"Update my total": what the traveller\'s fundraising page shows now (pounds); what it adds is recorded as a page-total entry',
        params: idParam,
        body: myFundraisingTotalSchema,
        response: {
          200: myBookingDetailSchema,
          404: messageSchema,
          409: messageSchema,
          422: validationErrorSchema,
        },
      },
    },
    async (request) => service.updateFundraisingTotal(request.user!.id, request.params.id, request.body.total),
  );

  r.put(
    '/api/my/bookings/:id/answers',
    {
      schema: {
        tags,
        summary: "The traveller's answers to their trip's questions (read-only once the trip has left)",
        params: idParam,
        body: answersSchema,
        response: { 200: myBookingDetailSchema, 404: messageSchema, 409: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.saveAnswers(request.user!.id, request.params.id, request.body),
  );

  r.post(
    '/api/my/bookings/:id/passport-image',
    {
      schema: {
        tags,
        summary:
          "The passport's photo page (multipart, field file: a JPG, PNG or PDF by its content, at most 10 MB); the office checks it",
        params: idParam,
        consumes: ['multipart/form-data'],
        response: { 200: myBookingDetailSchema, 404: messageSchema, 409: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.savePassportPhoto(request.user!.id, request.params.id, request),
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
