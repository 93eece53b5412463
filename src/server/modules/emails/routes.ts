import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import { bulkReminderInputSchema, bulkReminderResultSchema, emailTemplateInputSchema, emailTemplateSchema, renderedEmailSchema, templateKeyParam, templatePreviewInputSchema } from '../../../contract/email-templates.ts';
import { remindersSettingSchema } from '../../../contract/schedules.ts';
import type { Db } from '../../../db/client.ts';
import { systemClock, type Clock } from '../../clock.ts';
import type { Mailer } from '../../mail/transport.ts';
import type { Operator } from '../../common/operator.ts';
import { ReminderService } from '../schedules/reminders.ts';
import { ScheduleService } from '../schedules/service.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import { EmailTemplateService, sendReminderNow, sendRemindersNow } from './service.ts';

const tags = ['reminders'];

/** The reminder emails' wording, "send a reminder now", and reminders on or off; scope finance. */
export async function emailRoutes(app: FastifyInstance, opts: { db: Db; mailer: Mailer; operator: Operator; clock?: Clock; reminderDays: number[]; fundraisingDefaults: FundraisingDefaults }) {
  const clock = opts.clock ?? systemClock;
  const templates = new EmailTemplateService(opts.db, opts.operator, clock, opts.fundraisingDefaults);
  const reminders = new ReminderService(opts.db, opts.mailer, opts.operator, clock, opts.reminderDays);
  const schedules = new ScheduleService(opts.db, clock);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/email-templates', { schema: { tags, summary: 'Every email staff can word, with its current subject and body', response: { 200: z.array(emailTemplateSchema) } } }, async () => templates.list());

  r.get(
    '/api/email-templates/:key',
    { schema: { tags, summary: "One email's wording and the placeholders it may use", params: templateKeyParam, response: { 200: emailTemplateSchema, 422: validationErrorSchema } } },
    async (request) => templates.get(request.params.key),
  );

  r.put(
    '/api/email-templates/:key',
    { schema: { tags, summary: "Changes an email's subject and body (Liquid placeholders such as {{ traveller.first_name }}; every value is HTML-escaped)", params: templateKeyParam, body: emailTemplateInputSchema, response: { 200: emailTemplateSchema, 422: validationErrorSchema } } },
    async (request) => templates.save(request.params.key, request.body, request.user?.id ?? null),
  );

  r.delete(
    '/api/email-templates/:key',
    { schema: { tags, summary: "Puts an email back to Tripdesk's own wording", params: templateKeyParam, response: { 200: emailTemplateSchema, 422: validationErrorSchema } } },
    async (request) => templates.reset(request.params.key),
  );

  r.post(
    '/api/email-templates/:key/preview',
    { schema: { tags, summary: 'The email as a booking’s traveller would get it, from the saved wording or the draft sent', params: templateKeyParam, body: templatePreviewInputSchema, response: { 200: renderedEmailSchema, 422: validationErrorSchema } } },
    async (request) => templates.preview(request.params.key, request.body.booking_id, request.body),
  );

  r.post(
    '/api/bookings/:id/reminders',
    { schema: { tags, summary: 'Emails the traveller a reminder of their most urgent unpaid instalment now', params: idParam, response: { 200: messageSchema, 404: messageSchema, 422: validationErrorSchema, 502: messageSchema } } },
    async (request) => sendReminderNow(opts.db, reminders, request.params.id, clock),
  );

  r.post(
    '/api/email-templates/:key/test',
    { schema: { tags, summary: 'Sends the email, as a booking’s traveller would get it (draft or saved wording), to the signed-in member of staff', params: templateKeyParam, body: templatePreviewInputSchema, response: { 200: messageSchema, 422: validationErrorSchema, 502: messageSchema } } },
    async (request) => templates.testSend(request.params.key, request.body.booking_id, request.body, request.user!, opts.mailer),
  );

  r.post(
    '/api/reminders',
    { schema: { tags, summary: 'Emails each booking’s traveller a reminder of their most urgent unpaid instalment now (the ticked rows of the money-due list)', body: bulkReminderInputSchema, response: { 200: bulkReminderResultSchema, 422: validationErrorSchema } } },
    async (request) => sendRemindersNow(opts.db, reminders, request.body.booking_ids, clock),
  );

  r.put(
    '/api/bookings/:id/reminders',
    { schema: { tags, summary: '"Send automatic reminders" on or off for a booking (off needs a reason)', params: idParam, body: remindersSettingSchema, response: { 200: messageSchema, 404: messageSchema, 422: validationErrorSchema } } },
    async (request) => schedules.setReminders('booking', request.params.id, request.body),
  );

  r.put(
    '/api/trips/:id/reminders',
    { schema: { tags, summary: '"Send automatic reminders" on or off for every booking of a trip (off needs a reason)', params: idParam, body: remindersSettingSchema, response: { 200: messageSchema, 404: messageSchema, 422: validationErrorSchema } } },
    async (request) => schedules.setReminders('trip', request.params.id, request.body),
  );
}
