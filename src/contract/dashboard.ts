import { z } from 'zod';
import { BOOKING_STATUSES } from './booking-constants.ts';
import { isoDate } from './invoices.ts';

// ---- the dashboard: what needs attention today, and bookings and money over time ----

export const ATTENTION_KEYS = [
  'overdue',
  'refunds',
  'asks',
  'not_ready',
  'consent',
  'provisional',
  'behind',
  'failed',
] as const;
export type AttentionKey = (typeof ATTENTION_KEYS)[number];

/** GET /api/dashboard: the season is the trips departing between from and to (default: the next 12 months). */
export const dashboardQuery = z
  .object({
    from: isoDate('from date').optional(),
    to: isoDate('to date').optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.to < q.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'The to date must be on or after the from date.' });
    if (q.from && q.to && Date.parse(q.to) - Date.parse(q.from) > 5 * 366 * 86_400_000)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'A season can be at most five years long.' });
  });
export type DashboardQuery = z.input<typeof dashboardQuery>;

const attention = z.object({
  key: z.enum(ATTENTION_KEYS),
  /** how many rows need attention: instalments, travellers, bookings, fundraisers, failures */
  count: z.number().int(),
  /** pounds, where the rows are money */
  amount: z.number().nullable(),
  /** the screen that lists them, filtered to them */
  href: z.string(),
  /** for the departures not ready (and those with pupils without consent): each departure with how many */
  departures: z
    .array(
      z.object({
        trip_id: z.number().int(),
        name: z.string(),
        departure: z.string(),
        not_ready: z.number().int(),
        href: z.string(),
      }),
    )
    .optional(),
});

export const dashboardSchema = z.object({
  season: z.object({ from: z.string(), to: z.string() }),
  today: z.string(),
  attention: z.array(attention),
  /** bookings made each week (Monday) of the last 52, of trips in the season, by trip type; previous_year: the same week a year before, of the season a year before */
  bookings_per_week: z.array(
    z.object({
      week: z.string(),
      charity: z.number().int(),
      open: z.number().int(),
      school: z.number().int(),
      previous_year: z.number().int(),
    }),
  ),
  /** pounds each week of the last 52: payments less refunds received, and invoiced (by invoice date), of trips in the season */
  money_per_week: z.array(z.object({ week: z.string(), received: z.number(), invoiced: z.number() })),
  /** pounds outstanding by departure month (yyyy-mm) in the season: due later, and overdue */
  outstanding_by_month: z.array(z.object({ month: z.string(), not_yet_due: z.number(), overdue: z.number() })),
  /** bookings of the season's trips by status and funding type */
  bookings_by_status: z.array(
    z.object({
      status: z.enum(BOOKING_STATUSES),
      free: z.number().int(),
      flexi: z.number().int(),
      self: z.number().int(),
      fundraise: z.number().int(),
    }),
  ),
  /** the next 12 departures of the season, from today: confirmed and provisional bookings against the trip's capacity */
  next_departures: z.array(
    z.object({
      trip_id: z.number().int(),
      name: z.string(),
      departure: z.string(),
      confirmed: z.number().int(),
      /** provisional and not on hold */
      provisional: z.number().int(),
      /** held for deposits being paid online, and by waiting-list offers */
      held: z.number().int(),
      capacity: z.number().int().nullable(),
      /** places left of the capacity (null: none set) */
      left: z.number().int().nullable(),
    }),
  ),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
