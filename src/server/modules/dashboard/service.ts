import { sql, type SQL } from 'drizzle-orm';
import { addDays } from '../../../contract/dates.ts';
import type { AttentionKey, Dashboard } from '../../../contract/dashboard.ts';
import { penceToPounds } from '../../../contract/money.ts';
import { queryRows, type Db } from '../../../db/client.ts';
import { JOBS_SCHEMA } from '../../jobs/queue.ts';
import { fundraisingSql } from '../fundraising/sql.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import { ReadinessService } from '../readiness/service.ts';
import type { Clock } from '../../clock.ts';

/** A booking provisional this many days or more needs a look. */
export const PROVISIONAL_DAYS = 14;
/** Departures this many days ahead are checked for travellers not ready. */
export const READY_WINDOW_DAYS = 56;
/** Failed emails of these last days count. */
export const FAILED_EMAIL_DAYS = 7;
const WEEKS = 52;
const FUNDING = new Set(['free', 'flexi', 'self', 'fundraise']);

const iso = (v: string | Date) => (typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));
const n = (v: unknown) => Number(v ?? 0);
const query = (params: Record<string, string | number | undefined>) =>
  `?${Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&')}`;
/** The Monday of a day's week. */
const monday = (day: string) => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
const lastYear = (day: string) => `${Number(day.slice(0, 4)) - 1}${day.slice(4)}`.replace(/-02-29$/, '-02-28');

/**
 * The dashboard (issue 20), every number of it in one call and all of it in SQL: what needs
 * attention today, and the season's bookings and money over time. The season is the trips
 * departing between two days; every number follows it. Amounts come back in pounds.
 */
export class DashboardService {
  private readonly readiness: ReadinessService;

  constructor(
    private readonly db: Db,
    private readonly fundraisingDefaults: FundraisingDefaults,
    clock?: Pick<Clock, 'now'>,
  ) {
    this.readiness = new ReadinessService(db, fundraisingDefaults, clock);
  }

  /** The default season: departures from today to a year on. */
  static season(today: string, from?: string, to?: string) {
    const start = from ?? today;
    return { from: start, to: to ?? addDays(`${Number(start.slice(0, 4)) + 1}${start.slice(4)}`.replace(/-02-29$/, '-02-28'), -1) };
  }

