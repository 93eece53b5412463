import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import { bookingScheduleSchema, paymentPlanInputSchema, paymentPlanSchema, scheduleRowParam, scheduleRowPatchSchema } from '../../../contract/schedules.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../clock.ts';
import { ScheduleService } from './service.ts';

const tags = ['payment schedules'];

/** Trips' payment plans and bookings' schedules; scope finance. */
export async function scheduleRoutes(app: FastifyInstance, opts: { db: Db; clock?: Clock }) {
  const service = new ScheduleService(opts.db, opts.clock);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/trips/:id/payment-plan',
    { schema: { tags, summary: "A trip's payment plan, and the schedule a booking made today would get", params: idParam, response: { 200: paymentPlanSchema, 404: messageSchema, 422: validationErrorSchema } } },
    async (request) => service.plan(request.params.id),
  );

  r.put(
    '/api/trips/:id/payment-plan',
    { schema: { tags, summary: "Replaces a trip's payment plan (1–24 instalments, exactly one for the rest); bookings already made keep their schedules", params: idParam, body: paymentPlanInputSchema, response: { 200: paymentPlanSchema, 404: messageSchema, 422: validationErrorSchema } } },
    async (request) => service.savePlan(request.params.id, request.body.instalments),
  );

  r.get(
    '/api/bookings/:id/schedule',
    { schema: { tags, summary: "A booking's payment schedule: each instalment's due date, amount, invoice and state", params: idParam, response: { 200: bookingScheduleSchema, 404: messageSchema, 422: validationErrorSchema } } },
    async (request) => service.forBooking(request.params.id),
  );

  r.post(
    '/api/bookings/:id/schedule/rebuild',
    { schema: { tags, summary: "Makes a booking's schedule again from its trip's plan, while nothing on it is invoiced", params: idParam, response: { 200: bookingScheduleSchema, 404: messageSchema, 422: validationErrorSchema } } },
    async (request) => service.rebuild(request.params.id),
  );

  r.patch(
    '/api/schedule-rows/:id',
    { schema: { tags, summary: 'Moves an instalment, changes its amount (before it is invoiced) or waives it with a reason', params: scheduleRowParam, body: scheduleRowPatchSchema, response: { 200: bookingScheduleSchema, 404: messageSchema, 422: validationErrorSchema } } },
    async (request) => service.updateRow(request.params.id, request.body),
  );
}
