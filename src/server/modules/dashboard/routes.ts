import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { validationErrorSchema } from '../../../contract/common.ts';
import { dashboardQuery, dashboardSchema } from '../../../contract/dashboard.ts';
import type { Db } from '../../../db/client.ts';
import { nowOf, systemClock, type Clock } from '../../clock.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import { ukToday } from '../../../contract/dates.ts';
import { DashboardService } from './service.ts';

/** The dashboard: GET /api/dashboard?from=&to=, all of its numbers and series in one call. */
export async function dashboardRoutes(
  app: FastifyInstance,
  opts: { db: Db; fundraisingDefaults: FundraisingDefaults; clock?: Clock },
) {
  const service = new DashboardService(opts.db, opts.fundraisingDefaults, opts.clock);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/dashboard',
    {
      schema: {
        tags: ['dashboard'],
        summary:
          "What needs attention today and the season's bookings and money over time: bookings per week by trip type against the year before, money received and invoiced per week, outstanding by departure month, bookings by status and funding, the next departures against capacity. The season is the trips departing from `from` to `to` (default: today and the next 12 months).",
        querystring: dashboardQuery,
        response: { 200: dashboardSchema, 422: validationErrorSchema },
      },
    },
    async (request) => {
      const today = ukToday(nowOf(opts.clock ?? systemClock));
      return service.get(today, DashboardService.season(today, request.query.from, request.query.to));
    },
  );
}
