import { sql, type SQL } from 'drizzle-orm';
import { addDays } from '../../../contract/dates.ts';
import type { AttentionKey, Dashboard } from '../../../contract/dashboard.ts';
import { penceToPounds } from '../../../contract/money.ts';
import { queryPrepared, queryRows, type Db } from '../../../db/client.ts';
import { JOBS_SCHEMA } from '../../jobs/queue.ts';
import type { FundraisingDefaults } from '../fundraising/service.ts';
import { ReadinessService } from '../readiness/service.ts';
import type { Clock } from '../../clock.ts';
import { TripCounts } from './trip-counts.ts';

/** The dashboard counts the refunds owed due within this many days, and the late ones. */
const REFUNDS_SOON_DAYS = 3;
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

const firstOfMonth = (day: string) => `${day.slice(0, 7)}-01`;
const nextMonth = (day: string) => firstOfMonth(addDays(firstOfMonth(day), 31));

/**
 * A season's departures in two parts: its whole months, summed by month in the month rollups
 * (migration 0063), and the trips of its partial first and last months, read trip by trip.
 * `months` is a condition on `m.month`, `trips` one on the trips `t`.
 */
function seasonParts(from: string, to: string): { months: SQL; trips: SQL } {
  const start = from === firstOfMonth(from) ? from : nextMonth(from);
  const end = addDays(to, 1) === firstOfMonth(addDays(to, 1)) ? addDays(to, 1) : firstOfMonth(to);
  if (start >= end)
    return {
      months: sql`false`,
      trips: sql`t.departure_date between ${from}::date and ${to}::date and t.deleted_at is null`,
    };
  return {
    months: sql`m.month >= ${start}::date and m.month < ${end}::date`,
    trips: sql`(t.departure_date between ${from}::date and ${addDays(start, -1)}::date
      or t.departure_date between ${end}::date and ${to}::date) and t.deleted_at is null`,
  };
}

/**
 * The dashboard, every number of it in one call and all of it in SQL: what needs
 * attention today, and the season's bookings and money over time. The season is the trips
 * departing between two days; every number follows it. Amounts come back in pounds.
 */
export class DashboardService {
  private readonly tripCounts: TripCounts;

  constructor(
    private readonly db: Db,
    fundraisingDefaults: FundraisingDefaults,
    clock?: Pick<Clock, 'now'>,
  ) {
    this.tripCounts = new TripCounts(db, fundraisingDefaults, new ReadinessService(db, fundraisingDefaults, clock));
  }

  /** The default season: departures from today to a year on. */
  static season(today: string, from?: string, to?: string) {
    const start = from ?? today;
    return {
      from: start,
      to: to ?? addDays(`${Number(start.slice(0, 4)) + 1}${start.slice(4)}`.replace(/-02-29$/, '-02-28'), -1),
    };
  }

