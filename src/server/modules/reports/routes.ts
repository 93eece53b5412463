import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messageSchema, validationErrorSchema } from '../../../contract/common.ts';
import { isReportName, reportParams, reportQuery, reportSchema } from '../../../contract/reports.ts';
import { HttpError } from '../../errors.ts';
import type { Db } from '../../../db/client.ts';
import { nowOf, systemClock, type Clock } from '../../clock.ts';
import { ukToday } from '../../../contract/dates.ts';
import { ReportService } from './service.ts';

/** The finance reports: GET /api/reports/{name}?from=&to=|at=&format=json|xlsx. */
export async function reportRoutes(app: FastifyInstance, opts: { db: Db; clock?: Clock }) {
  const service = new ReportService(opts.db);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/reports/:name',
    {
      schema: {
        tags: ['reports'],
        summary:
          'A finance report: payments (received between from and to, by trip and processor), aged-debt (what is owed, aged at a day), trip-profit (trips departing between from and to) or discount-usage (invoices dated between from and to). json: the first 50 rows and the totals of all; xlsx: every row, recorded in the history. Days default to this calendar year, or today.',
        params: reportParams,
        querystring: reportQuery,
        response: { 200: reportSchema, 404: messageSchema, 422: validationErrorSchema },
      },
    },
    async (request, reply) => {
      const name = request.params.name;
      if (!isReportName(name)) throw new HttpError(404, 'Report not found');
      const days = ReportService.days(ukToday(nowOf(opts.clock ?? systemClock)), request.query);
      if (request.query.format === 'xlsx') {
        const { file, body } = await service.workbook(name, days);
        return reply
          .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('cache-control', 'no-store')
          .header('content-disposition', `attachment; filename="${file}"`)
          .send(body as never);
      }
      const { allRows: _all, ...report } = await service.report(name, days);
      return report;
    },
  );
}