  async get(today: string, season: { from: string; to: string }): Promise<Dashboard> {
    const inSeason = (from = season.from, to = season.to): SQL => sql`t.departure_date between ${from}::date and ${to}::date and t.deleted_at is null`;
    const firstWeek = addDays(monday(today), -7 * (WEEKS - 1));
    const weeks = Array.from({ length: WEEKS }, (_, i) => addDays(firstWeek, 7 * i));

    const [made, madeBefore, received, invoiced, outstanding, byStatus, departures] = await Promise.all([
      queryRows<{ week: string | Date; type: string; n: number }>(
        this.db,
        sql`select date_trunc('week', b.created_at at time zone 'Europe/London')::date as week, t.type, count(*)::int as n
          from bookings b join trips t on t.id = b.trip_id
          where ${inSeason()} and b.created_at >= (${firstWeek}::date)::timestamp at time zone 'Europe/London'
          group by 1, 2`,
      ),
      queryRows<{ week: string | Date; n: number }>(
        this.db,
        sql`select date_trunc('week', b.created_at at time zone 'Europe/London')::date as week, count(*)::int as n
          from bookings b join trips t on t.id = b.trip_id
          where ${inSeason(lastYear(season.from), lastYear(season.to))}
            and b.created_at >= (${addDays(firstWeek, -7 * WEEKS)}::date)::timestamp at time zone 'Europe/London'
            and b.created_at < (${firstWeek}::date)::timestamp at time zone 'Europe/London'
          group by 1`,
      ),
      queryRows<{ week: string | Date; pence: string }>(
        this.db,
        sql`select date_trunc('week', x.date)::date as week, sum(case when x.type = 'payment' then x.amount_pence else -x.amount_pence end) as pence
          from transactions x join bookings b on b.id = x.booking_id join trips t on t.id = b.trip_id
          where ${inSeason()} and x.deleted_at is null and x.date >= ${firstWeek}::date
          group by 1`,
      ),
      // an invoice's total as money_owed_of (migration 0014) reckons it: its items and add-ons, less its discount
      queryRows<{ week: string | Date; pence: string }>(
        this.db,
        sql`select date_trunc('week', i.invoice_date)::date as week, sum(s.subtotal - greatest(0, least(i.discount_pence, s.subtotal))) as pence
          from invoices i join bookings b on b.id = i.booking_id join trips t on t.id = b.trip_id
          cross join lateral (select coalesce((select sum(ii.amount_pence) from invoice_items ii where ii.invoice_id = i.id), 0)
                                   + coalesce((select sum(ia.price_pence) from invoice_addons ia where ia.invoice_id = i.id), 0) as subtotal) s
          where ${inSeason()} and i.invoice_date >= ${firstWeek}::date
          group by 1`,
      ),
      queryRows<{ month: string; overdue: boolean; pence: string; n: number }>(
        this.db,
        sql`select to_char(m.departure, 'YYYY-MM') as month, m.due_date < ${today}::date as overdue, sum(m.outstanding_pence) as pence,
            count(*) filter (where m.kind = 'instalment')::int + count(*) filter (where m.kind = 'invoice')::int as n
          from money_owed m join trips t on t.id = m.trip_id
          where ${inSeason()}
          group by 1, 2`,
      ),
      queryRows<{ status: string; funding_type: string; n: number }>(
        this.db,
        sql`select b.status, b.funding_type, count(*)::int as n from bookings b join trips t on t.id = b.trip_id where ${inSeason()} group by 1, 2`,
      ),
      queryRows<{ id: number; name: string; departure: string | Date; capacity: number | null; confirmed: number; provisional: number }>(
        this.db,
        sql`select t.id, t.name, t.departure_date as departure, t.capacity,
            (select count(*) from bookings b where b.trip_id = t.id and b.status = 'confirmed')::int as confirmed,
            (select count(*) from bookings b where b.trip_id = t.id and b.status = 'provisional')::int as provisional
          from trips t
          where ${inSeason(season.from > today ? season.from : today)} and t.archived_at is null and t.status <> 'cancelled'
          order by t.departure_date, t.id limit 12`,
      ),
    ]);

    const byWeek = new Map(weeks.map((w) => [w, { week: w, charity: 0, open: 0, school: 0, previous_year: 0 }]));
    for (const r of made) {
      const row = byWeek.get(iso(r.week));
      if (row && (r.type === 'charity' || r.type === 'open' || r.type === 'school')) row[r.type] += n(r.n);
    }
    for (const r of madeBefore) {
      const row = byWeek.get(addDays(iso(r.week), 7 * WEEKS));
      if (row) row.previous_year += n(r.n);
    }
    const money = new Map(weeks.map((w) => [w, { week: w, received: 0, invoiced: 0 }]));
    for (const r of received) {
      const row = money.get(iso(r.week));
      if (row) row.received = penceToPounds(n(r.pence));
    }
    for (const r of invoiced) {
      const row = money.get(iso(r.week));
      if (row) row.invoiced = penceToPounds(n(r.pence));
    }

    const months = new Map<string, { month: string; not_yet_due: number; overdue: number }>();
    for (const r of outstanding) {
      const row = months.get(r.month) ?? { month: r.month, not_yet_due: 0, overdue: 0 };
      if (r.overdue) row.overdue = penceToPounds(n(r.pence));
      else row.not_yet_due = penceToPounds(n(r.pence));
      months.set(r.month, row);
    }
    const overdue = outstanding.filter((r) => r.overdue);

    const statuses = (['confirmed', 'provisional', 'cancelled'] as const).map((status) => {
      const row = { status, free: 0, flexi: 0, self: 0, fundraise: 0 };
      for (const r of byStatus) if (r.status === status && FUNDING.has(r.funding_type)) row[r.funding_type as 'free' | 'flexi' | 'self' | 'fundraise'] += n(r.n);
      return row;
    });

    return {
      season,
      today,
      attention: await this.attention(today, season, { count: overdue.reduce((s, r) => s + n(r.n), 0), pence: overdue.reduce((s, r) => s + n(r.pence), 0) }),
      bookings_per_week: [...byWeek.values()],
      money_per_week: [...money.values()],
      outstanding_by_month: [...months.values()].sort((a, b) => a.month.localeCompare(b.month)),
      bookings_by_status: statuses,
      next_departures: departures.map((d) => ({ trip_id: Number(d.id), name: d.name, departure: iso(d.departure), confirmed: n(d.confirmed), provisional: n(d.provisional), capacity: d.capacity === null ? null : Number(d.capacity) })),
    };
  }