  async get(today: string, season: { from: string; to: string }): Promise<Dashboard> {
    const inSeason = (from = season.from, to = season.to): SQL =>
      sql`t.departure_date between ${from}::date and ${to}::date and t.deleted_at is null`;
    const firstWeek = addDays(monday(today), -7 * (WEEKS - 1));
    const weeks = Array.from({ length: WEEKS }, (_, i) => addDays(firstWeek, 7 * i));

    const parts = seasonParts(season.from, season.to);
    const before = seasonParts(lastYear(season.from), lastYear(season.to));
    // every series reads the rollups (decision 015): the season's whole departure months from the
    // sums by month, its partial first and last months from their trips' own rows
    const reads = Promise.all([
      queryPrepared<{ week: string | Date; type: string; n: number }>(
        this.db,
        sql`select x.week, x.type, sum(x.n)::int as n from (
            select m.week, m.type, m.n from booking_month_weeks m where ${parts.months} and m.week >= ${firstWeek}::date
            union all
            select d.week, t.type, d.n from booking_trip_weeks d join trips t on t.id = d.trip_id
              where ${parts.trips} and d.week >= ${firstWeek}::date
          ) x group by 1, 2`,
      ),
      queryPrepared<{ status: string; funding_type: string; n: number }>(
        this.db,
        // each trip's counts from its own index entries: a scan of every trip's took three times as long
        sql`select x.status, x.funding_type, sum(x.n)::int as n from (
            select m.status, m.funding_type, m.n from booking_month_counts m where ${parts.months}
            union all
            select d.status, d.funding_type, d.n
              from trips t cross join lateral (select * from booking_trip_counts c where c.trip_id = t.id offset 0) d
              where ${parts.trips}
          ) x group by 1, 2`,
      ),
      queryPrepared<{ week: string | Date; n: number }>(
        this.db,
        sql`select x.week, sum(x.n)::int as n from (
            select m.week, m.n from booking_month_weeks m
              where ${before.months} and m.week >= ${addDays(firstWeek, -7 * WEEKS)}::date and m.week < ${firstWeek}::date
            union all
            select d.week, d.n from booking_trip_weeks d join trips t on t.id = d.trip_id
              where ${before.trips} and d.week >= ${addDays(firstWeek, -7 * WEEKS)}::date and d.week < ${firstWeek}::date
          ) x group by 1`,
      ),
      queryPrepared<{ week: string | Date; received: string; invoiced: string }>(
        this.db,
        sql`select x.week, sum(x.received_pence) as received, sum(x.invoiced_pence) as invoiced from (
            select m.week, m.received_pence, m.invoiced_pence from money_month_weeks m where ${parts.months} and m.week >= ${firstWeek}::date
            union all
            select d.week, d.received_pence, d.invoiced_pence from money_weeks d join trips t on t.id = d.trip_id
              where ${parts.trips} and d.week >= ${firstWeek}::date
          ) x group by 1`,
      ),
      queryPrepared<{ month: string; overdue: boolean; pence: string; n: number }>(
        this.db,
        // the partial months' trips' owed summed before and from today from their own index entries: two rows a trip, not one a day
        sql`select to_char(y.month, 'YYYY-MM') as month, y.overdue, y.pence, y.n from (select x.month, x.overdue, sum(x.pence) as pence, sum(x.n)::int as n from (
            select m.month, m.due_date < ${today}::date as overdue, m.pence, m.n from money_owed_month_days m where ${parts.months}
            union all
            select date_trunc('month', t.departure_date::timestamp)::date, o.overdue, o.pence, o.n
            from trips t cross join lateral (
              select true as overdue, sum(d.pence) as pence, sum(d.n) as n from money_owed_days d
                where d.trip_id = t.id and d.due_date < ${today}::date
              union all
              select false, sum(d.pence), sum(d.n) from money_owed_days d
                where d.trip_id = t.id and d.due_date >= ${today}::date) o
            where ${parts.trips}
          ) x group by 1, 2 having sum(x.n) > 0) y`,
      ),
      // the provisional bookings made in the last days, to take from all of them (bookings_status_idx, with the trip, finds these few)
      queryPrepared<{ n: number }>(
        this.db,
        sql`select count(*)::int as n from bookings b join trips t on t.id = b.trip_id
          where ${inSeason()} and b.status = 'provisional' and b.created_at >= (${addDays(today, -PROVISIONAL_DAYS + 1)}::date)::timestamp at time zone 'Europe/London'`,
      ),
      queryPrepared<{
        id: number;
        name: string;
        departure: string | Date;
        capacity: number | null;
        confirmed: number;
        provisional: number;
        held_bookings: number;
        offered: number;
      }>(
        this.db,
        // each of these few trips' bookings by status from its own few rows of counts; places held for deposits and by waiting-list offers, by partial index and the line's index
        sql`select t.id, t.name, t.departure_date as departure, t.capacity,
            (select coalesce(sum(c.n), 0) from booking_trip_counts c where c.trip_id = t.id and c.status = 'confirmed')::int as confirmed,
            (select coalesce(sum(c.n), 0) from booking_trip_counts c where c.trip_id = t.id and c.status = 'provisional')::int as provisional,
            (select count(*) from bookings hb where hb.trip_id = t.id and hb.hold_expires_at is not null and hb.status <> 'cancelled')::int as held_bookings,
            (select coalesce(sum(w.places - w.places_booked), 0) from waiting_list_entries w
              where w.trip_id = t.id and w.state = 'offered' and w.offer_expires_at > now())::int as offered
          from trips t
          where ${inSeason(season.from > today ? season.from : today)} and t.archived_at is null and t.status <> 'cancelled'
          order by t.departure_date, t.id limit 12`,
      ),
    ]);
    // the cards' own reads run beside the series'; the overdue money and the provisional bookings
    // they show come from the series'
    const totals = reads.then(([, byStatus, , , outstanding, recentProvisional]) => {
      const overdue = outstanding.filter((r) => r.overdue);
      return {
        overdue: { count: overdue.reduce((s, r) => s + n(r.n), 0), pence: overdue.reduce((s, r) => s + n(r.pence), 0) },
        provisional:
          byStatus.filter((r) => r.status === 'provisional').reduce((s, r) => s + n(r.n), 0) -
          n(recentProvisional[0]?.n),
      };
    });
    // the cards wait for these only after their own reads: a failure of the series' is reported
    // by `reads` below, and must not also be one nobody listens to meanwhile (Node ends on those)
    totals.catch(() => {});
    const [[made, byStatus, madeBefore, money, outstanding, , departures], attention] = await Promise.all([
      reads,
      this.attention(today, season, totals),
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
    const moneyByWeek = new Map(weeks.map((w) => [w, { week: w, received: 0, invoiced: 0 }]));
    for (const r of money) {
      const row = moneyByWeek.get(iso(r.week));
      if (row) Object.assign(row, { received: penceToPounds(n(r.received)), invoiced: penceToPounds(n(r.invoiced)) });
    }

    const months = new Map<string, { month: string; not_yet_due: number; overdue: number }>();
    for (const r of outstanding) {
      const row = months.get(r.month) ?? { month: r.month, not_yet_due: 0, overdue: 0 };
      if (r.overdue) row.overdue = penceToPounds(n(r.pence));
      else row.not_yet_due = penceToPounds(n(r.pence));
      months.set(r.month, row);
    }

    const statuses = (['confirmed', 'provisional', 'cancelled'] as const).map((status) => {
      const row = { status, free: 0, flexi: 0, self: 0, fundraise: 0 };
      for (const r of byStatus)
        if (r.status === status && FUNDING.has(r.funding_type))
          row[r.funding_type as 'free' | 'flexi' | 'self' | 'fundraise'] += n(r.n);
      return row;
    });

    return {
      season,
      today,
      attention,
      bookings_per_week: [...byWeek.values()],
      money_per_week: [...moneyByWeek.values()],
      outstanding_by_month: [...months.values()].sort((a, b) => a.month.localeCompare(b.month)),
      bookings_by_status: statuses,
      next_departures: departures.map((d) => {
        const confirmed = n(d.confirmed);
        // bookings on hold are provisional: they count as held, not among the provisional places taken
        const heldBookings = n(d.held_bookings);
        const provisional = Math.max(0, n(d.provisional) - heldBookings);
        const held = heldBookings + n(d.offered);
        const capacity = d.capacity === null ? null : Number(d.capacity);
        return {
          trip_id: Number(d.id),
          name: d.name,
          departure: iso(d.departure),
          confirmed,
          provisional,
          held,
          capacity,
          left: capacity === null ? null : Math.max(0, capacity - confirmed - provisional - held),
        };
      }),
    };
  }

  /** The "needs attention today" cards, each with the screen that lists its rows. */
  private async attention(
    today: string,
    season: { from: string; to: string },
    totals: Promise<{ overdue: { count: number; pence: number }; provisional: number }>,
  ): Promise<Dashboard['attention']> {
    const seasonParams = { departure_from: season.from, departure_to: season.to };
    const bookedBefore = addDays(today, -PROVISIONAL_DAYS + 1);
    const [trips, failedJobs, [waiting]] = await Promise.all([
      queryPrepared<{ id: number; name: string; type: string; departure: string | Date; soon: boolean }>(
        this.db,
        sql`select t.id, t.name, t.type, t.departure_date as departure,
            (t.departure_date between ${today}::date and ${addDays(today, READY_WINDOW_DAYS)}::date and t.archived_at is null and t.status <> 'cancelled') as soon
          from trips t
          where t.departure_date between ${season.from}::date and ${season.to}::date and t.deleted_at is null
          order by t.departure_date, t.id`,
      ),
      // not prepared: the queue's table may not be there yet
      queryRows<{ n: number }>(
        this.db,
        sql`select case when to_regclass(${`${JOBS_SCHEMA}.job`}) is null then 0
          else (select count(*) from ${sql.identifier(JOBS_SCHEMA)}.job where state = 'failed')::int end as n`,
      ).catch(() => [{ n: 0 }]),
      // failed emails of the last days, refunds owed that fall due within 3 days or are late, and
      // travellers' asks to cancel or change waiting for the office (a partial index holds them)
      queryPrepared<{ failed_emails: number; refunds: number; refunds_pence: string; asks: number }>(
        this.db,
        sql`select ((select count(*) from payment_reminders where outcome = 'failed' and created_at > now() - make_interval(days => ${FAILED_EMAIL_DAYS}))
            + (select count(*) from chasers where outcome = 'failed' and created_at > now() - make_interval(days => ${FAILED_EMAIL_DAYS})))::int as failed_emails,
          r.n as refunds, r.pence as refunds_pence,
          (select count(*) from change_requests where state = 'open')::int as asks
          from (select count(*)::int as n, coalesce(sum(amount_pence), 0)::bigint as pence from refunds_owed
            where state = 'open' and due_on <= ${addDays(today, REFUNDS_SOON_DAYS)}::date) r`,
      ),
    ]);
    const soon = trips.filter((t) => t.soon);
    const counts = await this.tripCounts.of(
      today,
      trips.map((t) => Number(t.id)),
      new Set(soon.map((t) => Number(t.id))),
    );
    const { overdue, provisional } = await totals;
    const departures = [];
    for (const trip of soon) {
      const notReady = counts.get(Number(trip.id))?.notReady ?? 0;
      if (notReady > 0)
        departures.push({
          trip_id: Number(trip.id),
          name: trip.name,
          departure: iso(trip.departure),
          not_ready: notReady,
          href: `/trips/${trip.id}/readiness?ready=no`,
        });
    }
    // pupils under 18 on departure without a parent's consent, on school trips of the next 8 weeks (the readiness board's consent check)
    const consent = soon
      .filter((t) => t.type === 'school')
      .map((t) => ({ ...t, n: counts.get(Number(t.id))?.consentMissing ?? 0 }))
      .filter((t) => t.n > 0);
    const behind = [...counts.values()].reduce((s, c) => s + c.behind, 0);
    const cards: Array<Dashboard['attention'][number] & { key: AttentionKey }> = [
      {
        key: 'overdue',
        count: overdue.count,
        amount: penceToPounds(overdue.pence),
        href: `/money${query({ overdue: 1, ...seasonParams })}`,
      },
      {
        key: 'refunds',
        count: n(waiting?.refunds),
        amount: penceToPounds(Number(waiting?.refunds_pence ?? 0)),
        href: '/money?tab=refunds',
      },
      { key: 'asks', count: n(waiting?.asks), amount: null, href: '/requests' },
      {
        key: 'not_ready',
        count: departures.reduce((s, d) => s + d.not_ready, 0),
        amount: null,
        href: departures.length === 1 ? departures[0]!.href : `/trips`,
        departures,
      },
      {
        key: 'consent',
        count: consent.reduce((s, c) => s + n(c.n), 0),
        amount: null,
        href: consent.length === 1 ? `/trips/${consent[0]!.id}/readiness?check=consent` : '/trips',
        departures: consent.map((c) => ({
          trip_id: Number(c.id),
          name: c.name,
          departure: iso(c.departure),
          not_ready: n(c.n),
          href: `/trips/${c.id}/readiness?check=consent`,
        })),
      },
      {
        key: 'provisional',
        count: provisional,
        amount: null,
        href: `/bookings${query({ status: 'provisional', timing: 'all', booked_before: bookedBefore, ...seasonParams })}`,
      },
      {
        key: 'behind',
        count: behind,
        amount: null,
        href: `/bookings${query({ fundraising: 'behind', timing: 'all', ...seasonParams })}`,
      },
      { key: 'failed', count: n(failedJobs[0]?.n) + n(waiting?.failed_emails), amount: null, href: '/admin/jobs' },
    ];
    return cards;
  }
}
