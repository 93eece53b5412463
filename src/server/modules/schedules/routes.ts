import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import {
  bookingScheduleSchema,
  paymentPlanInputSchema,
  paymentPlanSchema,
  scheduleRowParam,
  scheduleRowPatchSchema,
} from '../../../contract/schedules.ts';
import type { Db } from '../../../db/client.ts';
import { bulkReminderInputSchema, bulkReminderResultSchema } from '../../../contract/email-templates.ts';
import { remindersSettingSchema } from '../../../contract/schedules.ts';
import { systemClock, type Clock } from '../../clock.ts';
import type { Operator } from '../../common/operator.ts';
import type { Mailer } from '../../mail/transport.ts';
import { ReminderService } from './reminders.ts';
import { sendReminderNow, sendRemindersNow } from './send-now.ts';
import { ScheduleService } from './service.ts';

const reminderTags = ['reminders'];

const tags = ['payment schedules'];

/** Trips' payment plans and bookings' schedules; scope finance. */
/** Payment plans, schedules, "send a reminder now" and reminders on or off; scope finance. */
export async function scheduleRoutes(
  app: FastifyInstance,
  opts: { db: Db; clock?: Clock; mailer: Mailer; operator: Operator; reminderDays: number[] },
) {
  const clock = opts.clock ?? systemClock;
  const service = new ScheduleService(opts.db, clock);
  const reminders = new ReminderService(opts.db, opts.mailer, opts.operator, clock, opts.reminderDays);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/trips/:id/payment-plan',
    {
      schema: {
        tags,
        summary: "A trip's payment plan, and the schedule a booking made today would get",
        params: idParam,
        response: { 200: paymentPlanSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.plan(request.params.id),
  );

  r.put(
    '/api/trips/:id/payment-plan',
    {
      schema: {
        tags,
        summary:
          "Replaces a trip's payment plan (1–24 instalments, exactly one for the rest); bookings already made keep their schedules",
        params: idParam,
        body: paymentPlanInputSchema,
        response: { 200: paymentPlanSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.savePlan(request.params.id, request.body.instalments),
  );

  r.get(
    '/api/bookings/:id/schedule',
    {
      schema: {
        tags,
        summary: "A booking's payment schedule: each instalment's due date, amount, invoice and state",
        params: idParam,
        response: { 200: bookingScheduleSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.forBooking(request.params.id),
  );

  r.post(
    '/api/bookings/:id/schedule/rebuild',
    {
      schema: {
        tags,
        summary: "Makes a booking's schedule again from its trip's plan, while nothing on it is invoiced",
        params: idParam,
        response: { 200: bookingScheduleSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.rebuild(request.params.id),
  );

  r.patch(
    '/api/schedule-rows/:id',
    {
      schema: {
        tags,
        summary: 'Moves an instalment, changes its amount (before it is invoiced) or waives it with a reason',
        params: scheduleRowParam,
        body: scheduleRowPatchSchema,
        response: { 200: bookingScheduleSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.updateRow(request.params.id, request.body),
  );

  r.post(
    '/api/bookings/:id/reminders',
    {
      schema: {
        tags: reminderTags,
        summary: 'Emails the traveller a reminder of their most urgent unpaid instalment now',
        params: idParam,
        response: { 200: messageSchema, 404: messageSchema, 422: validationErrorSchema, 502: messageSchema },
      },
    },
    async (request) => sendReminderNow(opts.db, reminders, request.params.id, clock),
  );

  r.post(
    '/api/reminders',
    {
      schema: {
        tags: reminderTags,
        summary:
          'Emails each booking’s traveller a reminder of their most urgent unpaid instalment now (the ticked rows of the money-due list)',
        body: bulkReminderInputSchema,
        response: { 200: bulkReminderResultSchema, 422: validationErrorSchema },
      },
    },
    async (request) => sendRemindersNow(opts.db, reminders, request.body.booking_ids, clock),
  );

  r.put(
    '/api/bookings/:id/reminders',
    {
      schema: {
        tags: reminderTags,
        summary: '"Send automatic reminders" on or off for a booking (off needs a reason)',
        params: idParam,
        body: remindersSettingSchema,
        response: { 200: messageSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.setReminders('booking', request.params.id, request.body),
  );

  r.put(
    '/api/trips/:id/reminders',
    {
      schema: {
        tags: reminderTags,
        summary: '"Send automatic reminders" on or off for every booking of a trip (off needs a reason)',
        params: idParam,
        body: remindersSettingSchema,
        response: { 200: messageSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.setReminders('trip', request.params.id, request.body),
  );
}
