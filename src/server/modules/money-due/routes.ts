import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { validationErrorSchema } from '../../../contract/common.ts';
import { moneyDuePageSchema, moneyDueQuery, refundsDueSchema } from '../../../contract/money-due.ts';
import type { Db } from '../../../db/client.ts';
import type { Clock } from '../../clock.ts';
import { ukToday } from '../../../contract/dates.ts';
import { nowOf, systemClock } from '../../clock.ts';
import { moneyDueFileName, moneyDueSpreadsheet } from './export.ts';
import { MoneyDueService } from './service.ts';

/** Who owes what: GET /api/money-due, scope finance. */
export async function moneyDueRoutes(app: FastifyInstance, opts: { db: Db; clock?: Clock }) {
  const service = new MoneyDueService(opts.db, opts.clock);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/money-due',
    {
      schema: {
        tags: ['payment schedules'],
        summary:
          'Every unpaid or part-paid invoice and every instalment not yet invoiced, with totals by how overdue (paged; filters trip_id, trip_type, overdue, due_within; sort)',
        querystring: moneyDueQuery,
        response: { 200: moneyDuePageSchema, 422: validationErrorSchema },
      },
    },
    async (request) => service.list(request.query),
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/money-due/refunds',
    {
      schema: {
        tags: ['payment schedules'],
        summary:
          'Invoices paid more than their total (a card payment made twice), with the refund owed on each, oldest first (at most 200)',
        response: { 200: refundsDueSchema },
      },
    },
    async () => service.refundsDue(),
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/money-due/export',
    {
      schema: {
        tags: ['payment schedules'],
        summary:
          'Every row of the money-due list the filters allow, in its order, as an .xlsx (page is ignored); recorded in the history',
        querystring: moneyDueQuery,
      },
    },
    async (request, reply) =>
      reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('cache-control', 'no-store')
        .header(
          'content-disposition',
          `attachment; filename="${moneyDueFileName(ukToday(nowOf(opts.clock ?? systemClock)))}"`,
        )
        .send(moneyDueSpreadsheet(opts.db, service, request.query)),
  );
}
