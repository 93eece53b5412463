import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  auditPageSchema,
  auditQuery,
  historyQuery,
  sentEmailSchema,
  type AuditPage,
  type SentEmail,
} from '../../contract/audit.ts';
import { idParam, messageSchema, validationErrorSchema } from '../../contract/common.ts';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../errors.ts';
import { hideInEvents, hideTravellerValues, hidesTravellerData } from '../common/traveller-data.ts';
import { AuditService, auditSpreadsheet } from './service.ts';

const tags = ['history'];

/**
 * An event's details hold the full text of the emails sent (names, amounts, what a chaser
 * quoted): a token reads them only with both users:read and bookings:read; a signed-in
 * Administrator always.
 */
function mayReadDetails(request: FastifyRequest): boolean {
  const grant = request.bearer;
  return !grant || (grant.scopes.includes('users:read') && grant.scopes.includes('bookings:read'));
}
const DETAILS_NEED = 'This token needs both the users:read and the bookings:read scopes to read the text of emails.';

/** A page of the History as this request may read it: without emails' text for a token without both scopes, without traveller data's values for a team without it. */
async function forRequest(db: Db, request: FastifyRequest, page: AuditPage): Promise<AuditPage> {
  const data = hidesTravellerData(request) ? await hideInEvents(db, page.data) : page.data;
  return { ...page, data: mayReadDetails(request) ? data : data.map((event) => ({ ...event, details: null })) };
}

/** The emails of a booking, its traveller data hidden in their texts for a team without it. */
const emailsForRequest = (db: Db, request: FastifyRequest, bookingId: number, emails: SentEmail[]) =>
  hidesTravellerData(request)
    ? hideTravellerValues(db, emails, () => bookingId, ['subject', 'text', 'attachments'])
    : Promise.resolve(emails);

/** The history, read: a booking's (bookings:read), a trip's (trips:read), and all of it (users:read). */
export async function auditRoutes(app: FastifyInstance, opts: { db: Db }) {
  const service = new AuditService(opts.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/bookings/:id/history',
    {
      schema: {
        tags,
        summary: "A booking's history, newest first: changes, money, emails, notes and sensitive reads",
        params: idParam,
        querystring: historyQuery,
        response: { 200: auditPageSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => forRequest(opts.db, request, await service.forBooking(request.params.id, request.query.page)),
  );

  r.get(
    '/api/trips/:id/history',
    {
      schema: {
        tags,
        summary: "A trip's history and its add-ons', custom fields' and documents', newest first",
        params: idParam,
        querystring: historyQuery,
        response: { 200: auditPageSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => forRequest(opts.db, request, await service.forTrip(request.params.id, request.query.page)),
  );

  r.get(
    '/api/bookings/:id/emails',
    {
      schema: {
        tags,
        summary:
          'Every email sent about a booking (or refused by the mail server), newest first, with its full text (a token needs users:read as well)',
        params: idParam,
        response: { 200: z.array(sentEmailSchema), 403: messageSchema, 404: messageSchema },
      },
    },
    async (request) => {
      if (!mayReadDetails(request)) throw new HttpError(403, DETAILS_NEED);
      return emailsForRequest(opts.db, request, request.params.id, await service.emailsFor(request.params.id));
    },
  );

  // a download the browser asks for with a form GET, like the booking export
  r.get(
    '/audit/export',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'The events of a search as a .xlsx workbook (newest first, at most 10,000)',
        querystring: auditQuery,
      },
    },
    async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="history-${new Date().toISOString().slice(0, 10)}.xlsx"`)
        .send(auditSpreadsheet(opts.db, request.query, hidesTravellerData(request))),
  );

  r.get(
    '/api/audit',
    {
      schema: {
        tags,
        summary: 'Every event, filtered by actor, action, subject, booking reference, dates and source',
        querystring: auditQuery,
        response: { 200: auditPageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => forRequest(opts.db, request, await service.search(request.query)),
  );
}
