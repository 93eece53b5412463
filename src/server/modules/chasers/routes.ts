import type { FileStore } from '../../../shared/storage/index.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  chaserInputSchema,
  chaserResultSchema,
  chasersSettingSchema,
  sendDocumentsInputSchema,
} from '../../../contract/chasers.ts';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../clock.ts';
import type { Mailer } from '../../mail/transport.ts';
import { TripDocumentsMailer } from '../documents/send.ts';
import type { Operator } from '../../common/operator.ts';
import { ChaserService } from './service.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';

/** Chasers and the trip's documents, sent from the readiness board; a booking's chasers on or off. */
export async function chaserRoutes(
  app: FastifyInstance,
  opts: {
    db: Db;
    files: FileStore;
    mailer: Mailer;
    operator: Operator;
    fundraisingDefaults: FundraisingDefaults;
    clock?: Clock;
  },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new ChaserService(opts.db, opts.mailer, opts.operator, opts.fundraisingDefaults, opts.clock);
  const documents = new TripDocumentsMailer(opts.db, opts.files, opts.mailer, opts.operator, opts.clock);
  r.post(
    '/api/trips/:id/chasers',
    {
      schema: {
        tags: ['readiness'],
        summary:
          'Email a chaser now to each chosen booking of the trip for each chosen check (passport, forms) that is not green; says what became of each',
        params: idParam,
        body: chaserInputSchema,
        response: { 200: chaserResultSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) =>
      service.sendNow(request.params.id, request.body.booking_ids, request.body.checks, request.user?.id ?? null),
  );
  r.post(
    '/api/trips/:id/documents/send',
    {
      schema: {
        tags: ['readiness'],
        summary:
          "Email the trip's uploaded documents, attached, to each chosen provisional or confirmed booking's traveller; says what became of each",
        params: idParam,
        body: sendDocumentsInputSchema,
        response: { 200: chaserResultSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => documents.send(request.params.id, request.body.booking_ids),
  );
  r.put(
    '/api/bookings/:id/chasers',
    {
      schema: {
        tags: ['readiness'],
        summary: 'Turn the automatic passport and forms chasers on or off for one booking (with a reason when off)',
        params: idParam,
        body: chasersSettingSchema,
        response: { 200: messageSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.setChasers(request.params.id, request.body),
  );
}