  /** The "needs attention today" cards, each with the screen that lists its rows. */
  private async attention(today: string, season: { from: string; to: string }, overdue: { count: number; pence: number }): Promise<Dashboard['attention']> {
    const seasonParams = { departure_from: season.from, departure_to: season.to };
    const bookedBefore = addDays(today, -PROVISIONAL_DAYS + 1);
    const fundraising = await fundraisingSql(this.db, this.fundraisingDefaults, today);
    const [provisional, behind, soon, failedJobs, failedEmails] = await Promise.all([
      queryRows<{ n: number }>(
        this.db,
        sql`select count(*)::int as n from bookings b join trips t on t.id = b.trip_id
          where t.departure_date between ${season.from}::date and ${season.to}::date and t.deleted_at is null
            and b.status = 'provisional' and b.created_at < (${bookedBefore}::date)::timestamp at time zone 'Europe/London'`,
      ),
      queryRows<{ n: number }>(
        this.db,
        // fundraisingSql speaks of "bookings" and "trips" by name
        sql`select count(*)::int as n from bookings join trips on trips.id = bookings.trip_id
          where trips.departure_date between ${season.from}::date and ${season.to}::date and trips.deleted_at is null
            and ${fundraising.condition('behind')}`,
      ),
      queryRows<{ id: number; name: string; departure: string | Date }>(
        this.db,
        sql`select t.id, t.name, t.departure_date as departure from trips t
          where t.departure_date between greatest(${today}::date, ${season.from}::date) and least(${addDays(today, READY_WINDOW_DAYS)}::date, ${season.to}::date)
            and t.deleted_at is null and t.archived_at is null and t.status <> 'cancelled'
          order by t.departure_date, t.id`,
      ),
      queryRows<{ n: number }>(
        this.db,
        sql`select case when to_regclass(${`${JOBS_SCHEMA}.job`}) is null then 0
          else (select count(*) from ${sql.identifier(JOBS_SCHEMA)}.job where state = 'failed')::int end as n`,
      ).catch(() => [{ n: 0 }]),
      queryRows<{ n: number }>(
        this.db,
        sql`select ((select count(*) from payment_reminders where outcome = 'failed' and created_at > now() - make_interval(days => ${FAILED_EMAIL_DAYS}))
          + (select count(*) from chasers where outcome = 'failed' and created_at > now() - make_interval(days => ${FAILED_EMAIL_DAYS})))::int as n`,
      ),
    ]);
    const departures = [];
    for (const trip of soon) {
      const board = await this.readiness.forTrip(Number(trip.id));
      const notReady = board.summary.bookings - board.summary.ready;
      if (notReady > 0) departures.push({ trip_id: Number(trip.id), name: trip.name, departure: iso(trip.departure), not_ready: notReady, href: `/trips/${trip.id}/readiness?ready=no` });
    }
    const cards: Array<Dashboard['attention'][number] & { key: AttentionKey }> = [
      { key: 'overdue', count: overdue.count, amount: penceToPounds(overdue.pence), href: `/money${query({ overdue: 1, ...seasonParams })}` },
      {
        key: 'not_ready',
        count: departures.reduce((s, d) => s + d.not_ready, 0),
        amount: null,
        href: departures.length === 1 ? departures[0]!.href : `/trips`,
        departures,
      },
      { key: 'provisional', count: n(provisional[0]?.n), amount: null, href: `/bookings${query({ status: 'provisional', timing: 'all', booked_before: bookedBefore, ...seasonParams })}` },
      { key: 'behind', count: n(behind[0]?.n), amount: null, href: `/bookings${query({ fundraising: 'behind', timing: 'all', ...seasonParams })}` },
      { key: 'failed', count: n(failedJobs[0]?.n) + n(failedEmails[0]?.n), amount: null, href: '/admin/jobs' },
    ];
    return cards;
  }
}
