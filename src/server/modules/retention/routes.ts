import type { FileStore } from '../../../shared/storage/index.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam, messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import { keepUntilSchema, retentionPreviewSchema } from '../../../contract/retention.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../clock.ts';
import { RetentionService } from './service.ts';

/** Erasure after return: what the next run will erase, and holding one booking back. Scope bookings. */
export async function retentionRoutes(
  app: FastifyInstance,
  opts: { db: Db; files: FileStore; days: number; clock?: Clock },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new RetentionService(opts.db, opts.files, opts.days, opts.clock);
  r.get(
    '/api/retention/preview',
    {
      schema: {
        tags: ['retention'],
        summary:
          'What the next nightly run will erase (the first 100 bookings, the fields each holds, never their values), and how many are held back',
        response: { 200: retentionPreviewSchema },
      },
    },
    async () => service.preview(),
  );
  r.put(
    '/api/bookings/:id/keep-until',
    {
      schema: {
        tags: ['retention'],
        summary:
          "Hold a booking's erasure back until a day, saying why (a claim, an incident); keep_until null lets it go",
        params: idParam,
        body: keepUntilSchema,
        response: {
          200: z.object({ message: z.string(), keep_until: z.string().nullable(), keep_reason: z.string().nullable() }),
          404: messageSchema,
          422: validationErrorSchema,
        },
      },
    },
    async (request) => service.keepUntil(request.params.id, request.body.keep_until, request.body.reason ?? null),
  );
}
