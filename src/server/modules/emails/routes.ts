import type { FastifyInstance } from 'fastify';
import { hidesTravellerData } from '../../common/traveller-data.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import {
  emailTemplateInputSchema,
  emailTemplateSchema,
  renderedEmailSchema,
  templateKeyParam,
  templatePreviewInputSchema,
  type TemplateKey,
} from '../../../contract/email-templates.ts';
import type { Db } from '../../../db/client.ts';
import { systemClock, type Clock } from '../../clock.ts';
import type { Mailer } from '../../mail/transport.ts';
import type { PreviewContext } from '../../mail/previews.ts';
import { EmailTemplateService } from './service.ts';

const tags = ['reminders'];

/** The emails' wording, each previewed as its domain says (email-registry.ts); a signed-in Administrator changes it. */
export async function emailRoutes(
  app: FastifyInstance,
  opts: { db: Db; mailer: Mailer; clock?: Clock; previews: Record<TemplateKey, PreviewContext> },
) {
  const clock = opts.clock ?? systemClock;
  const templates = new EmailTemplateService(opts.db, clock, opts.previews);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/email-templates',
    {
      schema: {
        tags,
        summary: 'Every email staff can word, with its current subject and body',
        response: { 200: z.array(emailTemplateSchema) },
      },
    },
    async () => templates.list(),
  );

  r.get(
    '/api/email-templates/:key',
    {
      schema: {
        tags,
        summary: "One email's wording and the placeholders it may use",
        params: templateKeyParam,
        response: { 200: emailTemplateSchema, 422: validationErrorSchema },
      },
    },
    async (request) => templates.get(request.params.key),
  );

  r.put(
    '/api/email-templates/:key',
    {
      schema: {
        tags,
        summary:
          "Changes an email's subject and body (Liquid placeholders such as {{ traveller.first_name }}; every value is HTML-escaped)",
        params: templateKeyParam,
        body: emailTemplateInputSchema,
        response: { 200: emailTemplateSchema, 422: validationErrorSchema },
      },
    },
    async (request) => templates.save(request.params.key, request.body, request.user?.id ?? null),
  );

  r.delete(
    '/api/email-templates/:key',
    {
      schema: {
        tags,
        summary: "Puts an email back to Tripdesk's own wording",
        params: templateKeyParam,
        response: { 200: emailTemplateSchema, 422: validationErrorSchema },
      },
    },
    async (request) => templates.reset(request.params.key),
  );

  r.post(
    '/api/email-templates/:key/preview',
    {
      schema: {
        tags,
        summary: 'The email as a booking’s traveller would get it, from the saved wording or the draft sent',
        params: templateKeyParam,
        body: templatePreviewInputSchema,
        response: { 200: renderedEmailSchema, 422: validationErrorSchema },
      },
    },
    async (request) =>
      templates.preview(request.params.key, request.body.booking_id, request.body, hidesTravellerData(request)),
  );

  r.post(
    '/api/email-templates/:key/test',
    {
      schema: {
        tags,
        summary:
          'Sends the email, as a booking’s traveller would get it (draft or saved wording), to the signed-in member of staff',
        params: templateKeyParam,
        body: templatePreviewInputSchema,
        response: { 200: messageSchema, 422: validationErrorSchema, 502: messageSchema },
      },
    },
    async (request) =>
      templates.testSend(
        request.params.key,
        request.body.booking_id,
        request.body,
        request.user!,
        opts.mailer,
        hidesTravellerData(request),
      ),
  );
}
