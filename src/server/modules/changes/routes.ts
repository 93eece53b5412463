import type { FastifyInstance } from 'fastify';
import { hidesTravellerData } from '../../common/traveller-data.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cancelBookingSchema,
  cancelledSchema,
  feeWaivedQuery,
  fundingPreviewQuery,
  fundingPreviewSchema,
  fundingSetSchema,
  moveBookingSchema,
  movedSchema,
  movePreviewQuery,
  movePreviewSchema,
  moveTripsSchema,
  cancelPreviewSchema,
  cancelTripSchema,
  changeRequestSchema,
  changeRequestsQuery,
  changeRequestsSchema,
  changeRulesSchema,
  closeChangeRequestSchema,
  refundsOwedQuery,
  refundsOwedSchema,
  saveChangeRulesSchema,
  setFundingSchema,
  transferBookingSchema,
  transferredSchema,
  transferPreviewSchema,
  tripChangeRulesSchema,
  tripCancelledSchema,
  tripCancelPreviewSchema,
} from '../../../contract/changes.ts';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import type { ChangesService } from './service.ts';

const tags = ['changes after booking'];

export async function changesRoutes(app: FastifyInstance, opts: { service: ChangesService }) {
  const { service } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/settings/changes',
    {
      schema: {
        tags,
        summary:
          "The office's fees for changes: the cancellation scale's bands (days before departure, what is kept, for which funding type), the transfer fee and the move fee",
        response: { 200: changeRulesSchema },
      },
    },
    async () => service.officeRules(),
  );

  r.put(
    '/api/settings/changes',
    {
      schema: {
        tags,
        summary: "Sets the office's cancellation scale, transfer fee and move fee",
        body: saveChangeRulesSchema,
        response: { 200: changeRulesSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.saveOfficeRules(request.body, request.user!.id),
  );

  r.get(
    '/api/trips/:id/changes',
    {
      schema: {
        tags,
        summary:
          "The fees a trip's changes are charged by: its own cancellation scale, transfer fee and move fee when it has them (own), else the office's",
        params: idParam,
        response: { 200: tripChangeRulesSchema, 404: messageSchema },
      },
    },
    async (request) => service.tripRules(request.params.id),
  );

  r.put(
    '/api/trips/:id/changes',
    {
      schema: {
        tags,
        summary:
          "Sets the trip's own cancellation scale, transfer fee and move fee, where they differ from the office's",
        params: idParam,
        body: saveChangeRulesSchema,
        response: { 200: tripChangeRulesSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.saveTripRules(request.params.id, request.body, request.user!.id),
  );

  r.delete(
    '/api/trips/:id/changes',
    {
      schema: {
        tags,
        summary: "The trip goes back to the office's cancellation scale and fees",
        params: idParam,
        response: { 200: tripChangeRulesSchema, 404: messageSchema },
      },
    },
    async (request) => service.clearTripRules(request.params.id),
  );

  r.get(
    '/api/bookings/:id/cancel/preview',
    {
      schema: {
        tags,
        summary:
          'What cancelling this booking today would do: the fee by the scale, what has been paid, the refund owed or the amount still owed, and the invoices and instalments that change',
        params: idParam,
        querystring: feeWaivedQuery,
        response: { 200: cancelPreviewSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.cancelPreview(request.params.id, request.query.fee_waived),
  );

  r.post(
    '/api/bookings/:id/cancel',
    {
      schema: {
        tags,
        summary:
          'Cancels the booking by the scale (exactly what its preview says), in one transaction, and emails the traveller when notify is set',
        params: idParam,
        body: cancelBookingSchema,
        response: { 200: cancelledSchema, 404: messageSchema, 409: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.cancel(request.params.id, request.body, request.user!.id),
  );

  r.get(
    '/api/bookings/:id/transfer/preview',
    {
      schema: {
        tags,
        summary:
          "What passing this booking to another traveller would do: the transfer fee, the old traveller's details erased, and whether an Administrator's reason is needed (within 7 days of departure)",
        params: idParam,
        querystring: feeWaivedQuery,
        response: { 200: transferPreviewSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) =>
      service.transferPreview(request.params.id, request.query.fee_waived, hidesTravellerData(request)),
  );

  r.post(
    '/api/bookings/:id/transfer',
    {
      schema: {
        tags,
        summary:
          'Passes the booking to another traveller: it keeps its reference, money and history; the transfer fee is invoiced; both travellers are emailed when notify is set',
        params: idParam,
        body: transferBookingSchema,
        response: { 200: transferredSchema, 404: messageSchema, 409: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.transfer(request.params.id, request.body, request.user!.id, hidesTravellerData(request)),
  );

  r.get(
    '/api/bookings/:id/move/trips',
    {
      schema: {
        tags,
        summary:
          'The departures this booking may move to: open trips of the same type, not yet departed, with their cost and places left',
        params: idParam,
        response: { 200: moveTripsSchema, 404: messageSchema },
      },
    },
    async (request) => service.moves.trips(request.params.id),
  );

  r.get(
    '/api/bookings/:id/move/preview',
    {
      schema: {
        tags,
        summary:
          'What moving this booking to another departure (trip_id) would do: the move fee, the price difference, the new schedule less what was billed, a refund owed, and the add-ons the new trip does not have',
        params: idParam,
        querystring: movePreviewQuery,
        response: { 200: movePreviewSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.moves.preview(request.params.id, request.query.trip_id, request.query.fee_waived),
  );

  r.post(
    '/api/bookings/:id/move',
    {
      schema: {
        tags,
        summary:
          'Moves the booking to another departure of the same type (exactly what its preview says), in one transaction',
        params: idParam,
        body: moveBookingSchema,
        response: { 200: movedSchema, 404: messageSchema, 409: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.moves.move(request.params.id, request.body, request.user!.id),
  );

  r.get(
    '/api/trips/:id/cancel/preview',
    {
      schema: {
        tags,
        summary:
          'What cancelling this departure would do: every live booking cancelled with no fee, what each paid owed back within 14 days, and its minimum numbers against its bookings (reg 13)',
        params: idParam,
        response: { 200: tripCancelPreviewSchema, 404: messageSchema },
      },
    },
    async (request) => service.tripCancelPreview(request.params.id),
  );

  r.post(
    '/api/trips/:id/cancel',
    {
      schema: {
        tags,
        summary:
          'The operator cancels the departure (exactly what its preview says), in one transaction: its bookings cancelled with no fee, refunds owed, the trip cancelled; each traveller emailed when notify is set',
        params: idParam,
        body: cancelTripSchema,
        response: { 200: tripCancelledSchema, 404: messageSchema, 409: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.cancelTrip(request.params.id, request.body, request.user!.id),
  );

  r.get(
    '/api/bookings/:id/funding/preview',
    {
      schema: {
        tags,
        summary:
          "What setting this booking's funding type and charity would do: the fundraising target that follows, the entries kept, and the charity told that a fundraiser joins or leaves it",
        params: idParam,
        querystring: fundingPreviewQuery,
        response: { 200: fundingPreviewSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.funding.preview(request.params.id, request.query),
  );

  r.put(
    '/api/bookings/:id/funding',
    {
      schema: {
        tags,
        summary:
          "Sets the booking's funding type and charity (exactly what its preview says), with the reason; the charity a fundraiser joins or leaves is emailed",
        params: idParam,
        body: setFundingSchema,
        response: { 200: fundingSetSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.funding.set(request.params.id, request.body),
  );

  r.get(
    '/api/change-requests',
    {
      schema: {
        tags,
        summary:
          "Travellers' asks to cancel or change their bookings, from their own pages: the open ones first, oldest first (state=open|done|declined, booking_id)",
        querystring: changeRequestsQuery,
        response: { 200: changeRequestsSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.requests.list(request.query),
  );

  r.post(
    '/api/change-requests/:id/close',
    {
      schema: {
        tags,
        summary:
          "Closes a traveller's open ask: done (staff made the change, with one of the actions) or declined, with a note",
        params: idParam,
        body: closeChangeRequestSchema,
        response: { 200: changeRequestSchema, 404: messageSchema, 409: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.requests.close(request.params.id, request.body, request.user!.id),
  );

  r.get(
    '/api/refunds-owed',
    {
      schema: {
        tags,
        summary: 'Refunds owed to travellers, the soonest due first (state=open|settled, overdue=1)',
        querystring: refundsOwedQuery,
        response: { 200: refundsOwedSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.refundsOwed(request.query),
  );
}
